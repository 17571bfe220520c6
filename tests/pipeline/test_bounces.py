"""A mail of gm's that bounces after the SMTP hand-over (gm/service/bounces.py), stored and
handled as the daemon does (store_inbound, handle_inbound) on the race game: the moderator
hears of each failed recipient once, nobody hears of anything else."""

from __future__ import annotations

from datetime import timedelta
from email.utils import make_msgid

from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.models import EventLog, Game, InboundMail, OutboundMail, Seat
from gm.schedule.sweep import sweep
from gm.service.adjudicate import close_phase
from gm.service.bounces import EVENT, NOTICE_KIND
from gm.service.context import ServiceContext
from gm.service.history import history_rows, history_text
from gm.service.moderator import replace_power
from gm.service.observers import set_observer
from tests.mail.test_dsn import postfix_dsn, qmail_bounce
from tests.pipeline.conftest import deliver, mail, outbox
from tests.pipeline.test_judge_habits import _show

DIAGNOSTIC = ("550 5.1.1 <south@example.org>: Recipient address rejected: User unknown in "
              "local recipient table")


def sent(ctx: ServiceContext, kind: str, to: str) -> OutboundMail:
    """The first mail of ``kind`` gm queued for ``to``."""
    return next(r for r, _ in outbox(ctx, kind=kind, to=to))


def dsn_for(row: OutboundMail, *, recipient: str | None = None, action: str = "failed",
            status: str = "5.1.1", dsn_id: str | None = None) -> bytes:
    """Postfix's DSN for ``row`` as gm sent it (the whole mail returned), under a Message-ID
    of its own (``dsn_id``, else a new one)."""
    address = recipient or (row.recipients or [""])[0]
    return postfix_dsn(row.raw.decode("utf-8", "replace").replace("\r\n", "\n"), action=action,
                       status=status, recipient=address, original=address,
                       dsn_id=dsn_id or make_msgid(domain="mx.example.org"))


def notices(ctx: ServiceContext) -> list[tuple[OutboundMail, str]]:
    return outbox(ctx, kind=NOTICE_KIND)


def inbound(ctx: ServiceContext, inbound_id: int) -> InboundMail:
    with session_scope(ctx.engine) as s:
        row = s.get(InboundMail, inbound_id)
        assert row is not None
        return row


def bounce_events(ctx: ServiceContext) -> list[EventLog]:
    with session_scope(ctx.engine) as s:
        return list(s.exec(select(EventLog).where(EventLog.type == EVENT)))


def test_a_report_that_bounced_tells_the_moderator_the_mail_seat_address_and_diagnostic(race) -> None:  # type: ignore[no-untyped-def]
    report = sent(race, "report", "south@example.org")
    before = len(outbox(race))
    inbound_id = deliver(race, dsn_for(report))

    [(notice, text)] = notices(race)
    assert notice.recipients == ["mod@example.org"] and notice.game_id == "race1"
    assert notice.subject == "[race1] mail to south@example.org bounced: turn-1: report for south"
    assert f'Mail: report "{report.subject}" (mail {report.id} of the outbox' in text
    assert "To: south@example.org" in text
    assert "Seat: south in race1" in text
    assert "Status: 5.1.1" in text and f"The server said: {DIAGNOSTIC}" in text
    assert "STATUS" in text and "SET ADDRESS" in text
    assert "gm mod replace race1 south <address>" in text
    assert "REPLACE POWER south WITH <address>" in text
    assert len(outbox(race)) == before + 1  # the notice only: a bounce is never answered

    row = inbound(race, inbound_id)
    assert row.status == "ignored" and row.game_id == "race1"
    assert row.note == f"bounce of mail {report.id} to south@example.org: 5.1.1 {DIAGNOSTIC}"
    [event] = bounce_events(race)
    assert event.game_id == "race1" and event.visible_to == []
    assert (event.data or {}) | {} == {
        "mail": report.id, "kind": "report", "subject": report.subject,
        "address": "south@example.org", "powers": ["south"], "action": "failed",
        "status": "5.1.1", "diagnostic": DIAGNOSTIC, "reporting_mta": "mx.example.org",
        "inbound": inbound_id}


def test_the_moderator_s_history_lists_the_bounce_only_with_private(race) -> None:  # type: ignore[no-untyped-def]
    report = sent(race, "report", "south@example.org")
    deliver(race, dsn_for(report))
    with session_scope(race.engine) as s:
        public, private = history_rows(s, "race1"), history_rows(s, "race1", private=True)
    assert not [r for r in public if r["what"] == "bounce"]
    [row] = [r for r in private if r["what"] == "bounce"]
    assert (row["mail"], row["address"], row["powers"]) == (report.id, "south@example.org", ["south"])
    assert (f"mail {report.id} (report) to south@example.org (south) bounced: 5.1.1 {DIAGNOSTIC} "
            "[private]") in history_text(private)


