"""``gm archive`` of a Pax Viking game: the public pages, with no player's hand (issue 18).

The archive renders each phase as a spectator sees it (``GameModule.public_view``); Pax
Viking's view took every power for a player and raised ``KeyError: 'spectator'``.
"""

from __future__ import annotations

from click.testing import CliRunner

from gm.cli.main import cli
from gm.db.engine import session_scope
from gm.service.games import current_phase
from tests.games.viking.test_viking_by_mail import ADDR, LANG, now, plan
from tests.pipeline.conftest import deliver, mail


def test_archive_of_a_viking_game_writes_its_public_pages(pv, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Key Concepts, Public and Private Information: "All information in the game is public
    except Saga Tiles in your hand." — the archive shows the table, never a hand."""
    for _ in range(4):  # a few turns: players draw saga tiles into their hands
        _, state, owing = now(pv)
        p = owing[0]
        deliver(pv, mail(f"GAME pv1\nPOWER {p} {p}-pw\n" + "\n".join(plan(state, p))
                         + ("\nPRET\n" if LANG[p] == "fr" else "\nREADY\n"), sender=ADDR[p]))
    with session_scope(pv.engine) as s:
        state = current_phase(s, "pv1").game_state or {}
    hands = {t for p in state["players"].values() for t in p["hand"]}
    assert hands
    out = tmp_path / "site"
    result = CliRunner().invoke(cli, ["--db", pv.engine.url.render_as_string(hide_password=False),
                                      "archive", "pv1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    pages = {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()}
    assert "index.html" in pages and any(n.startswith("phase-") for n in pages)
    everything = "\n".join(pages.values())
    assert "Your hand" not in everything
    from gm.games.viking import module

    names = {module.data.tiles[t].name for t in hands}
    shown = {n for n in names if f"hand: {n}" in everything}
    assert not shown, shown
