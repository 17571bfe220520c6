"""Deadline policy: lengths per phase kind, fixed local times, DST, holidays, grace."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gm.service.deadlines import (
    Lateness,
    SettingsError,
    deadline_for,
    due_at,
    format_duration,
    lateness,
    parse_duration,
    policy,
    reminder_times,
)

OPEN = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday


def test_durations_parse_and_print_back() -> None:
    assert parse_duration("72h") == timedelta(hours=72)
    assert parse_duration("1d12h") == timedelta(hours=36)
    assert parse_duration("90m") == timedelta(minutes=90)
    assert parse_duration(6) == timedelta(hours=6)
    assert format_duration(timedelta(hours=36)) == "1d12h"
    with pytest.raises(SettingsError, match="not a duration"):
        parse_duration("three days")


def test_default_lengths_per_phase_kind() -> None:
    """72 h for Pax Britannica movement, 48 h for a Pax Baltica action phase, 24 h battle."""
    assert deadline_for({}, "movement", OPEN) == OPEN + timedelta(hours=72)
    assert deadline_for({}, "actions", OPEN) == OPEN + timedelta(hours=48)
    assert deadline_for({}, "battle", OPEN) == OPEN + timedelta(hours=24)
    assert deadline_for({}, "something-new", OPEN) == OPEN + timedelta(hours=48)


def test_game_settings_override_lengths_and_fallback() -> None:
    s = {"deadlines": {"length": {"battle": "12h", "setup": "none"}, "default": "5d"}}
    assert deadline_for(s, "battle", OPEN) == OPEN + timedelta(hours=12)
    assert deadline_for(s, "other", OPEN) == OPEN + timedelta(days=5)
    assert deadline_for(s, "setup", OPEN) is None


def test_sundays_20_00_stockholm_across_the_spring_dst_change() -> None:
    """"Sundays 20:00 Europe/Stockholm": 19:00 UTC in winter, 18:00 UTC in summer."""
    s = {"deadlines": {"default": "72h", "at": "20:00", "weekdays": ["sunday"],
                       "timezone": "Europe/Stockholm"}}
    # Opens Thursday 19 March: +72h = Sunday 22 March 09:00 UTC -> that Sunday 20:00 CET.
    first = deadline_for(s, "movement", datetime(2026, 3, 19, 9, 0, tzinfo=UTC))
    assert first == datetime(2026, 3, 22, 19, 0, tzinfo=UTC)
    # The next phase opens at that deadline: next Sunday is 29 March, after the switch to CEST.
    second = deadline_for(s, "movement", first)
    assert second == datetime(2026, 3, 29, 18, 0, tzinfo=UTC)


def test_autumn_dst_change_keeps_the_local_time() -> None:
    s = {"deadlines": {"default": "1d", "at": "20:00", "timezone": "Europe/Stockholm"}}
    got = deadline_for(s, "x", datetime(2026, 10, 24, 12, 0, tzinfo=UTC))  # -> Sunday 25 Oct
    assert got == datetime(2026, 10, 25, 19, 0, tzinfo=UTC)  # 20:00 CET (UTC+1)


def test_a_deadline_in_the_spring_gap_lands_after_it() -> None:
    s = {"deadlines": {"default": "1h", "at": "02:30", "timezone": "Europe/Stockholm"}}
    got = deadline_for(s, "x", datetime(2026, 3, 29, 0, 0, tzinfo=UTC))  # 01:00 CET
    # 02:30 does not exist on 29 March in Stockholm; it reads as 03:30 CEST = 01:30 UTC.
    assert got == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)


def test_a_deadline_on_a_holiday_moves_to_the_next_allowed_day() -> None:
    s = {"deadlines": {"default": "48h", "timezone": "Europe/Paris",
                       "skip": ["2026-12-24", "2026-12-25"]}}
    got = deadline_for(s, "actions", datetime(2026, 12, 22, 18, 0, tzinfo=UTC))
    assert got == datetime(2026, 12, 26, 18, 0, tzinfo=UTC)  # same local time, 26th


def test_holiday_and_fixed_weekday_together() -> None:
    s = {"deadlines": {"default": "1d", "at": "20:00", "weekdays": ["sun"],
                       "timezone": "Europe/Stockholm", "skip": ["2026-12-27"]}}
    got = deadline_for(s, "x", datetime(2026, 12, 24, 12, 0, tzinfo=UTC))
    assert got == datetime(2027, 1, 3, 19, 0, tzinfo=UTC)  # the 27th is skipped


def test_grace_and_lateness() -> None:
    s = {"deadlines": {"grace": "1h"}}
    deadline = datetime(2026, 3, 5, 20, 0, tzinfo=UTC)
    assert due_at(s, deadline) == deadline + timedelta(hours=1)
    assert lateness(s, deadline, deadline) is Lateness.ON_TIME
    assert lateness(s, deadline, deadline + timedelta(minutes=30)) is Lateness.IN_GRACE
    assert lateness(s, deadline, deadline + timedelta(minutes=61)) is Lateness.TOO_LATE
    assert lateness({}, deadline, deadline + timedelta(seconds=1)) is Lateness.TOO_LATE


def test_reminder_times_are_before_the_deadline_earliest_first() -> None:
    deadline = datetime(2026, 3, 5, 20, 0, tzinfo=UTC)
    got = reminder_times({"deadlines": {"reminders": ["2h", "24h"]}}, deadline)
    assert got == [("1d", deadline - timedelta(hours=24)), ("2h", deadline - timedelta(hours=2))]


@pytest.mark.parametrize("bad", [
    {"timezone": "Mars/Olympus"}, {"at": "25:00"}, {"weekdays": ["someday"]},
    {"skip": ["2026-02-30"]}, {"on_outage": "panic"}, {"grace": "soon"},
])
def test_bad_settings_name_the_key(bad: dict[str, object]) -> None:
    with pytest.raises(SettingsError, match="deadlines"):
        policy({"deadlines": bad})
