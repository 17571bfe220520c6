"""Sort inbound mail into the kinds the service answers and the kinds it never answers.

Spec section 2: auto-replies, bounces and list traffic are stored and never
answered; loop protection uses headers, never the From address alone (the
moderator may write from the service's own address). The checks run in the
order of :data:`_CHECKS`; the first that matches decides, and records the
header that made it decide.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gm.mail.mime import DecodedMail


class MailClass(enum.Enum):
    ORDINARY = "ordinary"  # a person wrote it: answer it
    AUTO_REPLY = "auto_reply"  # vacation, out-of-office, other auto-responders
    BOUNCE = "bounce"  # delivery status notifications, null return path
    LIST = "list"  # mailing-list or bulk traffic
    LOOP = "loop"  # our own mail (or another robot's) coming back

    @property
    def answered(self) -> bool:
        """Only ordinary mail gets a reply (spec section 2)."""
        return self is MailClass.ORDINARY


@dataclass(frozen=True)
class Classification:
    kind: MailClass
    header: str = ""  # the header (or "Subject", "Content-Type") that decided
    value: str = ""


_VACATION_SUBJECT = re.compile(
    r"^\s*(out of (the )?office|automatic reply|auto(matic)?[- ]?(reply|response)\b|autoreply"
    r"|auto:|vacation|on vacation|away from (the )?office|abwesenheit|r[ée]ponse automatique"
    r"|absence|risposta automatica|respuesta autom[áa]tica|fuera de la oficina)",
    re.I,
)
_DAEMON = re.compile(r"^(mailer-daemon|mail-daemon|postmaster-noreply)@", re.I)
Check = Callable[["DecodedMail"], "Classification | None"]


def _our_game_header(m: DecodedMail) -> Classification | None:
    value = m.header("X-GM-Game")
    return Classification(MailClass.LOOP, "X-GM-Game", value) if value is not None else None


def _delivery_report(m: DecodedMail) -> Classification | None:
    if m.content_type == "multipart/report":  # RFC 6522: always machine-generated
        if m.report_type in ("delivery-status", ""):
            return Classification(MailClass.BOUNCE, "Content-Type", m.content_type)
        # a read receipt (disposition-notification, RFC 8098) or any other report
        return Classification(MailClass.AUTO_REPLY, "Content-Type",
                              f"{m.content_type}; report-type={m.report_type}")
    if _DAEMON.match(m.from_addr):
        return Classification(MailClass.BOUNCE, "From", m.from_addr)
    return None


def _auto_submitted(m: DecodedMail) -> Classification | None:
    value = (m.header("Auto-Submitted") or "").strip()
    token = value.split(";")[0].strip().lower()
    if not token or token == "no":
        return None
    kind = MailClass.LOOP if token == "auto-generated" else MailClass.AUTO_REPLY
    return Classification(kind, "Auto-Submitted", value)


def _auto_reply_headers(m: DecodedMail) -> Classification | None:
    for name in ("X-Autoreply", "X-Autorespond", "X-Auto-Response", "X-Vacation"):
        value = m.header(name)
        if value is not None and value.strip().lower() not in ("no", "false", "0"):
            return Classification(MailClass.AUTO_REPLY, name, value)
    precedence = (m.header("Precedence") or "").strip().lower()
    if precedence == "auto_reply":
        return Classification(MailClass.AUTO_REPLY, "Precedence", precedence)
    if _VACATION_SUBJECT.match(m.subject):
        return Classification(MailClass.AUTO_REPLY, "Subject", m.subject)
    return None


def _null_return_path(m: DecodedMail) -> Classification | None:
    for value in m.header_all("Return-Path"):
        if value.strip().replace(" ", "") in ("<>", ""):
            return Classification(MailClass.BOUNCE, "Return-Path", value)
    return None


def _list_traffic(m: DecodedMail) -> Classification | None:
    for name in ("List-Id", "List-Post", "X-Mailing-List"):
        value = m.header(name)
        if value is not None:
            return Classification(MailClass.LIST, name, value)
    precedence = (m.header("Precedence") or "").strip().lower()
    if precedence in ("bulk", "list", "junk"):
        return Classification(MailClass.LIST, "Precedence", precedence)
    return None


# Order matters: our own header first; a delivery report before auto-reply
# headers (many DSNs say Auto-Submitted: auto-replied); explicit auto-reply
# markers before the null return path (RFC 3834 auto-replies use <> too).
_CHECKS: tuple[Check, ...] = (
    _our_game_header,
    _delivery_report,
    _auto_submitted,
    _auto_reply_headers,
    _null_return_path,
    _list_traffic,
)


def classify_with_reason(msg: DecodedMail) -> Classification:
    """Classify ``msg`` and say which header decided."""
    for check in _CHECKS:
        found = check(msg)
        if found is not None:
            return found
    return Classification(MailClass.ORDINARY)


def classify(msg: DecodedMail) -> MailClass:
    """ORDINARY, AUTO_REPLY, BOUNCE, LIST or LOOP (spec section 2)."""
    return classify_with_reason(msg).kind