def test_the_same_bounce_twice_or_from_a_second_server_tells_once(race) -> None:  # type: ignore[no-untyped-def]
    report = sent(race, "report", "south@example.org")
    bounce = dsn_for(report)
    deliver(race, bounce)
    deliver(race, bounce)  # the very same mail, a second copy in the mailbox
    again = deliver(race, dsn_for(report, dsn_id=make_msgid(domain="relay.example.net")))
    assert len(notices(race)) == 1
    assert len(bounce_events(race)) == 1
    assert inbound(race, again).note.endswith("(told before)")


def test_each_failed_recipient_and_each_mail_is_told_on_its_own(race) -> None:  # type: ignore[no-untyped-def]
    """A failure that may pass (4.x.x: a mailbox full, given up on) marks nothing: each
    mail that comes back so is told."""
    deliver(race, dsn_for(sent(race, "report", "south@example.org"), status="4.2.2"))
    deliver(race, dsn_for(sent(race, "welcome", "south@example.org"), status="4.2.2"))
    deliver(race, dsn_for(sent(race, "report", "north@example.org")))
    assert sorted(n.subject.split(" bounced")[0] for n, _ in notices(race)) == [
        "[race1] mail to north@example.org", "[race1] mail to south@example.org",
        "[race1] mail to south@example.org"]


def test_a_welcome_that_bounced_points_to_send_password_not_to_status(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, dsn_for(sent(race, "welcome", "south@example.org")))
    [(notice, text)] = notices(race)
    assert "SEND PASSWORD south (after the line GAME race1)" in text
    assert "STATUS" not in text and "SET ADDRESS" not in text  # both need the password
    assert "gm mod replace race1 south <address>" in text


def test_an_observer_s_report_that_bounced_says_how_to_stop_it(race) -> None:  # type: ignore[no-untyped-def]
    with session_scope(race.engine) as s:
        game = s.get(Game, "race1")
        assert game is not None
        set_observer(race, s, game, "watcher@example.net", actor="mod@example.org")
    assert close_phase(race, "race1", 0, by="test").closed
    deliver(race, dsn_for(sent(race, "report", "watcher@example.net")))
    [(notice, text)] = notices(race)
    assert "Seat: none (watcher@example.net holds no seat)" in text
    assert "gm game observe race1 watcher@example.net --stop" in text
    assert "gm mod replace" not in text


def test_a_delayed_dsn_tells_nobody(race) -> None:  # type: ignore[no-untyped-def]
    report = sent(race, "report", "south@example.org")
    inbound_id = deliver(race, dsn_for(report, action="delayed", status="4.4.1"))
    assert notices(race) == [] and bounce_events(race) == []
    assert inbound(race, inbound_id).note == (
        f"bounce of mail {report.id}: south@example.org delayed (4.4.1); nobody told")


def test_a_forged_dsn_for_a_message_id_gm_never_sent_tells_nobody(race) -> None:  # type: ignore[no-untyped-def]
    report = sent(race, "report", "south@example.org")
    forged = dsn_for(report).replace(report.message_id.encode(), b"<gm.0123456789abcdef@example.org>")
    inbound_id = deliver(race, forged)
    assert notices(race) == [] and bounce_events(race) == []
    row = inbound(race, inbound_id)
    assert row.note.startswith("bounce (") and row.game_id is None  # stored, as before


def test_a_dsn_failing_someone_the_mail_was_not_sent_to_tells_nobody(race) -> None:  # type: ignore[no-untyped-def]
    report = sent(race, "report", "south@example.org")
    deliver(race, dsn_for(report, recipient="north@example.org"))
    assert notices(race) == [] and bounce_events(race) == []


def test_a_bounce_of_the_bounce_notice_tells_nobody(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, dsn_for(sent(race, "report", "south@example.org")))
    [(notice, _)] = notices(race)
    inbound_id = deliver(race, dsn_for(notice))  # the moderator's own address failing
    assert len(notices(race)) == 1 and len(bounce_events(race)) == 1
    assert inbound(race, inbound_id).note.endswith("(a bounce notice: nobody told)")


