"""The order of a round's mails when another instance holds one (gm.pipeline.order).

No database here: which games a mail may touch, read from its envelope alone, and the
order :class:`Round` hands the mails out in. The same with real instances on PostgreSQL:
tests/schedule/test_mail_order.py.
"""

from __future__ import annotations

from gm.kept import Kept
from gm.mail.types import FetchedMail
from gm.pipeline.order import OthersGames, Round, game_rank, games_of, mail_games, owner
from tests.pipeline.conftest import mail

GM = "gm@example.org"


def fetched(body: str, n: int, **kw: str) -> FetchedMail:
    return FetchedMail(mail(body, **kw), "imap:INBOX", 7, n, str(n))


def orders(game: str, n: int) -> FetchedMail:
    return fetched(f"GAME {game}\nPOWER north n-secret\nadvance 1\n", n)


def keys(mails: list[FetchedMail]) -> list[str]:
    return [m.key for m in mails]


def handed_out(r: Round, held: set[str]) -> list[str]:
    """The keys ``r`` hands out, in order, when another instance holds the mails ``held``."""
    out = []
    for m in r:
        out.append(m.key)
        if m.key in held:
            r.held(m)
    return out


# -- which games a mail may touch ---------------------------------------------------------


def test_a_mail_touches_the_games_its_sections_name() -> None:
    assert mail_games(mail("Hello,\nGAME Race1\nPOWER north n-secret\nadvance 1\n"), GM) \
        == frozenset({"race1"})
    two = "GAME race1\nMODERATOR mod-secret\nPAUSE\nGAME race2\nMODERATOR mod-secret\nPAUSE\n"
    assert mail_games(mail(two), GM) == frozenset({"race1", "race2"})
    assert mail_games(mail("LIST race2\n"), GM) == frozenset({"race2"})


def test_the_address_a_mail_was_sent_to_names_its_game() -> None:
    assert mail_games(mail("POWER north n-secret\nadvance 1\n", to="gm+race2@example.org"), GM) \
        == frozenset({"race2"})
    # a GAME line that says otherwise is refused by the handler; both are counted here
    assert mail_games(mail("GAME race1\nPOWER north n-secret\n", to="gm+race2@example.org"), GM) \
        == frozenset({"race1", "race2"})


def test_a_mail_whose_game_the_sender_s_seats_decide_cannot_be_told() -> None:
    assert mail_games(mail("POWER north n-secret\nadvance 1\n"), GM) is None
    assert mail_games(mail("GAME race1\nPOWER north n-secret\nadvance 1\n\nPOWER north n-secret\n"
                           "READY\n"), GM) == frozenset({"race1"})  # the second keeps the game
    assert mail_games(mail("HELP\n"), GM) is None
    assert mail_games(mail("SEND PASSWORD north\n"), GM) is None
    assert mail_games(mail("MODERATOR mod-secret\nPAUSE\n"), GM) is None
    assert mail_games(mail("LIST\n"), GM) is None  # the games here: all of them


def test_a_sign_up_cannot_be_told_it_may_start_a_forming_game() -> None:
    assert mail_games(mail("JOIN race3 north\n"), GM) is None
    assert mail_games(mail("GAME race3\nMODERATOR mod-secret\nAPPROVE a@example.org north\n"), GM) is None


def test_a_mail_with_no_envelope_or_too_large_to_read_touches_no_game() -> None:
    assert mail_games(mail("Thanks for the game!\nREADY\n"), GM) == frozenset()  # no envelope line
    big = mail("GAME race1\nPOWER north n-secret\n" + "x" * (11 * 1024 * 1024))
    assert mail_games(big, GM) == frozenset()


