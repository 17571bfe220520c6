"""Pax Baltica 3.4 Swedish Winter Campaigns ("Never Mind The Weather"), on the 12.1 map."""

from __future__ import annotations

from gm.dice import Dice
from gm.games.baltica.conditions import unwrap
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.state import GameState
from gm.games.base import Verdict
from gm.orders.model import SourceLine

MODULE = BalticaModule()


def winter(**where: str) -> dict:  # type: ignore[type-arg]
    """12.1 in the 1700 winter campaign step, blocks moved as given."""
    gs = GameState.from_json(MODULE.setup("12.1", {}))
    gs.year, gs.season, gs.step = 1700, "winter", "winter-campaign"
    for block, territory in where.items():
        gs.blocks[block.replace("_", "-")].location = territory
    return gs.to_json()


def parsed(state: dict, power: str, *lines: str) -> list:  # type: ignore[type-arg]
    res = MODULE.parse_orders(state, power, [SourceLine(i + 1, t) for i, t in enumerate(lines)])
    assert len(res.orders) == len(lines), res
    return [unwrap(o.order)[0] for o in res.orders]


def test_rule_3_4_the_campaign_follows_the_winter_turn_and_precedes_the_interphase() -> None:
    """3.4: "When a Year ends, just after the normal Winter turn is concluded, the Swedish
    player may go on a special Winter Campaign ... After this extra winter action, the next
    Year begins as normal with the Interphase." Default: no campaign."""
    gs = GameState.from_json(MODULE.setup("12.1", {}))
    gs.year, gs.season, gs.step = 1700, "winter", "forage"
    state = MODULE.adjudicate(gs.to_json(), {}, Dice.scripted([])).state
    info = MODULE.phase(state)
    assert (info.id, info.kind, info.owing) == ("1700-winter-campaign", "winter-campaign",
                                                ("sweden",))
    assert set(info.allowed()) == {"sweden", "coalition"}
    out = MODULE.adjudicate(state, {}, Dice.scripted([]))
    assert [e.type for e in out.events][1:] == ["no_winter_campaign"]
    assert MODULE.phase(out.state).id == "1701-interphase"


def test_rule_3_4_no_campaign_without_karl_xii_nor_after_the_last_turn() -> None:
    gs = GameState.from_json(MODULE.setup("12.1", {}))
    gs.year, gs.season, gs.step = 1700, "winter", "forage"
    gs.blocks["karl-xii"].location = "exile"
    state = MODULE.adjudicate(gs.to_json(), {}, Dice.scripted([])).state
    assert MODULE.phase(state).id == "1701-interphase"
    gs = GameState.from_json(MODULE.setup("12.2", {}))  # ends Winter 1710
    gs.year, gs.season, gs.step = 1710, "winter", "forage"
    info = MODULE.phase(MODULE.adjudicate(gs.to_json(), {}, Dice.scripted([])).state)
    assert info.ended


def test_rule_3_4_each_block_loses_a_step_then_moves_and_fights() -> None:
    """3.4: "The Swedish player may move Karl XII, along with any or all other Swedish blocks
    in the same territory; the move may cause a battle as normal ... Each Swedish block
    participating in a Winter Campaign action immediately loses one step at the start of
    the action." Blocks left behind lose nothing."""
    state = winter(karl_xii="estland", dalregementet="estland")
    orders = parsed(state, "sweden",
                    "winter campaign: move from Estland: Karl XII, Dalregementet to Ingermanland")
    assert [v.verdict for v in MODULE.validate(state, "sweden", orders)] == [Verdict.ACCEPTED]
    before = GameState.from_json(state)
    out = MODULE.adjudicate(state, {"sweden": orders}, Dice.scripted([], then_seed=True))
    types = [e.type for e in out.events]
    assert types.index("winter_losses") < types.index("moved") < types.index("battle")
    losses = next(e for e in out.events if e.type == "winter_losses")
    assert losses.visible_to == frozenset({"sweden"})
    assert {b["block"]: b["strength"] for b in losses.data["blocks"]} == {
        "Karl XII": before.blocks["karl-xii"].strength - 1,
        "Dalregementet": before.blocks["dalregementet"].strength - 1}
    public = next(e for e in out.events if e.type == "winter_losses_count")
    assert public.visible_to is None and public.data["steps"] == 2
    after = GameState.from_json(out.state)
    assert after.blocks["vellinck"].strength == before.blocks["vellinck"].strength
    assert MODULE.phase(out.state).id == "1701-interphase"


def test_rule_3_4_karl_may_besiege_where_he_stands() -> None:
    """3.4: "Karl and any blocks with him may declare a siege attempt, if otherwise
    eligible." (one action: a siege without a move)"""
    state = winter(karl_xii="velikaya", dalregementet="velikaya")
    orders = parsed(state, "sweden", "siege Velikaya with Karl XII")
    out = MODULE.adjudicate(state, {"sweden": orders}, Dice.scripted([], then_seed=True))
    types = [e.type for e in out.events]
    assert "winter_campaign" in types and "siege" in types
    losses = next(e for e in out.events if e.type == "winter_losses")
    assert [b["block"] for b in losses.data["blocks"]] == ["Karl XII"]


def test_rule_3_4_only_karl_xii_leads_and_only_sweden_campaigns() -> None:
    state = winter(karl_xii="estland", dalregementet="livland")
    without = parsed(state, "sweden", "winter campaign: move from Livland: Dalregementet to Kurland")
    v = MODULE.validate(state, "sweden", without)[0]
    assert v.verdict is Verdict.REFUSED and "Karl XII" in str(v.reason)
    out = MODULE.adjudicate(state, {"sweden": without}, Dice.scripted([]))
    assert "no_winter_campaign" in [e.type for e in out.events]
    assert GameState.from_json(out.state).blocks["dalregementet"].location == "livland"
    pins = parsed(state, "coalition", "pin Pyotr I in Ingermanland")
    assert MODULE.validate(state, "coalition", pins)[0].verdict is Verdict.TO_CHECK
    siege = parsed(state, "coalition", "siege Estland with Pyotr I")
    v = MODULE.validate(state, "coalition", siege)[0]
    assert v.verdict is Verdict.REFUSED and "only Sweden" in str(v.reason)
