"""Issue 22, items 5 and 6 on the corpus's Pax Baltica game: lock-outs, the owner's warning,
anonymous press and Message-IDs that reveal nothing."""

from __future__ import annotations

import hashlib
import hmac
import re
from pathlib import Path

from sqlalchemy import update
from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.models import Game, InboundMail, ServiceSecret
from gm.mail.mime import decode
from gm.service.context import ServiceContext
from gm.service.outbox import content_id, message_id_for
from tests.e2e.corpus_game import Snapshot, build_template, outbound_rows
from tests.security.conftest import ANNA, BORIS, COALITION, MOD, SWEDEN, mails_to, send

STRANGER = "eve@elsewhere.example"


def test_strangers_failed_moderator_sign_ons_never_lock_out_the_moderators_own_address(
    game: ServiceContext,
) -> None:
    """Five wrong MODERATOR sign-ons from strangers used to lock out the moderator's own address."""
    for n in range(5):
        assert "moderator sign-on failed" in send(
            game, f"GAME baltica42\nMODERATOR guess{n}\nEXTEND 1d\n", sender=f"bot{n}@evil.example")
    assert "too many failed sign-ons" in send(
        game, "GAME baltica42\nMODERATOR guess9\nEXTEND 1d\n", sender="bot9@evil.example")
    before = Snapshot.take(game)
    reply = send(game, "GAME baltica42\nMODERATOR modsecret\nEXTEND 1d\n", sender=MOD)
    assert "too many" not in reply and "failed" not in reply, reply
    assert Snapshot.take(game).deadlines != before.deadlines  # the EXTEND was carried out
    [notice] = [t for s, t in mails_to(game, MOD, kind="notice") if "blocked" in s]
    # the notice says what is true: the moderator's own address stays open
    assert "from any address but the moderator's own" in notice


def test_strangers_failures_never_lock_out_the_seats_own_address(game: ServiceContext) -> None:
    for n in range(6):
        send(game, f"GAME baltica42\nPOWER sweden guess{n}\nrecon Livland\n", sender=f"bot{n}@evil.example")
    assert "too many failed sign-ons" in send(game, SWEDEN + "recon Livland\n", sender="bot9@evil.example")
    assert "OK  recon Livland" in send(game, SWEDEN + "recon Livland\n", sender=ANNA)


def test_the_right_password_from_a_stranger_with_a_stale_phase_reaches_the_owner(
    game: ServiceContext,
) -> None:
    """Issue 22: a stale PHASE line made gm answer the stranger and tell the owner nothing."""
    before = Snapshot.take(game)
    reply = send(game, SWEDEN + "PHASE 1699-spring-actions-sweden\nrecon Livland\n", sender=STRANGER)
    assert "your PHASE line says" in reply
    assert Snapshot.take(game) == before  # nothing carried out
    [(subject, copy)] = mails_to(game, ANNA, kind="reply-copy")
    assert STRANGER in subject and STRANGER in copy
    assert "If you did not send it, change your password" in copy
    assert "NOT ACCEPTED" in copy and "PHASE" in copy


def test_the_right_password_from_a_blocked_stranger_warns_the_owner_and_carries_out_nothing(
    game: ServiceContext,
) -> None:
    for n in range(5):
        send(game, f"GAME baltica42\nPOWER sweden guess{n}\n", sender=STRANGER)
    before = Snapshot.take(game)
    assert "too many failed sign-ons" in send(game, SWEDEN + "recon Livland\n", sender=STRANGER)
    assert Snapshot.take(game) == before
    warnings = [t for s, t in mails_to(game, ANNA, kind="warning") if "was used from" in s]
    assert len(warnings) == 1 and "RIGHT password" in warnings[0] and STRANGER in warnings[0]
    assert "hunter2" not in warnings[0]
    # a wrong password from the blocked stranger is not reported as right
    send(game, "GAME baltica42\nPOWER sweden guess9\n", sender=STRANGER)
    assert len([s for s, _ in mails_to(game, ANNA, kind="warning") if "was used from" in s]) == 1


def test_the_right_password_in_a_mail_gm_does_not_act_on_still_reaches_the_owner(
    game: ServiceContext,
) -> None:
    """An auto-reply or list mail is never acted upon; a right password in it is still told."""
    before = Snapshot.take(game)
    assert send(game, SWEDEN + "recon Livland\n", sender=STRANGER, extra="Precedence: bulk") == ""
    assert send(game, SWEDEN + "recon Livland\n", sender=ANNA, extra="Auto-Submitted: auto-replied") == ""
    assert send(game, "GAME baltica42\nPOWER sweden wrong\n", sender=STRANGER, extra="Precedence: list") == ""
    assert Snapshot.take(game) == before
    [(subject, text)] = mails_to(game, ANNA, kind="warning")
    assert STRANGER in subject and "RIGHT password" in text and "did not act on it" in text
    assert "hunter2" not in text


