"""Seed 003, Colonial Combat Resolutions (AR) and Minor Powers Reaction to Unrest: where a
colonial retreat may go, and that units which cannot retreat are eliminated (not surrendered,
as in a war, nor sent home anyway)."""

from __future__ import annotations

from britannica_helpers import of_type, play, set_up

from gm.games.britannica import module
from gm.games.britannica.data import load
from gm.service.render import render


def _report(s: dict, events: list, power: str, lang: str) -> str:
    shown = [{"type": e.type, "data": dict(e.data)} for e in events if e.visible(power)]
    return render("report", lang, "britannica", game_only=True, view=module.view(s, power),
                  events=shown, power=power)


def _roll(table: str, ratio: str, result: str) -> int:
    return load().charts["crt"][table][ratio].index(result) + 1


def test_rule_colonial_combat_resolutions_attacker_retreat_cannot_retreat_units_are_eliminated(
        ) -> None:
    """"AR: ... If the Area is connected to a Sea Zone containing one of the player's Merchant
    Fleets, he can retreat by sea through connected Sea Zones (Communication Link) to any Area
    he Controls or to his Home Area. If a player cannot retreat his Units they are instead
    eliminated." Japan upgrades Korea to a Protectorate, lands its Army(3) there across the
    Sea of Japan and then moves its one merchant fleet away (seed, Merchant Fleets: "A player
    may sever links"). After an AR in Korea no Japanese area is next door, Japan is not next
    to Korea overland and no Japanese merchant fleet lies in the Sea of Japan: the Army(3) is
    eliminated (it used to sail home all the same), and Japan is told so in its report."""
    s = set_up()
    assert "japan" not in load().neighbours("korea")
    s2, events = play(s, {"japan": "upgrade Korea to protectorate\nmove army 3 from home to Korea\n"
                                   "merchant from Sea of Japan to North Pacific"},
                      lead=[_roll("table1", "1:1", "AR")], tag="korea")
    [c] = of_type(events, "colonial_combat")
    assert (c["power"], c["area"], c["result"]) == ("japan", "korea", "AR")
    assert not [u for u in s2["units"] if u["power"] == "japan" and u["strength"] == 3
                and u["type"] == "army"]
    [r] = of_type(events, "colonial_retreat")
    assert (r["power"], r["unit"], r["from"], r["to"], r["strength"]) == (
        "japan", "army", "korea", None, 3)
    assert "Japan's army units (3) cannot retreat from Korea: they are eliminated." in _report(
        s2, events, "japan", "en")
    assert "Le Japon ne peut retirer ses armées (3) de la Corée : elles sont éliminées." in _report(
        s2, events, "japan", "fr")


def test_rule_colonial_combat_resolutions_attacker_retreat_overland_back_to_the_home_country(
        ) -> None:
    """"The default retreat orders, should a player not specify are… 1. An adjacent area
    controlled by that player 2. Back to the home country". Russia, next to Korea overland,
    sends its Army(3) into Korea's unrest with no merchant fleet on the way: after an AR it
    walks home, and the report says where it went, as a war's retreat is said."""
    s = set_up()
    s["unrest"] = ["korea"]
    assert "russia" in load().neighbours("korea")
    s2, events = play(s, {"russia": "move army 3 from home to Korea"},
                      lead=[_roll("table1", "1:1", "AR")], tag="korea-russia")
    assert of_type(events, "colonial_combat")[0]["result"] == "AR"
    assert [u["at"] for u in s2["units"] if u["power"] == "russia" and u["strength"] == 3
            and u["type"] == "army"] == ["home"]
    [r] = of_type(events, "colonial_retreat")
    assert (r["power"], r["from"], r["to"]) == ("russia", "korea", "home")
    assert "Russia's army units (3) retreat from Korea to home." in _report(s2, events, "russia", "en")
    assert "La Russie retire ses armées (3) de la Corée vers la métropole." in _report(
        s2, events, "russia", "fr")


def test_rule_colonial_combat_resolutions_attacker_retreat_by_sea_to_any_area_he_controls(
        ) -> None:
    """"he can retreat by sea through connected Sea Zones (Communication Link) to any Area he
    Controls or to his Home Area": with neither default (no adjacent Control area, home out of
    reach) the units still have a retreat, so they are not eliminated. France's Army(1) sails
    from Cochin China to Formosa's unrest over the South China Sea, where France has a
    merchant fleet that no other French one links to home: after an AR it goes back to Cochin
    China (it used to be sent home)."""
    s = set_up()
    s["unrest"] = ["formosa"]
    d = load()
    assert not d.neighbours("formosa")
    assert "indian_ocean" not in s["merchants"]["france"]
    s2, events = play(s, {"france": "move army 1 from Cochin China to Formosa"},
                      lead=[_roll("table1", "1:2", "AR")], tag="formosa")
    assert of_type(events, "colonial_combat")[0]["result"] == "AR"
    [r] = of_type(events, "colonial_retreat")
    assert (r["power"], r["from"], r["to"]) == ("france", "formosa", "cochin_china")
    assert not any(u["at"] == "formosa" for u in s2["units"])


def test_rule_minor_powers_reaction_to_unrest_retreat_home_if_possible_else_eliminated() -> None:
    """Minor Powers Reaction to Unrest: "If, as a result of Unrest, a Minor Powers Army Units
    are forced to retreat from the area they will retreat to an adjacent Controlled area if
    possible; if that is not possible they will retreat back to the Powers Home Area. If that
    isn't possible they are eliminated." Cuba and the Philippines, Spanish Possessions, stay in
    unrest to the Marker Adjustment Phase; Spain's merchant fleets lie in the North Atlantic
    and the Caribbean only. The Cuban Army(1) sails home; the Philippine one has no way home
    and no Spanish area next door: it is eliminated."""
    s = set_up()
    s["unrest"] = ["cuba", "philippines"]
    s["merchants"]["spain"] = ["north_atlantic", "caribbean"]
    d = load()
    assert not d.neighbours("cuba") and not d.neighbours("philippines")
    s2, events = play(s, {}, tag="spain-unrest")
    spanish = {u["id"]: u["at"] for u in s["units"] if u["power"] == "spain"
               and u["at"] in ("cuba", "philippines")}
    after = {u["id"]: u["at"] for u in s2["units"] if u["id"] in spanish}
    assert sorted(after.values()) == ["home"]
    assert sorted((r["from"], r["to"]) for r in of_type(events, "colonial_retreat")
                  if r["power"] == "spain") == [("cuba", "home"), ("philippines", None)]
    assert "Spain's army units (1) cannot retreat from Philippines: they are eliminated." in _report(
        s2, events, "britain", "en")