def test_a_fetched_mail_s_games_are_read_once_and_again_when_its_bytes_change(
        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """games_of reads a fetched mail once per process; the same uid with other bytes again."""
    reads: list[bytes] = []

    def counting(raw: bytes, service_address: str):  # type: ignore[no-untyped-def]
        reads.append(raw)
        return mail_games(raw, service_address)

    monkeypatch.setattr("gm.pipeline.order.mail_games", counting)
    monkeypatch.setattr("gm.pipeline.order._KNOWN", Kept(16))
    first = orders("race1", 1)
    assert games_of(first, GM) == games_of(first, GM) == {"race1"} and reads == [first.raw]
    other = orders("race2", 1)  # the same place in the mailbox, other bytes
    assert games_of(other, GM) == {"race2"} and reads == [first.raw, other.raw]


# -- the order of a round -----------------------------------------------------------------


def test_with_nothing_held_mails_come_in_the_mailbox_order_and_none_is_read_ahead() -> None:
    mails = [orders("race1", 1), orders("race2", 2), orders("race1", 3)]
    r = Round(mails, GM, "alpha")
    assert keys(list(r)) == ["1", "2", "3"]
    assert r._games == {} and not r.met_other  # nothing parsed


def test_a_held_mail_holds_back_only_the_later_mails_of_its_game() -> None:
    mails = [orders("race1", 1), orders("race2", 2), orders("race1", 3), orders("race2", 4)]
    r = Round(mails, GM, "alpha")
    assert handed_out(r, held={"1"}) == ["1", "2", "4"] and r.met_other


def test_a_mail_behind_a_skipped_one_of_its_game_waits_too() -> None:
    """race1 held; mail 2 touches race1 and race2, so race2's mail 3 waits behind it."""
    both = fetched("GAME race1\nMODERATOR mod-secret\nPAUSE\nGAME race2\nMODERATOR mod-secret\n"
                   "PAUSE\n", 2)
    mails = [orders("race1", 1), both, orders("race2", 3), orders("race3", 4)]
    r = Round(mails, GM, "alpha")
    assert handed_out(r, held={"1"}) == ["1", "4"]


def test_a_held_mail_whose_game_cannot_be_told_ends_the_round() -> None:
    mails = [fetched("POWER north n-secret\nadvance 1\n", 1), orders("race2", 2)]
    r = Round(mails, GM, "alpha")
    assert handed_out(r, held={"1", "2"}) == ["1"]


def test_a_mail_whose_game_cannot_be_told_behind_a_held_one_ends_the_round_there() -> None:
    mails = [orders("race1", 1), orders("race2", 2), fetched("POWER north n-secret\nREADY\n", 3), orders("race2", 4)]
    r = Round(mails, GM, "alpha")
    assert handed_out(r, held={"1"}) == ["1", "2"]


def test_game_by_game_each_instance_takes_the_games_in_its_own_order_each_game_in_order() -> None:
    games = ["race1", "race2", "race3", "race4"]
    mails = [orders(g, 10 * i + j) for i in range(1, 4) for j, g in enumerate(games)]
    for instance in ("alpha", "beta"):
        r = Round(mails, GM, instance, by_game=True)
        out = list(r)
        ranked = sorted(games, key=lambda g: game_rank(instance, g))
        assert keys(out) == keys([m for g in ranked for m in mails if mail_games(m.raw, GM) == {g}])
    alpha = sorted(games, key=lambda g: game_rank("alpha", g))
    beta = sorted(games, key=lambda g: game_rank("beta", g))
    assert alpha != beta  # the two start apart (with these names and games)


def test_game_by_game_a_mail_whose_game_cannot_be_told_is_not_passed() -> None:
    """The mails before it, in any order of games; it; then the mails after it."""
    mails = [orders("race1", 1), orders("race2", 2), fetched("POWER north n-secret\nREADY\n", 3), orders("race1", 4),
             orders("race2", 5)]
    out = keys(list(Round(mails, GM, "alpha", by_game=True)))
    assert sorted(out[:2]) == ["1", "2"] and out[2] == "3" and sorted(out[3:]) == ["4", "5"]


def test_game_by_game_a_round_fetched_long_enough_ago_ends_between_two_games() -> None:
    """``fresh_seconds`` 0: the round is always old enough; it ends after its first game."""
    mails = [orders("race1", 1), orders("race2", 2), orders("race1", 3), orders("race2", 4)]
    first = min(("race1", "race2"), key=lambda g: game_rank("alpha", g))
    r = Round(mails, GM, "alpha", by_game=True, fresh_seconds=0.0)
    assert [mail_games(m.raw, GM) for m in r] == [{first}, {first}]
    assert r.left == 2
    assert len(list(Round(mails, GM, "alpha", by_game=True, fresh_seconds=3600.0))) == 4
    assert len(list(Round(mails, GM, "alpha", fresh_seconds=0.0))) == 4  # in mailbox order: never


# -- games shared out between the instances alive ----------------------------------------


GAMES = [f"race{n}" for n in range(1, 9)]


def games_in_order(out: list[FetchedMail]) -> list[str]:
    """The games of ``out`` in the order their first mail comes."""
    return list(dict.fromkeys(next(iter(mail_games(m.raw, GM) or {"?"})) for m in out))


def test_each_game_belongs_to_one_instance_and_each_takes_its_own_games_first() -> None:
    """Two instances that know each other: every game is one's own, the two lists part the
    games; each hands out its own games first (its own order), then the other's from the
    end of the other's order; each game's mails in the mailbox's order."""
    mails = [orders(g, 10 * i + j) for i in range(1, 4) for j, g in enumerate(GAMES)]
    mine = {name: [g for g in GAMES if owner(g, ("alpha", "beta")) == name] for name in ("alpha", "beta")}
    assert mine["alpha"] and mine["beta"] and sorted(mine["alpha"] + mine["beta"]) == sorted(GAMES)
    for name, other in (("alpha", "beta"), ("beta", "alpha")):
        out = list(Round(mails, GM, name, by_game=True, peers=(other,)))
        expected = (sorted(mine[name], key=lambda g: game_rank(name, g))
                    + sorted(mine[other], key=lambda g: -game_rank(other, g)))
        assert games_in_order(out) == expected
        assert keys(out) == keys([m for g in expected for m in mails if mail_games(m.raw, GM) == {g}])


def test_a_game_keeps_its_owner_when_a_third_instance_comes_unless_it_goes_to_the_new_one() -> None:
    for g in GAMES:
        assert owner(g, ("alpha", "beta", "gamma")) in (owner(g, ("alpha", "beta")), "gamma")
    assert owner("race1", ("beta", "alpha")) == owner("race1", ("alpha", "beta"))


def test_the_mails_stored_next_are_those_the_round_hands_out_next() -> None:
    """Nothing held: :meth:`Round.upcoming` lists the mails in the order they are handed out,
    game by game the instance's own games' mails first; it hands nothing out itself."""
    mails = [orders(g, 10 * i + j) for i in range(1, 4) for j, g in enumerate(GAMES)]
    for kw in ({}, {"by_game": True}, {"by_game": True, "peers": ("beta",)}):
        r = Round(mails, GM, "alpha", **kw)  # type: ignore[arg-type]
        planned = [mails[i].key for i in r.upcoming()]
        assert r.left == len(mails)
        assert planned == keys(list(r))
    r = Round(mails, GM, "alpha", by_game=True, peers=("beta",))
    first = [mails[i] for i in r.upcoming()][:16]
    own = {g for g in GAMES if owner(g, ("alpha", "beta")) == "alpha"}
    assert all(mail_games(m.raw, GM) <= own for m in first[:3 * len(own)])  # type: ignore[operator]


def test_the_games_another_instance_was_found_working_on_are_left_to_it_a_while() -> None:
    """A round hands out no mail of a game left to another instance (the mails of other
    games go on; one whose game cannot be told waits behind it); the games found held are
    left for ``seconds``, then taken again."""
    unknown = fetched("POWER north n-secret\nREADY\n", 4)
    mails = [orders("race1", 1), orders("race2", 2), orders("race1", 3), unknown, orders("race2", 5)]
    assert keys(list(Round(mails, GM, "alpha", avoid=frozenset({"race1"})))) == ["2"]
    assert keys(list(Round(mails, GM, "alpha", by_game=True, avoid=frozenset({"race2"})))) == ["1", "3"]
    now = [0.0]
    left = OthersGames(seconds=1.0, clock=lambda: now[0])
    r = Round(mails, GM, "alpha")
    assert handed_out(r, held={"2"}) == ["1", "2", "3"] and r.held_games == {"race2"}
    left.note(r)
    now[0] = 0.9
    assert left.now() == {"race2"}
    now[0] = 1.0
    assert left.now() == frozenset()
