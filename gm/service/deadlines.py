"""The per-game deadline policy, read from ``Game.settings["deadlines"]``.

Pure functions: no clock, no database. Every key is optional (docs/scheduling.md)::

    "deadlines": {
        "length": {"movement": "72h", "battle": "24h"},  # per phase kind
        "default": "48h",            # kinds not named above (else data file, else 48h)
        "at": "20:00",               # fixed local time of day for every deadline
        "weekdays": ["sun"],         # allowed weekdays of the deadline
        "timezone": "Europe/Stockholm",  # for "at", "weekdays", "skip" (default UTC)
        "skip": ["2026-12-24", "2026-12-25"],  # holidays: never a deadline
        "grace": "1h",               # orders still accepted this long after the deadline
        "reminders": ["24h", "2h"],  # before the deadline (the default; [] for none)
        "remind": "missing",         # or "not_ready": also powers not READY
        "early": true,               # adjudicate when every owing power is READY
        "early_delay": "10m",
        "early_alone": true,         # the only power a sequential phase waits for: READY closes it
        "on_outage": "adjudicate",   # or "extend"
        "outage_threshold": "15m",
        "nmr_warn_after": 2,         # missed phases in a row before the moderator is told
        "absence": "extend"          # or "default" / "ask"
    }

Durations are written ``72h``, ``2d``, ``90m``, ``1d12h``, ``30s`` and are
exact lengths of time; a fixed ``at`` time is local wall-clock time, so a
"Sundays 20:00 Europe/Stockholm" deadline stays at 20:00 across DST changes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from enum import Enum
from functools import cache, lru_cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from gm.clock import utc

_DURATION = re.compile(r"(\d+)\s*([dhms])", re.I)
_UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_NO_DEADLINE = ("none", "never", "")
_MAX_SEARCH_DAYS = 400  # a year of skipped dates is a settings error, not a loop


class SettingsError(ValueError):
    """A game's deadline settings cannot be understood (names the key)."""


class OutagePolicy(Enum):
    ADJUDICATE = "adjudicate"  # adjudicate on start, once
    EXTEND = "extend"  # move the deadline by the length of the outage


class AbsencePolicy(Enum):
    EXTEND = "extend"  # move the deadline to give the absent power its phase length
    DEFAULT = "default"  # the power gets its default orders
    ASK = "ask"  # the moderator is told and decides


class RemindWho(Enum):
    MISSING = "missing"  # owing powers with no current orders
    NOT_READY = "not_ready"  # ... and those whose orders are not READY


@cache
def _defaults() -> dict[str, Any]:
    path = Path(__file__).with_name("data") / "deadline_defaults.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def parse_duration(text: str | int | float, key: str = "duration") -> timedelta:
    """``"1d12h"`` -> 36 hours; a bare number is hours. Raises :class:`SettingsError`."""
    if isinstance(text, bool):
        raise SettingsError(f"{key}: {text!r} is not a duration")
    if isinstance(text, int | float):
        return timedelta(hours=text)
    cleaned = text.strip().lower().replace(" ", "")
    parts = _DURATION.findall(cleaned)
    if not parts or "".join(n + u for n, u in parts) != cleaned:
        raise SettingsError(f"{key}: '{text}' is not a duration like 72h, 2d, 90m or 1d12h")
    return timedelta(seconds=sum(int(n) * _UNITS[u] for n, u in parts))


def format_duration(delta: timedelta) -> str:
    """The inverse of :func:`parse_duration` (``timedelta(hours=36)`` -> ``"1d12h"``)."""
    seconds = int(delta.total_seconds())
    out = []
    for unit, size in _UNITS.items():
        if seconds >= size:
            out.append(f"{seconds // size}{unit}")
            seconds %= size
    return "".join(out) or "0s"


def rounded_left(delta: timedelta) -> timedelta:
    """What a reminder says is left: whole hours from 2 h up, else whole minutes.

    Said from the real time left when the reminder goes out, not from the
    reminder's label: one sent late (after a pause) never promises "2h" when
    40 minutes are left.
    """
    if delta >= timedelta(hours=2):
        return timedelta(hours=round(delta / timedelta(hours=1)))
    return timedelta(minutes=max(1, round(delta / timedelta(minutes=1))))


