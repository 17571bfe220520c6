"""Seed 003, Unrest; The Ottomans and Casus Belli; War with the Ottomans: Ottoman annexation."""

from __future__ import annotations

from britannica_helpers import of_type, play, set_up

from gm.games.britannica import congress, module
from gm.games.britannica.data import load
from gm.orders.model import SourceLine


def _movement(unrest: list[str], persia: list[tuple[str, str]] | None = None) -> dict:
    """1880, Movement/Status Change, with ``unrest`` (Persia: Britain's and Russia's
    established Influence unless ``persia`` says otherwise)."""
    s = set_up()
    s["unrest"] = list(unrest)
    if persia is not None:
        s["markers"]["persia"] = [{"power": p, "kind": k, "established": True} for p, k in persia]
        if not persia:
            del s["markers"]["persia"]
    return s


def test_rule_unrest_ottoman_annexation_of_an_unsuppressed_area_next_to_the_empire() -> None:
    s, events = play(_movement(["persia", "afghanistan"], []), {})
    assert of_type(events, "ottoman_annexation") == [{"area": "persia"}]  # Afghanistan is not adjacent
    assert s["annexed"] == ["persia"] and s["unrest"] == []
    assert not s["casus_belli"]  # no marker there: the Possession gives no one a Casus Belli


def test_rule_unrest_an_attempt_to_suppress_prevents_the_annexation() -> None:
    s = _movement(["persia"], [])
    s["units"].append({"id": 900, "power": "russia", "type": "army", "strength": 1, "at": "persia"})
    s, events = play(s, {}, lead=[1])  # Russia's army fights the unrest and fails
    combat = of_type(events, "colonial_combat")
    assert [c["area"] for c in combat] == ["persia"] and not combat[0]["won"]
    assert not of_type(events, "ottoman_annexation") and s["annexed"] == []


def test_rule_unrest_a_minor_power_protectorate_in_the_unrest_is_an_attempt() -> None:
    s = _movement(["persia"], [])
    s["suppressing"] = ["persia"]  # recorded by the Minor Powers phase
    s, events = play(s, {})
    assert not of_type(events, "ottoman_annexation") and "suppressing" not in s


def test_rule_the_ottomans_and_casus_belli_annexation_over_influence_markers() -> None:
    s, events = play(_movement(["persia"]), {})
    assert s["annexed"] == ["persia"]
    assert [(c["holder"], c["against"], c["cause"]) for c in of_type(events, "casus_belli")] == [
        ("britain", "ottoman", "ottoman_annexation"), ("russia", "ottoman", "ottoman_annexation")]
    assert "persia" not in s["markers"]  # the unrest still removes the Influence markers
    s, _ = play(s, {})  # negotiation: no Congress called
    assert s["step"] == "war"
    s, events = play(s, {"britain": "declare war on Ottoman Empire"})
    w = s["wars"][0]
    assert w["kind"] == "ottoman" and w["sides"][0] == ["ottoman"] and "britain" in w["sides"][1]
    assert len([u for u in s["units"] if u["power"] == "ottoman"]) == 3
    assert not any(c["holder"] == "britain" for c in s["casus_belli"])


def test_rule_the_ottomans_and_casus_belli_ottomans_are_a_non_voting_party_at_congress() -> None:
    s, _ = play(_movement(["persia"]), {})
    s, events = play(s, {"britain": "congress in Germany"})
    c = s["congress"]
    assert "ottoman" in c["parties"]
    s, events = play(s, {"britain": 'propose "Persia": britain possession in Persia'})
    assert s["step"] == "congress-vote" and s["congress"]["proposals"][0]["by"] == "britain"
    assert "ottoman" not in s["congress"]["members"] and "britain" in s["congress"]["members"]


def test_rule_the_ottomans_and_casus_belli_congress_excludes_the_ottomans() -> None:
    d = load()
    s = set_up()
    s["annexed"] = ["persia"]
    cb = {"holder": "britain", "against": "ottoman", "area": "persia", "cause": "ottoman_annexation"}
    s["casus_belli"] = [cb]
    s["congress"] = {"disputes": [cb]}
    events = congress.apply_resolution(d, s, {"name": "Persia", "clauses": [["britain", "possession", "persia"]]})
    assert [e.data for e in events if e.type == "ottomans_excluded"] == [{"area": "persia", "by": ["britain"]}]
    assert s["annexed"] == [] and s["casus_belli"] == []
    assert {"power": "britain", "kind": "possession", "established": True} in s["markers"]["persia"]


def _sudan(annexed: list[str], unrest: list[str]) -> tuple[dict, list]:
    """Britain, with an army 10 in the Sudan, places a Protectorate there."""
    s = set_up()
    s["annexed"] = annexed
    s["unrest"] = unrest
    s["units"].append({"id": 900, "power": "britain", "type": "army", "strength": 10, "at": "sudan"})
    return play(s, {"britain": "place protectorate in Sudan"}, lead=[6])


def test_rule_unrest_annexed_area_is_an_ottoman_area() -> None:
    _, events = _sudan([], [])  # Unorganized: a Protectorate may be placed at any time
    assert not of_type(events, "order_not_carried_out")
    s = set_up()  # Ottoman now: only during unrest; refused when the mail arrives (issue 17)
    s["annexed"] = ["sudan"]
    s["units"].append({"id": 900, "power": "britain", "type": "army", "strength": 10, "at": "sudan"})
    [order] = module.parse_orders(s, "britain", [SourceLine(1, "place protectorate in Sudan")]).orders
    assert [v.stored for v in module.validate(s, "britain", [order.order])] == [False]
    s, events = _sudan(["sudan"], ["sudan"])
    assert [c["won"] for c in of_type(events, "colonial_combat")] == [True]
    assert s["ottoman_triggers"] == ["britain"]  # the Empire declares war, as in any Ottoman area


def _annexed_persia(controlled: list[str]) -> dict:
    s = set_up()
    s["annexed"] = ["persia"]
    del s["markers"]["persia"]
    for i, a in enumerate(controlled):
        s["markers"][a] = [{"power": "britain", "kind": "protectorate", "established": True}]
        s["units"].append({"id": 900 + i, "power": "britain", "type": "army", "strength": 3, "at": a})
    return s


def test_rule_war_with_the_ottomans_annexed_area_linked_across_one_sea_zone_is_kept() -> None:
    s, events = play(_annexed_persia(["mesopotamia"]), {})  # Persia - Persian Gulf - Arabia
    assert not of_type(events, "annexation_lost") and s["annexed"] == ["persia"]


def test_rule_war_with_the_ottomans_annexed_area_severed_from_anatolia_is_lost() -> None:
    s, events = play(_annexed_persia(["mesopotamia", "arabia"]), {})
    assert of_type(events, "annexation_lost") == [{"area": "persia", "type": "independent"}]
    assert s["annexed"] == []


def test_rule_war_with_the_ottomans_severed_area_with_enemy_units_is_not_lost() -> None:
    from gm.games.britannica.annexation import severed_annexations
    d = load()
    s = _annexed_persia(["mesopotamia", "arabia"])
    s["units"].append({"id": 990, "power": "russia", "type": "army", "strength": 1, "at": "persia"})
    assert severed_annexations(d, s, ["russia"]) == [] and s["annexed"] == ["persia"]
    assert [e.type for e in severed_annexations(d, s, [])] == ["annexation_lost"]
