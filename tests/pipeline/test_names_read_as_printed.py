"""Names read as printed on the map, unquoted, in a mail (orders.md §3).

Players type place names as their map prints them, in a hurry, without quotes. Two
printed names of Pax Baltica could only be read quoted: the alias "Bremen and Verden"
(aliases.toml: its "and" is the keyword that joins conditions) and "S:t Petersburg"
(map.toml, 3cg-1.1.toml: the ':' ends a word of a name). ``move Karl XII from Skane to
Bremen and Verden`` was answered "not understood at 'and'", ``recon S:t Petersburg``
"not understood at ':'". Each mail here goes through the real pipeline
(``store_inbound`` + ``handle_inbound``) and the test reads the reply the player gets.
"""

from __future__ import annotations

import pytest

from gm.db.engine import session_scope
from gm.service.games import SeatSpec, create_game
from tests.pipeline.conftest import deliver, mail, outbox

SWEDEN, COALITION, MOD = "karl@example.org", "pyotr@example.org", "mod@example.org"


def _game(ctx, ruleset: str) -> None:  # type: ignore[no-untyped-def]
    seats = [SeatSpec("sweden", SWEDEN, password="sw-secret"),
             SeatSpec("coalition", COALITION, password="co-secret", language="fr")]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pb1", module_name="baltica", scenario="12.1", seats=seats,
                    moderator_address=MOD, moderator_password="mod-secret", seed=b"\x03" * 32, play_out=True,
                    settings={"ruleset": ruleset})


def _reply(ctx, *lines: str) -> str:  # type: ignore[no-untyped-def]
    deliver(ctx, mail("GAME pb1\nPOWER sweden sw-secret\n" + "\n".join(lines) + "\n",
                      sender=SWEDEN))
    return outbox(ctx, kind="reply", to=SWEDEN)[-1][1]


@pytest.mark.parametrize("ruleset", ["gmt-2012", "3cg-1.1"])
def test_bremen_and_verden_reads_unquoted_in_a_move(ctx, ruleset: str) -> None:  # type: ignore[no-untyped-def]
    """The alias "Bremen and Verden" (aliases.toml) names Bremen-Verden as printed: its
    "and" is a word of the name, not the "and" of a condition."""
    _game(ctx, ruleset)
    reply = _reply(ctx, "move Karl XII from Skane to Bremen and Verden")
    assert "move from Skåne: Karl XII to Bremen-Verden" in reply, reply
    assert "not understood" not in reply, reply


@pytest.mark.parametrize("ruleset", ["gmt-2012", "3cg-1.1"])
def test_s_t_petersburg_reads_unquoted_in_a_recon(ctx, ruleset: str) -> None:  # type: ignore[no-untyped-def]
    """"S:t Petersburg" (map.toml, 3cg-1.1.toml) names its territory as printed: its ':'
    is a letter of the name, not the colon of ``move TERRITORY: ...``."""
    _game(ctx, ruleset)
    reply = _reply(ctx, "recon S:t Petersburg")
    assert "recon Nyen" in reply, reply
    assert "not understood" not in reply, reply


def test_a_close_miss_of_a_name_read_as_printed_is_answered_did_you_mean(ctx) -> None:  # type: ignore[no-untyped-def]
    """A misspelt "Bremen and Verdn" is looked up as one name: the reply offers the place,
    not "not understood at 'and'"."""
    _game(ctx, "gmt-2012")
    reply = _reply(ctx, "move Karl XII from Skane to Bremen and Verdn")
    assert "unknown territory 'Bremen and Verdn': did you mean Bremen-Verden?" in reply, reply


def test_and_still_joins_a_condition_where_no_name_is_printed(ctx) -> None:  # type: ignore[no-untyped-def]
    """orders.md §4: "and" between two conditions is the condition's, as before."""
    _game(ctx, "gmt-2012")
    reply = _reply(ctx, "recon Livland if round > 1 and funds < 9")
    assert "recon Livland if round > 1 and funds < 9" in reply, reply