def test_a_bounce_of_a_bounce_notice_to_two_moderators_tells_neither(race) -> None:  # type: ignore[no-untyped-def]
    """A mail of no game goes to the service's moderator and to the moderators of the
    sender's games; one of them failing is not told to the other (no notice of a notice)."""
    with session_scope(race.engine) as s:
        game = s.get(Game, "race1")
        assert game is not None
        game.moderator_address = "referee@example.org"
        s.add(game)
    deliver(race, mail("LIST\n", sender="south@example.org"))  # answered outside any game
    deliver(race, dsn_for(sent(race, "reply", "south@example.org")))
    [(notice, _)] = notices(race)
    assert notice.recipients == ["mod@example.org", "referee@example.org"]
    deliver(race, dsn_for(notice, recipient="mod@example.org"))
    assert len(notices(race)) == 1


def test_the_moderator_s_own_address_failing_is_logged_but_not_mailed_to_it(race) -> None:  # type: ignore[no-untyped-def]
    assert close_phase(race, "race1", 0, by="test").closed
    report = sent(race, "report", "mod@example.org")  # the moderator's report of turn-2
    deliver(race, dsn_for(report))
    assert notices(race) == []
    [event] = bounce_events(race)
    assert (event.data or {})["address"] == "mod@example.org"


def test_a_bounce_is_no_event_of_the_game_in_the_moderator_s_next_report(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, dsn_for(sent(race, "report", "south@example.org")))
    assert [e.phase_seq for e in bounce_events(race)] == [0]  # logged in turn-1, still open
    assert close_phase(race, "race1", 0, by="test").closed
    moderator_report = next(t for r, t in outbox(race, kind="report", to="mod@example.org"))
    assert "bounced" not in moderator_report and "mail.bounced" not in moderator_report


def test_a_plain_bounce_quoting_gm_s_message_id_tells_the_moderator(race) -> None:  # type: ignore[no-untyped-def]
    report = sent(race, "report", "south@example.org")
    inbound_id = deliver(race, qmail_bounce(report.message_id))
    [(notice, text)] = notices(race)
    assert "Seat: south in race1" in text
    assert "The server said: Sorry, no mailbox here by that name. (#5.1.1)" in text
    assert inbound(race, inbound_id).note == (
        f"bounce of mail {report.id} to south@example.org: 5.1.1 Sorry, no mailbox here by that "
        "name. (#5.1.1)")


def test_a_plain_bounce_without_gm_s_message_id_tells_nobody(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, qmail_bounce("<someone-else@elsewhere.example>"))
    assert notices(race) == []


def test_the_game_s_own_moderator_is_told_not_the_service_s(race) -> None:  # type: ignore[no-untyped-def]
    with session_scope(race.engine) as s:
        game = s.get(Game, "race1")
        assert game is not None
        game.moderator_address = "referee@example.org"
        s.add(game)
    deliver(race, dsn_for(sent(race, "report", "south@example.org")))
    assert [n.recipients for n, _ in notices(race)] == [["referee@example.org"]]


def test_the_notice_is_in_the_moderator_s_language(race) -> None:  # type: ignore[no-untyped-def]
    with session_scope(race.engine) as s:
        game = s.get(Game, "race1")
        assert game is not None
        game.settings = {**(game.settings or {}), "moderator_language": "fr"}
        s.add(game)
    deliver(race, dsn_for(sent(race, "report", "south@example.org")))
    [(notice, text)] = notices(race)
    assert notice.subject == "[race1] mail pour south@example.org revenu non distribué : turn-1: report for south"
    assert "Siège : south dans race1" in text
    assert "gm mod replace race1 south <adresse>" in text


def stranger_reply(ctx: ServiceContext) -> OutboundMail:
    """gm's answer to a stranger's LIST: a mail of no game."""
    deliver(ctx, mail("LIST\n", sender="stranger@elsewhere.example"))
    row = sent(ctx, "reply", "stranger@elsewhere.example")
    assert row.game_id is None
    return row


def test_a_mail_of_no_game_that_bounced_tells_the_service_s_moderator(race) -> None:  # type: ignore[no-untyped-def]
    inbound_id = deliver(race, dsn_for(stranger_reply(race)))
    [(notice, text)] = notices(race)
    assert notice.recipients == ["mod@example.org"] and notice.game_id is None
    assert notice.subject.startswith("mail to stranger@elsewhere.example bounced: Re: ")
    assert "stranger@elsewhere.example holds no seat" in text
    assert bounce_events(race) == []  # no game to log it in: the log line and the note
    assert inbound(race, inbound_id).note.startswith(
        "bounce of mail") and "to stranger@elsewhere.example: 5.1.1" in inbound(race, inbound_id).note