def time_left(delta: timedelta) -> str:
    """:func:`rounded_left` in the short form of a setting (``"2h"``, ``"40m"``)."""
    return format_duration(rounded_left(delta))


@dataclass(frozen=True)
class DeadlinePolicy:
    """A game's deadline settings, parsed and checked once."""

    lengths: Mapping[str, timedelta | None]
    default: timedelta | None
    at: time | None = None
    weekdays: frozenset[int] = frozenset()  # 0 = Monday; empty: any day
    timezone: ZoneInfo = ZoneInfo("UTC")
    skip: frozenset[date] = frozenset()
    grace: timedelta = timedelta(0)
    reminders: tuple[timedelta, ...] = ()
    remind: RemindWho = RemindWho.MISSING
    early: bool = False
    early_delay: timedelta = timedelta(0)
    early_alone: bool = True  # a sequential phase owed by one power closes on its READY
    on_outage: OutagePolicy = OutagePolicy.ADJUDICATE
    outage_threshold: timedelta = timedelta(minutes=15)
    nmr_warn_after: int = 2
    absence: AbsencePolicy = AbsencePolicy.ASK

    def length(self, kind: str) -> timedelta | None:
        """The phase length for ``kind`` (``None``: the phase has no deadline)."""
        return self.lengths[kind] if kind in self.lengths else self.default

    def allowed_day(self, day: date) -> bool:
        """May a deadline fall on this local date (weekday allowed, not a holiday)?"""
        if day in self.skip:
            return False
        return not self.weekdays or day.weekday() in self.weekdays


def _opt_duration(value: Any, key: str) -> timedelta | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in _NO_DEADLINE):
        return None
    return parse_duration(value, key)


def _enum(cls: type[Enum], value: Any, key: str, default: Enum) -> Any:
    if value is None:
        return default
    try:
        return cls(str(value).lower())
    except ValueError:
        names = ", ".join(m.value for m in cls)
        raise SettingsError(f"{key}: '{value}' is not one of {names}") from None


def _zone(name: Any) -> ZoneInfo:
    try:
        return ZoneInfo(str(name or "UTC"))
    except (ZoneInfoNotFoundError, ValueError):
        raise SettingsError(f"deadlines.timezone: unknown time zone '{name}'") from None


def _time_of_day(value: Any) -> time | None:
    if value in (None, ""):
        return None
    try:
        return time.fromisoformat(str(value))
    except ValueError:
        raise SettingsError(f"deadlines.at: '{value}' is not a time like 20:00") from None


def _weekdays(value: Any) -> frozenset[int]:
    days = [value] if isinstance(value, str) else list(value or [])
    out = set()
    for day in days:
        key = str(day).strip().lower()[:3]
        if key not in _WEEKDAYS:
            raise SettingsError(f"deadlines.weekdays: '{day}' is not a weekday")
        out.add(_WEEKDAYS.index(key))
    return frozenset(out)


def _dates(value: Any) -> frozenset[date]:
    try:
        return frozenset(date.fromisoformat(str(d)) for d in value or [])
    except ValueError as exc:
        raise SettingsError(f"deadlines.skip: {exc}") from None


def policy(settings: Mapping[str, Any] | None) -> DeadlinePolicy:
    """Parse ``settings["deadlines"]`` (a game's whole settings dict) into a policy.

    Parsed once per distinct settings (the daemon reads every open phase's policy
    at each round: a thousand games share a handful of settings)."""
    raw: Mapping[str, Any] = (settings or {}).get("deadlines") or {}
    return _policy(json.dumps(raw, sort_keys=True, default=str))