def _make_press_anonymous(ctx: ServiceContext) -> None:
    with session_scope(ctx.engine) as s:
        g = s.get(Game, "baltica42")
        assert g is not None
        s.exec(update(Game).where(Game.id == "baltica42").values(  # type: ignore[call-overload]
            settings={**(g.settings or {}), "press": "anonymous"}))


def _form(raw: bytes) -> bytes:
    """The mail's bytes without what must differ between two recipients' copies."""
    return re.sub(rb"(?m)^(To|Message-ID): .*\r\n", b"", raw)


def test_anonymous_press_to_all_reaches_the_sender_exactly_like_everyone_else(
    game: ServiceContext,
) -> None:
    """Issue 22: the copy everyone but the sender received named the sender."""
    _make_press_anonymous(game)
    reply = send(game, SWEDEN + "PRESS TO ALL\nThe Tsar is bluffing.\nENDPRESS\n")
    assert "sweden" in reply
    press = [m for m in outbound_rows(game) if m.kind == "press"]
    assert sorted(a for m in press for a in m.recipients or []) == sorted([ANNA, BORIS])
    to_sender = next(m for m in press if ANNA in (m.recipients or []))
    to_other = next(m for m in press if BORIS in (m.recipients or []))
    assert _form(to_sender.raw) == _form(to_other.raw)  # byte for byte but To and Message-ID
    assert to_sender.subject == to_other.subject and "anonymous" in to_sender.subject
    text = decode(to_other.raw).text
    assert "The Tsar is bluffing." in text and "sweden" not in text.lower()
    # the coalition's own anonymous press reaches it too, alike
    send(game, COALITION + "PRESS TO ALL\nSo is Karl.\nENDPRESS\n", sender=BORIS)
    second = [m for m in outbound_rows(game) if m.kind == "press"][2:]
    assert len(second) == 2 and _form(second[0].raw) == _form(second[1].raw)


def test_message_ids_are_keyed_with_the_instance_secret(game: ServiceContext) -> None:
    """Issue 22: ids were sha256('press:{inbound}:{line}:{power}'), inverted in under a second."""
    _make_press_anonymous(game)
    inbound = _last_inbound_id(game) + 1
    send(game, SWEDEN + "PRESS TO ALL\nHello.\nENDPRESS\n")
    ids = {m.message_id for m in outbound_rows(game)}
    # every key an attacker could try for this mail, hashed without the secret
    guesses = {f"<gm.{hashlib.sha256(k.encode()).hexdigest()[:32]}@pbem.example>"
               for n in range(inbound - 3, inbound + 3) for line in range(10)
               for k in (f"reply:{n}", *(f"press:{n}:{line}:{p}" for p in ("sweden", "coalition")))}
    assert not ids & guesses
    with session_scope(game.engine) as s:
        secret = s.exec(select(ServiceSecret)).one().value
        mids = {message_id_for(game, s, f"reply:{inbound}")}
    assert len(secret) == 32
    keyed = hmac.new(secret, f"reply:{inbound}".encode(), hashlib.sha256).hexdigest()[:32]
    assert mids == {f"<gm.{keyed}@pbem.example>"} and mids <= ids


def _last_inbound_id(ctx: ServiceContext) -> int:
    with session_scope(ctx.engine) as s:
        return max([r.id or 0 for r in s.exec(select(InboundMail)).all()] + [0])


def test_message_ids_are_stable_across_restarts_and_differ_between_instances(tmp_path: Path) -> None:
    from gm.db.engine import make_engine, sqlite_url
    from gm.db.migrate import upgrade

    first = tmp_path / "a"
    first.mkdir()
    build_template(first / "gm.db")
    other = tmp_path / "b"
    other.mkdir()
    engine = make_engine(sqlite_url(other / "gm.db"))
    upgrade(engine)  # another instance: its own secret, made once by the migration
    ids = []
    for db in (first / "gm.db", first / "gm.db", other / "gm.db"):
        ctx = ServiceContext(engine=make_engine(sqlite_url(db)), settings={"address": "gm@pbem.example"})
        with session_scope(ctx.engine) as s:
            ids.append(message_id_for(ctx, s, "reply:17") + content_id(ctx, s, "report:g:3:sweden"))
        ctx.engine.dispose()
    engine.dispose()
    assert ids[0] == ids[1]  # the same instance, restarted: exactly-once still holds
    assert ids[0] != ids[2]  # another instance
    unkeyed = hashlib.sha256(b"report:g:3:sweden").hexdigest()[:16]
    assert unkeyed not in ids[0]  # a map's Content-ID is keyed too