def test_a_mail_of_no_game_bounced_by_two_servers_is_told_once(race) -> None:  # type: ignore[no-untyped-def]
    """No game, no event: the notice's outbox key alone keeps it to one."""
    reply = stranger_reply(race)
    deliver(race, dsn_for(reply))
    again = deliver(race, dsn_for(reply, dsn_id=make_msgid(domain="relay.example.net")))
    assert len(notices(race)) == 1
    assert inbound(race, again).note.endswith("(told before)")


def test_a_mail_of_no_game_with_nobody_to_tell_is_only_noted(race) -> None:  # type: ignore[no-untyped-def]
    reply = stranger_reply(race)
    race.settings["moderator_address"] = ""
    inbound_id = deliver(race, dsn_for(reply))
    assert notices(race) == []
    assert inbound(race, inbound_id).note.startswith(f"bounce of mail {reply.id} to stranger@")



# -- a seat's address that bounces for good: marked, told once ---------------------------

def seat(ctx: ServiceContext, power: str) -> Seat:
    with session_scope(ctx.engine) as s:
        row = s.exec(select(Seat).where(Seat.game_id == "race1", Seat.power == power)).one()
        return row


def second_mail_to(ctx: ServiceContext, address: str) -> OutboundMail:
    """Another mail gm sends ``address`` (the next phase's report)."""
    before = {r.id for r, _ in outbox(ctx, kind="report", to=address)}
    assert close_phase(ctx, "race1", 0, by="test").closed
    return next(r for r, _ in outbox(ctx, kind="report", to=address) if r.id not in before)


def test_two_hard_bounces_for_one_address_tell_the_moderator_once(race) -> None:  # type: ignore[no-untyped-def]
    welcome = sent(race, "welcome", "south@example.org")
    deliver(race, dsn_for(welcome))
    [(_, text)] = notices(race)
    assert "marked as bouncing" in text and "not told again" in text
    assert "each mail that bounces is told once" not in text
    report = sent(race, "report", "south@example.org")
    later = deliver(race, dsn_for(report))
    assert len(notices(race)) == 1  # the second mail's bounce tells nobody
    first, second = bounce_events(race)  # but both are recorded
    assert "told" not in (first.data or {}) and (second.data or {})["told"] is False
    assert (second.data or {})["mail"] == report.id
    assert inbound(race, later).note.startswith(f"bounce of mail {report.id} to south@example.org")
    assert "not told again" in inbound(race, later).note
    with session_scope(race.engine) as s:
        listed = history_text(history_rows(s, "race1", private=True))
    assert f"mail {report.id} (report) to south@example.org (south) bounced: 5.1.1 " in listed
    assert "(not told again) [private]" in listed
    mark = seat(race, "south")
    assert (mark.bounce_address, mark.bounce_mail, mark.bounce_count) == (
        "south@example.org", welcome.id, 2)
    assert mark.bounce_said == f"5.1.1 {DIAGNOSTIC}"
    assert seat(race, "north").bounce_address == ""  # only the seat that address holds


def marked_and_quiet(ctx: ServiceContext) -> None:
    """South's report and welcome both bounce for good: the moderator hears of the first."""
    deliver(ctx, dsn_for(sent(ctx, "report", "south@example.org")))
    deliver(ctx, dsn_for(sent(ctx, "welcome", "south@example.org")))
    assert len(notices(ctx)) == 1


def test_after_set_address_a_bounce_to_the_new_address_tells_again(race) -> None:  # type: ignore[no-untyped-def]
    marked_and_quiet(race)
    deliver(race, mail("GAME race1\nPOWER south s-secret\nSET ADDRESS south@new.example\n",
                       sender="south@phone.example"))  # not the marked address itself
    assert seat(race, "south").address == "south@new.example"
    assert seat(race, "south").bounce_address == ""
    deliver(race, dsn_for(second_mail_to(race, "south@new.example")))
    assert [n.subject.split(" bounced")[0] for n, _ in notices(race)] == [
        "[race1] mail to south@example.org", "[race1] mail to south@new.example"]


def test_after_the_moderator_replaces_the_player_a_bounce_tells_again(race) -> None:  # type: ignore[no-untyped-def]
    marked_and_quiet(race)
    with session_scope(race.engine) as s:
        game = s.get(Game, "race1")
        assert game is not None
        replace_power(race, s, game, actor="mod@example.org", power="south",
                      address="sud@example.net")
    assert seat(race, "south").bounce_address == ""
    deliver(race, dsn_for(sent(race, "welcome", "sud@example.net")))
    assert len(notices(race)) == 2


