"""Outbound delivery after a mail is queued, as the SMTP server (the real aiosmtpd on
loopback), the moderator and the players see it: the retry schedule, giving up, the
moderator's notices, held mails, the envelope, and the bytes a re-sent mail carries.

Each test closes a gap found by the outbound mutation audit (session 20): a change to
gm/pipeline/dispatch.py, gm/service/outbox.py or gm/mail/smtp_sink.py that broke the
guarantee named and that no test caught."""

from __future__ import annotations

import asyncio
import email
from datetime import timedelta
from email.policy import default as default_policy

import pytest
from sqlmodel import select

from gm.clock import FakeClock
from gm.db.engine import session_scope
from gm.db.models import OutboundMail
from gm.mail.file_sink import FileSink
from gm.mail.smtp_sink import SmtpSink
from gm.pipeline import drawpool
from gm.pipeline.dispatch import MAX_ATTEMPTS, TELL_AFTER_ATTEMPTS, drain
from gm.service.context import ServiceContext
from gm.service.outbox import queue_mail
from tests.e2e.conftest import header
from tests.e2e.test_faults import ORDERS, clear, rows
from tests.pipeline.conftest import deliver, mail
from tests.support.moderator_notice import assert_in, moderator_speaks
from tests.support.servers import SmtpMode, SmtpTestServer


def fake_clock(ctx: ServiceContext) -> FakeClock:
    assert isinstance(ctx.clock, FakeClock)
    return ctx.clock


def send_due(ctx: ServiceContext, sink: SmtpSink) -> int:
    """One drain, as a daemon's round does it, the connection closed after it (each
    asyncio.run is a loop of its own: a connection is not carried into the next)."""
    async def run() -> int:
        try:
            return await drain(ctx, sink)
        finally:
            await sink.close()
    return asyncio.run(run())


def only(ctx: ServiceContext, kind: str) -> list[OutboundMail]:
    return [r for r in rows(ctx) if r.kind == kind]


def unsent_reply(ctx: ServiceContext) -> OutboundMail:
    """The one reply not sent yet (the replies sent before it are done with)."""
    [reply] = [r for r in only(ctx, "reply") if r.status != "sent"]
    return reply


def orders_answered_into(race: ServiceContext, smtp_server: SmtpTestServer, mode: SmtpMode) -> None:
    """An order mail handled (its reply queued) with nothing else in the outbox, and the
    mail server answering with ``mode`` from now on."""
    clear(race)
    deliver(race, mail(ORDERS))
    smtp_server.mode = mode


def retry_delays(ctx: ServiceContext, sink: SmtpSink, attempts: int) -> list[timedelta]:
    """Drain ``attempts`` times, each at the very moment the reply falls due again (and
    once a second before it, when nothing may be tried); the wait after each failure."""
    clock, delays = fake_clock(ctx), []
    for n in range(attempts):
        reply = unsent_reply(ctx)
        if n:
            clock.advance(reply.next_attempt_at - clock.now() - timedelta(seconds=1))
            send_due(ctx, sink)
            assert unsent_reply(ctx).attempts == n, "tried before its backoff ran out"
            clock.advance(timedelta(seconds=1))
        send_due(ctx, sink)
        reply = unsent_reply(ctx)
        assert reply.attempts == n + 1
        if reply.status == "queued":
            delays.append(reply.next_attempt_at - clock.now())
    return delays