@lru_cache(maxsize=1024)
def _policy(key: str) -> DeadlinePolicy:
    raw: Mapping[str, Any] = json.loads(key)
    data = _defaults()
    lengths: dict[str, timedelta | None] = {
        k: parse_duration(v["value"]) for k, v in data["lengths"].items()
    }
    for kind, value in (raw.get("length") or {}).items():
        lengths[kind] = _opt_duration(value, f"deadlines.length.{kind}")
    default = (_opt_duration(raw["default"], "deadlines.default") if "default" in raw
               else parse_duration(data["fallback"]["value"]))
    return DeadlinePolicy(
        lengths=lengths, default=default, at=_time_of_day(raw.get("at")),
        weekdays=_weekdays(raw.get("weekdays")), timezone=_zone(raw.get("timezone")),
        skip=_dates(raw.get("skip")),
        grace=parse_duration(raw.get("grace", "0s"), "deadlines.grace"),
        reminders=tuple(sorted((parse_duration(r, "deadlines.reminders")
                                for r in (raw["reminders"] if "reminders" in raw
                                          else data["reminders"]["value"]) or []),
                               reverse=True)),
        remind=_enum(RemindWho, raw.get("remind"), "deadlines.remind", RemindWho.MISSING),
        early=bool(raw.get("early", False)),
        early_delay=parse_duration(raw.get("early_delay", "0s"), "deadlines.early_delay"),
        early_alone=bool(raw.get("early_alone", True)),
        on_outage=_enum(OutagePolicy, raw.get("on_outage"), "deadlines.on_outage",
                        OutagePolicy.ADJUDICATE),
        outage_threshold=parse_duration(raw.get("outage_threshold",
                                                data["outage_threshold"]["value"]),
                                        "deadlines.outage_threshold"),
        nmr_warn_after=int(raw.get("nmr_warn_after", data["nmr_warn_after"]["value"])),
        absence=_enum(AbsencePolicy, raw.get("absence"), "deadlines.absence", AbsencePolicy.ASK),
    )


def next_slot(pol: DeadlinePolicy, earliest: datetime) -> datetime:
    """The first allowed deadline at or after ``earliest`` (aware UTC in, aware UTC out).

    With a fixed ``at`` time the deadline is that local time on the first
    allowed day; without one it keeps ``earliest``'s local time of day and only
    moves off disallowed days (holidays, weekdays not listed). A local time that
    does not exist (the spring DST gap) resolves as zoneinfo's ``fold=0`` does:
    the wall clock reading one hour later.
    """
    local = utc(earliest).astimezone(pol.timezone)
    wall = pol.at or local.timetz().replace(tzinfo=None)
    day = local.date()
    for _ in range(_MAX_SEARCH_DAYS):
        candidate = datetime.combine(day, wall, tzinfo=pol.timezone)
        if pol.allowed_day(day) and candidate.astimezone(UTC) >= utc(earliest):
            return candidate.astimezone(UTC)
        day += timedelta(days=1)
    raise SettingsError("deadlines: no allowed day within a year (check weekdays and skip)")


def deadline_for(settings: Mapping[str, Any] | None, kind: str, opens_at: datetime) -> datetime | None:
    """The deadline of a phase of ``kind`` opening at ``opens_at`` (``None``: no deadline).

    The phase length for the kind (``length`` settings, else the data file's
    default for that kind, else ``default``), then moved forward to the next
    allowed slot (fixed time of day, weekdays, skipped dates).
    """
    pol = policy(settings)
    length = pol.length(kind)
    if length is None:
        return None
    return next_slot(pol, utc(opens_at) + length)


def due_at(settings: Mapping[str, Any] | None, deadline: datetime) -> datetime:
    """When a phase with this deadline is adjudicated: the deadline plus the grace period."""
    return utc(deadline) + policy(settings).grace


class Lateness(Enum):
    """Where a mail's arrival stands against the phase's deadline."""

    ON_TIME = "on time"
    IN_GRACE = "after the deadline, within the grace period"
    TOO_LATE = "too late"


def lateness(settings: Mapping[str, Any] | None, deadline: datetime | None,
             arrived: datetime) -> Lateness:
    """Classify a mail's arrival time: on time, within grace (still applied), too late.

    The mail pipeline answers a TOO_LATE mail "too late for PHASE" and stores
    it; a phase that is already adjudicated is too late whatever this says.
    """
    if deadline is None or utc(arrived) <= utc(deadline):
        return Lateness.ON_TIME
    if utc(arrived) <= due_at(settings, deadline):
        return Lateness.IN_GRACE
    return Lateness.TOO_LATE


def reminder_times(settings: Mapping[str, Any] | None,
                   deadline: datetime) -> list[tuple[str, datetime]]:
    """Each reminder's label and when it falls, earliest first (``("1d", ...), ("2h", ...)``)."""
    pol = policy(settings)
    return [(format_duration(off), utc(deadline) - off) for off in pol.reminders]