def test_a_signed_on_mail_from_the_marked_address_clears_the_mark(race) -> None:  # type: ignore[no-untyped-def]
    marked_and_quiet(race)
    deliver(race, mail("GAME race1\nPOWER south s-secret\nSTATUS\n", sender="south@phone.example"))
    assert seat(race, "south").bounce_address == "south@example.org"  # another mailbox: no proof
    deliver(race, mail("GAME race1\nPOWER south wrong-secret\nSTATUS\n", sender="south@example.org"))
    assert seat(race, "south").bounce_address == "south@example.org"  # not signed on
    deliver(race, mail("GAME race1\nPOWER south s-secret\nSTATUS\n", sender="south@example.org"))
    assert seat(race, "south").bounce_address == ""
    deliver(race, dsn_for(second_mail_to(race, "south@example.org")))
    assert len(notices(race)) == 2  # it bounces again: the moderator hears of it again


def test_gm_game_show_shows_the_bouncing_address(race) -> None:  # type: ignore[no-untyped-def]
    report = sent(race, "report", "south@example.org")
    deliver(race, dsn_for(report))
    text, data = _show(race)
    seats = {s["power"]: s for s in data["seats"]}
    assert seats["north"]["bouncing"] is None
    mark = seats["south"]["bouncing"]
    assert (mark["address"], mark["mail"], mark["count"]) == ("south@example.org", report.id, 1)
    assert mark["said"] == f"5.1.1 {DIAGNOSTIC}"
    lines = text.splitlines()
    south = next(i for i, x in enumerate(lines) if x.strip().startswith("south"))
    assert "BOUNCING" in lines[south].split()
    assert lines[south + 1].strip().startswith("bouncing since 2026-")
    assert f"(mail {report.id}; 1 mail bounced; told once): 5.1.1 550 5.1.1" in lines[south + 1]


def test_the_missing_orders_summary_says_the_address_bounces(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, dsn_for(sent(race, "report", "south@example.org")))
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 1\n"))
    deadline = seat_deadline(race)
    race.clock.set(deadline - timedelta(hours=24))
    assert sweep(race).reminders
    [summary] = [t for r, t in outbox(race, kind="notice") if "missing" in r.subject]
    assert "- south: no orders (south@example.org)" in summary
    assert "its address bounces since" in summary and "(5.1.1 550 5.1.1" in summary
    assert "which is likely why" in summary


def test_the_moderator_s_report_and_status_list_the_bouncing_address(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, dsn_for(sent(race, "report", "south@example.org")))
    assert close_phase(race, "race1", 0, by="test").closed
    moderator_report = outbox(race, kind="report", to="mod@example.org")[-1][1]
    assert "Addresses that bounce" in moderator_report
    assert "- south: south@example.org, since" in moderator_report
    south_report = outbox(race, kind="report", to="south@example.org")[-1][1]
    assert "Addresses that bounce" not in south_report  # the moderator's only
    deliver(race, mail("GAME race1\nMODERATOR mod-secret\nSTATUS\n", sender="mod@example.org"))
    status = outbox(race, kind="reply", to="mod@example.org")[-1][1]
    assert "- south: south@example.org, since" in status


def seat_deadline(ctx: ServiceContext):  # type: ignore[no-untyped-def]
    from gm.clock import utc
    from gm.service.games import current_phase

    with session_scope(ctx.engine) as s:
        deadline = current_phase(s, "race1").deadline
    assert deadline is not None
    return utc(deadline)


def test_a_mail_of_no_game_that_bounced_tells_each_moderator_in_their_language(race) -> None:  # type: ignore[no-untyped-def]
    """A mail of no game (south's LIST) bounced: the service's moderator reads the notice in
    English, race1's own moderator in race1's ``moderator_language`` (it was English for
    both)."""
    with session_scope(race.engine) as s:
        game = s.get(Game, "race1")
        assert game is not None
        game.moderator_address = "referee@example.org"
        game.settings = {**(game.settings or {}), "moderator_language": "fr"}
        s.add(game)
    deliver(race, mail("LIST\n", sender="south@example.org"))
    reply = next(r for r, _ in outbox(race, kind="reply", to="south@example.org") if r.game_id is None)
    deliver(race, dsn_for(reply))
    told = {tuple(n.recipients or ()): (n.subject, text) for n, text in notices(race)}
    assert set(told) == {("mod@example.org",), ("referee@example.org",)}
    subject, text = told[("referee@example.org",)]
    assert subject.startswith("mail pour south@example.org revenu non distribué : ")
    assert "Siège : south dans race1" in text and "Seat:" not in text
    subject, text = told[("mod@example.org",)]
    assert subject.startswith("mail to south@example.org bounced: ") and "Seat: south in race1" in text
    deliver(race, dsn_for(reply, dsn_id=make_msgid(domain="relay.example.net")))
    assert len(notices(race)) == 2  # a second server's DSN: told before