def test_a_mail_refused_for_now_is_retried_after_30_s_doubling_up_to_two_hours(
        race: ServiceContext, smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    orders_answered_into(race, smtp_server, SmtpMode.TEMPFAIL)
    delays = retry_delays(race, SmtpSink(smtp_settings), MAX_ATTEMPTS - 1)
    assert delays == [timedelta(seconds=30 * 2 ** n) for n in range(8)] + [timedelta(hours=2)] * 3


def test_a_mail_refused_for_now_at_its_last_attempt_is_given_up_and_the_moderator_told(
        race: ServiceContext, smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    orders_answered_into(race, smtp_server, SmtpMode.TEMPFAIL)
    sink = SmtpSink(smtp_settings)
    retry_delays(race, sink, MAX_ATTEMPTS)
    [reply] = only(race, "reply")
    assert (reply.status, reply.attempts) == ("failed", MAX_ATTEMPTS) and "451" in reply.last_error
    notices = only(race, "notice")
    assert [n.subject for n in notices] == ["[race1] mail is delayed: the mail server refuses it for now",
                                            "[race1] a mail could not be delivered"]
    assert f"Attempts: {MAX_ATTEMPTS}" in notices[1].raw.decode()
    fake_clock(race).advance(timedelta(days=1))
    smtp_server.mode = SmtpMode.ACCEPT
    assert send_due(race, sink) == 2  # the two notices; the reply is not tried again
    assert [m.recipients for m in smtp_server.received] == [["mod@example.org"]] * 2


@pytest.mark.parametrize(("language", "delayed", "given_up", "words"), [
    ("en", "mail is delayed: the mail server refuses it for now", "a mail could not be delivered",
     [f"Attempts so far: {TELL_AFTER_ATTEMPTS} of {MAX_ATTEMPTS}", "gm keeps retrying.", f"Attempts: {MAX_ATTEMPTS}"]),
    ("fr", "mail retardé : le serveur de messagerie le refuse pour l'instant",
     "un mail n'a pas pu être distribué",
     [f"Tentatives jusqu'ici : {TELL_AFTER_ATTEMPTS} sur {MAX_ATTEMPTS}", "gm continue d'essayer.", f"Tentatives : {MAX_ATTEMPTS}"])])
def test_the_notices_of_a_delayed_and_an_undelivered_mail_are_in_the_moderator_s_language(
        race: ServiceContext, smtp_settings, smtp_server: SmtpTestServer, language: str,  # type: ignore[no-untyped-def]
        delayed: str, given_up: str, words: list[str]) -> None:
    moderator_speaks(race, "race1", language)
    orders_answered_into(race, smtp_server, SmtpMode.TEMPFAIL)
    retry_delays(race, SmtpSink(smtp_settings), MAX_ATTEMPTS)
    notices = only(race, "notice")
    assert [n.subject for n in notices] == [f"[race1] {delayed}", f"[race1] {given_up}"]
    texts = [email.message_from_bytes(n.raw, policy=default_policy).get_content() for n in notices]
    for word, text in zip(words, [texts[0], texts[0], texts[1]], strict=True):
        assert word in text
    for text in texts:
        assert_in(language, text)
        assert "451" in text and "north@example.org" in text  # the server's words, the address


def test_the_moderator_is_told_of_a_delayed_mail_once_an_hour_not_once_for_ever(
        race: ServiceContext, smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    """A second outage, a day after the first, is told again."""
    clear(race)
    sink = SmtpSink(smtp_settings)
    for outage, message_id in enumerate(("<first@player.example>", "<second@player.example>")):
        deliver(race, mail(ORDERS, message_id=message_id))
        smtp_server.mode = SmtpMode.TEMPFAIL
        retry_delays(race, sink, TELL_AFTER_ATTEMPTS)
        delayed = [n for n in only(race, "notice") if "mail is delayed" in n.subject]
        assert len(delayed) == outage + 1
        smtp_server.mode = SmtpMode.ACCEPT
        fake_clock(race).advance(timedelta(hours=2))
        send_due(race, sink)
        assert {r.status for r in rows(race)} == {"sent"}
        fake_clock(race).advance(timedelta(days=1))


def test_a_delayed_notice_to_the_moderator_is_not_itself_told_as_delayed(
        race: ServiceContext, smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    """The notice queued at the reply's fifth failure fails with it, five times and more:
    the moderator still gets that one notice, not one about it."""
    orders_answered_into(race, smtp_server, SmtpMode.TEMPFAIL)
    retry_delays(race, SmtpSink(smtp_settings), MAX_ATTEMPTS - 1)
    notices = only(race, "notice")
    assert [n.subject for n in notices] == ["[race1] mail is delayed: the mail server refuses it for now"]
    assert notices[0].status == "queued" and notices[0].attempts >= TELL_AFTER_ATTEMPTS


def test_a_notice_to_the_moderator_that_cannot_be_delivered_is_not_itself_told_of(
        race: ServiceContext, smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    """The moderator's address refusing mail must not start a chain of notices about notices."""
    orders_answered_into(race, smtp_server, SmtpMode.PERMFAIL)
    sink = SmtpSink(smtp_settings)
    for _ in range(3):
        send_due(race, sink)
    assert [(r.kind, r.status) for r in rows(race)] == [("reply", "failed"), ("notice", "failed")]


def test_held_reports_are_not_sent_until_the_moderator_releases_them(
        ctx: ServiceContext, smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    from gm.service.adjudicate import close_phase
    from gm.service.games import get_game
    from gm.service.moderator import release
    from tests.service.test_game_flow import new_race

    new_race(ctx, preview=True)
    assert close_phase(ctx, "race1", 0, by="test").closed
    with session_scope(ctx.engine) as s:
        held = {r.message_id: r.recipients for r in s.exec(
            select(OutboundMail).where(OutboundMail.status == "held")).all()}
    assert sorted(held.values()) == [["n@example.org"], ["s@example.org"]]
    sink = SmtpSink(smtp_settings)

    def delivered() -> list[list[str]]:
        return sorted(m.recipients for m in smtp_server.received if header(m.raw, "Message-ID") in held)
    assert send_due(ctx, sink) >= 1  # the moderator's preview
    fake_clock(ctx).advance(timedelta(days=1))
    send_due(ctx, sink)
    assert delivered() == [], "held reports stay held"
    with session_scope(ctx.engine) as s:
        release(ctx, s, get_game(s, "race1"), actor="mod")
    send_due(ctx, sink)
    assert delivered() == [["n@example.org"], ["s@example.org"]]


@pytest.mark.parametrize("workers", [2, 0])
def test_every_mail_leaves_with_the_service_address_as_envelope_sender(
        race: ServiceContext, smtp_settings, smtp_server: SmtpTestServer, workers: int) -> None:  # type: ignore[no-untyped-def]
    """Bounces come back to the service, never to a player or the moderator."""
    race.settings["draw_workers"] = workers
    deliver(race, mail(ORDERS))
    assert send_due(race, SmtpSink(smtp_settings)) == len(rows(race)) >= 3
    assert {m.sender for m in smtp_server.received} == {"gm@example.org"}


def test_a_mail_to_one_address_named_twice_reaches_it_once(
        ctx: ServiceContext, smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        queue_mail(ctx, s, game_id=None, kind="notice", subject="twice",
                   to=["mod@example.org", "anna@example.org", "mod@example.org", ""],
                   text="hello\n", key="twice")
    assert send_due(ctx, SmtpSink(smtp_settings)) == 1
    [got] = smtp_server.received
    assert got.recipients == ["mod@example.org", "anna@example.org"]


def test_a_mail_sent_after_failures_keeps_the_message_id_and_date_it_was_queued_with(
        race: ServiceContext, smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    """The player's client sees one mail, dated when gm wrote it, however late it went."""
    clear(race)
    deliver(race, mail(ORDERS))
    [queued] = only(race, "reply")
    clock, sink = fake_clock(race), SmtpSink(smtp_settings)
    smtp_server.mode = SmtpMode.TEMPFAIL
    for _ in range(3):
        clock.advance(timedelta(minutes=20))
        send_due(race, sink)
    assert only(race, "reply")[0].attempts == 3
    clock.advance(timedelta(hours=3))
    smtp_server.mode = SmtpMode.ACCEPT
    send_due(race, sink)
    [got] = [m for m in smtp_server.received if m.recipients == ["north@example.org"]]
    assert header(got.raw, "Message-ID") == queued.message_id
    assert header(got.raw, "Date") == header(queued.raw, "Date")
    assert got.raw.replace(b"\r\n", b"\n").endswith(queued.raw.replace(b"\r\n", b"\n")), \
        "the very mail queued"


def test_a_report_whose_pictures_cannot_be_drawn_still_goes_without_them(
        ctx: ServiceContext, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """Drawing in the daemon's process that raises (not only a renderer: the whole drawing)
    costs the report its map, never the report."""
    from gm.mail.compose import RENDER_HEADER
    from tests.present.support import new_baltica, play

    ctx.settings["draw_workers"] = 0
    new_baltica(ctx)
    play(ctx, "b1", 1, {"sweden": ["move from Skåne: Karl XII to Småland"]})

    def broken(raw: bytes) -> bytes:
        raise RuntimeError("the rasteriser is broken")
    monkeypatch.setattr(drawpool, "finish_raw", broken)
    with session_scope(ctx.engine) as s:
        reports = s.exec(select(OutboundMail).where(OutboundMail.kind == "report")).all()
        pending = {r.message_id for r in reports if RENDER_HEADER.encode() in r.raw}
    assert pending
    sink = FileSink(tmp_path / "out")
    send_due(ctx, sink)
    with session_scope(ctx.engine) as s:
        assert {r.status for r in s.exec(select(OutboundMail)).all()} == {"sent"}
    out = [email.message_from_bytes(p.read_bytes(), policy=default_policy)
           for p in (tmp_path / "out" / "new").iterdir()]
    went = [m for m in out if m["Message-ID"] in pending]
    assert len(went) == len(pending)
    for m in went:
        types = {p.get_content_type() for p in m.walk()}
        assert "text/html" in types and not types & {"image/png", "image/svg+xml",
                                                    "application/x-gm-map+json"}


def test_a_mail_some_of_whose_recipients_are_refused_goes_to_the_others_and_names_them(
        ctx: ServiceContext, smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    """The outbox row says who did not get it (its last_error: the host reads it there)."""
    with session_scope(ctx.engine) as s:
        queue_mail(ctx, s, game_id=None, kind="notice", subject="two", text="hello\n",
                   to=["reject@example.org", "anna@example.org"], key="two")
    smtp_server.mode = SmtpMode.REJECT_RCPT
    assert send_due(ctx, SmtpSink(smtp_settings)) == 1
    assert [m.recipients for m in smtp_server.received] == [["anna@example.org"]]
    [row] = rows(ctx)
    assert row.status == "sent" and "reject@example.org" in row.last_error


def test_a_connection_the_server_closed_while_idle_is_reopened_without_a_failure(
        smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    """The server restarted between two mails: the second still goes at its first attempt."""
    from tests.mail.test_smtp_sink import _raw

    sink = SmtpSink(smtp_settings)

    async def run() -> list[bool]:
        first = await sink.send(_raw(1), "gm@example.org", ["anna@example.org"])
        smtp_server.stop()  # closes the connection the sink keeps open
        smtp_server.start()
        second = await sink.send(_raw(2), "gm@example.org", ["anna@example.org"])
        await sink.close()
        return [first.ok, second.ok]
    assert asyncio.run(run()) == [True, True]
    assert len(smtp_server.received) == 2 and sink.connections_opened == 2


def test_a_recipient_refused_for_now_among_others_accepted_gets_the_mail_later(
        race: ServiceContext, smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    """A 4xx to one recipient (greylisting) is temporary like any 4xx: the old address of a
    seat that changed its address (commands.py: the notice goes to the new and the old) is
    warned once its server takes mail again, not never."""
    clear(race)
    with session_scope(race.engine) as s:
        queue_mail(race, s, game_id="race1", kind="notice", subject="[race1] new address for north",
                   to=["north@example.org", "greylist@example.org"], text="changed\n", key="moved")
    sink = SmtpSink(smtp_settings)
    smtp_server.mode = SmtpMode.GREYLIST_RCPT
    send_due(race, sink)
    fake_clock(race).advance(timedelta(hours=1))
    smtp_server.mode = SmtpMode.ACCEPT
    send_due(race, sink)
    [row] = rows(race)
    assert [(m.recipients, header(m.raw, "Message-ID")) for m in smtp_server.received] == [
        (["north@example.org"], row.message_id), (["greylist@example.org"], row.message_id)]
    assert row.status == "sent"


def dead_sink(smtp_settings) -> SmtpSink:  # type: ignore[no-untyped-def]
    """The same [smtp] settings, at a port nothing listens on: the mail server is down."""
    from dataclasses import replace

    from tests.support.servers import free_port
    return SmtpSink(replace(smtp_settings, port=free_port(), timeout=2.0))


def test_a_mail_server_down_longer_than_every_attempt_loses_no_mail(
        race: ServiceContext, smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    """deploy/README.md: while gm cannot reach or log in to the SMTP server, "the outbox
    keeps unsent mail queued ... nothing is lost; it only waits". After MAX_ATTEMPTS
    refusals of the connection (some 8 h: a weekend's outage) the reply was marked failed
    and never sent. The server's failures now never give a mail up; the moderator is told
    gm waits for the server, not that the mail will be dropped at attempt 12."""
    orders_answered_into(race, smtp_server, SmtpMode.ACCEPT)
    retry_delays(race, dead_sink(smtp_settings), MAX_ATTEMPTS + 2)
    reply = unsent_reply(race)
    assert (reply.status, reply.attempts) == ("queued", MAX_ATTEMPTS + 2)
    assert "connection_refused" in reply.last_error
    notices = only(race, "notice")
    assert [n.subject for n in notices] == ["[race1] mail is delayed: the mail server refuses it for now"]
    text = email.message_from_bytes(notices[0].raw, policy=default_policy).get_content()
    assert "gm keeps retrying until the mail server takes it" in text and f"of {MAX_ATTEMPTS}" not in text
    fake_clock(race).advance(timedelta(hours=2))
    assert send_due(race, SmtpSink(smtp_settings)) == 2  # the server is back: reply and notice
    assert [r.status for r in rows(race)] == ["sent", "sent"]


def test_a_mail_server_down_is_met_once_a_round_not_once_for_each_queued_mail(
        race: ServiceContext, smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    """Each due mail was tried against a server that was down: with one that hangs, a
    round cost its timeout (60 s) for each of a deadline's reports. The first such failure
    ends the round's drain; the others wait, their attempts untouched."""
    clear(race)
    for n in range(3):
        deliver(race, mail(ORDERS, message_id=f"<down{n}@player.example>"))
    send_due(race, dead_sink(smtp_settings))
    assert sorted(r.attempts for r in rows(race)) == [0, 0, 1]


def test_a_restart_tries_at_once_the_mail_the_server_failed_not_the_mail_it_refused(
        race: ServiceContext, smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    """A starting daemon makes due now the mails that met a server down (the host may
    have mended it); a mail refused for now (451) keeps its backoff, or a daemon that
    restarts again and again (systemd's Restart=on-failure every 5 s) would spend its
    MAX_ATTEMPTS in a minute and give it up."""
    from gm.pipeline.dispatch import due, retry_now

    clear(race)
    deliver(race, mail(ORDERS, message_id="<refused@player.example>"))
    smtp_server.mode = SmtpMode.TEMPFAIL
    send_due(race, SmtpSink(smtp_settings))
    deliver(race, mail(ORDERS, message_id="<down@player.example>"))
    send_due(race, dead_sink(smtp_settings))
    refused, down = rows(race)
    assert refused.last_error.startswith("server_temporary 451")
    assert down.last_error.startswith("connection_refused")
    assert due(race) == []
    assert retry_now(race) == 1
    assert due(race) == [down.id]
