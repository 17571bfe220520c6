"""The next deadline as an iCalendar file (RFC 5545), attached to reports and welcomes.

One event per seat and phase: its UID names the game, the seat and the phase's
sequence number, so a later file for the same phase (the moderator extended the
deadline) replaces the event in the player's calendar instead of adding one.
RFC 5545 3.8.7.4 wants a higher SEQUENCE for each revision; ours is the number
of seconds from the phase's opening to the file's issue, which grows with every
file issued later and needs no counter kept anywhere.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

PRODID = "-//gm//play-by-email game master//EN"


def _stamp(dt: datetime) -> str:
    return dt.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def _escape(text: str) -> str:
    """TEXT values (RFC 5545 3.3.11): backslash, semicolon, comma and newline escaped."""
    return (text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\\n").replace("\n", "\\n"))


def _fold(line: str) -> list[str]:
    """Content lines of at most 75 octets, continued with a leading space (3.1)."""
    if len(line) <= 75 and line.isascii():  # the common line: one octet a character
        return [line]
    out: list[str] = []
    current, size = "", 0
    for ch in line:
        n = len(ch.encode("utf-8"))
        if size + n > (75 if not out else 74):
            out.append(current)
            current, size = "", 0
        current += ch
        size += n
    out.append(current)
    return [out[0]] + [" " + part for part in out[1:]]


def deadline_uid(game_id: str, power: str, phase_seq: int, domain: str) -> str:
    return f"deadline-{game_id}-{power or 'moderator'}-{phase_seq}@{domain}"


def revision(opened: datetime, issued: datetime) -> int:
    """SEQUENCE: seconds since the phase opened (never negative), so later files win."""
    return max(0, int((_utc(issued) - _utc(opened)).total_seconds()))


def _utc(dt: datetime) -> datetime:
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt


def deadline_event(*, uid: str, sequence: int, deadline: datetime, issued: datetime,
                   summary: str, description: str, alarm_before: timedelta = timedelta(hours=2)) -> str:
    """A VCALENDAR holding one VEVENT that ends at ``deadline`` (CRLF line ends)."""
    deadline = _utc(deadline)
    props = [
        "BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{PRODID}", "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH", "BEGIN:VEVENT", f"UID:{uid}", f"SEQUENCE:{sequence}",
        f"DTSTAMP:{_stamp(issued)}", f"DTSTART:{_stamp(deadline - timedelta(minutes=30))}",
        f"DTEND:{_stamp(deadline)}", f"SUMMARY:{_escape(summary)}",
        f"DESCRIPTION:{_escape(description)}", "TRANSP:TRANSPARENT", "STATUS:CONFIRMED",
        "BEGIN:VALARM", "ACTION:DISPLAY", f"DESCRIPTION:{_escape(summary)}",
        f"TRIGGER;RELATED=END:-PT{int(alarm_before.total_seconds() // 60)}M", "END:VALARM",
        "END:VEVENT", "END:VCALENDAR",
    ]
    return "".join(part + "\r\n" for prop in props for part in _fold(prop))
