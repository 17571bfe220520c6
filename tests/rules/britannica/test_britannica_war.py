"""Seed 003, War: declarations, alliances, initiative, attack, retreat, supply, war end."""

from __future__ import annotations

from britannica_helpers import of_type, play, refused_on_arrival, set_up, tunis_dispute

from gm.games.britannica import module, war
from gm.games.britannica.data import load


def _at_war(declarations: dict[str, str], extra_cb: list | None = None,
            unjudged: tuple[str, ...] = ()) -> tuple[dict, list]:
    s = _war_phase(extra_cb)
    return play(s, declarations, lead=[6, 1], unjudged=unjudged)


def _war_phase(extra_cb: list | None = None) -> dict:
    s = tunis_dispute()
    s["casus_belli"] += extra_cb or []
    s, _ = play(s, {})  # negotiation: nobody calls a Congress
    assert s["step"] == "war"
    return s


def test_rule_declarations_of_war_need_a_casus_belli_and_raise_tensions_5() -> None:
    assert refused_on_arrival(_war_phase(), "germany", "declare war on Italy") == [
        "a declaration of war needs a Casus Belli against that power"]  # issue 17 class 4
    s, events = _at_war({"france": "declare war on Italy", "germany": "declare war on Italy"},
                        unjudged=("germany",))
    assert [d["by"] for d in of_type(events, "war_declared")] == ["france"]
    assert of_type(events, "order_not_carried_out")[0]["why"].startswith("a declaration")
    assert s["wars"][0]["sides"] == [["france"], ["italy"]]
    assert any(t["cause"] == "declaration of war" and t["amount"] == 5 for t in of_type(events, "tension"))


def test_rule_defensive_treaty_example_support_is_a_declaration_of_war_plus_5() -> None:
    s = tunis_dispute()
    s["treaties"].append({"name": "Dual", "public": True, "parties": ["germany", "italy"],
                          "text": "defence", "signed": ["germany", "italy"], "ratified": True})
    s, _ = play(s, {})
    eti = s["eti"]
    # Russia, with no treaty with Italy, is told so when its mail arrives (arrival._support)
    assert refused_on_arrival(s, "russia", "support Italy") == [
        "support needs a ratified treaty with that power (or an Ottoman war)"]
    s, events = play(s, {"france": "declare war on Italy", "germany": "support Italy",
                         "russia": "support Italy"}, lead=[6, 1], unjudged=("russia",))
    assert s["wars"][0]["sides"] == [["france"], ["italy", "germany"]]
    assert of_type(events, "order_not_carried_out")[0]["power"] == "russia"
    assert s["eti"] >= eti + 10


def test_rule_germany_and_austria_hungary_never_on_opposite_sides() -> None:
    cb = [{"holder": "germany", "against": "austria-hungary", "area": "", "cause": "x"}]
    assert refused_on_arrival(_war_phase(cb), "germany", "declare war on Austria-Hungary") == [
        "Germany and Austria-Hungary can never be on opposite sides"]
    s, events = _at_war({"germany": "declare war on Austria-Hungary"}, cb, unjudged=("germany",))
    assert not s.get("wars") or all(not ({"germany", "austria-hungary"} <= set(w["sides"][0] + w["sides"][1]))
                                    for w in s["wars"])
    assert "opposite sides" in of_type(events, "order_not_carried_out")[0]["why"]


def test_rule_initiative_highest_die_is_the_first_alliance() -> None:
    s, events = _at_war({"france": "declare war on Italy"})
    [ini] = of_type(events, "initiative")
    assert ini["rolls"] == [6, 1] and ini["first"] == ["france"]
    assert s["step"] == "war-first" and module.phase(s).owing == ("france",)
    assert module.phase(s).id == "1880-war-1-round-1-first"


def test_rule_unused_status_casus_belli_expire_and_the_influence_is_reduced() -> None:
    s, events = _at_war({})
    assert not s["casus_belli"] and not s.get("wars")
    # Beside an established Protectorate, France's Influence becomes Interest.
    assert {m["power"]: m["kind"] for m in s["markers"]["tunis"]} == {"france": "interest",
                                                                      "italy": "protectorate"}
    assert s["step"] == "movement" and s["year"] == 1884


def _battle() -> dict:
    """France (first) has Army(10) in Tunis against Italy's Army(3) there."""
    s, _ = _at_war({"france": "declare war on Italy"})
    s["units"].append({"id": 901, "power": "france", "type": "army", "strength": 10, "at": "tunis"})
    return s


def test_rule_combat_during_a_war_attack_uses_the_crt_and_defender_retreats_later() -> None:
    s = _battle()
    s, events = play(s, {"france": "attack in Tunis"}, lead=[6])
    [c] = of_type(events, "war_combat")
    assert (c["attack"], c["defence"], c["ratio"], c["table"]) == (10, 3, "3:1", "table1")
    assert c["result"] == "DE" and c["lost"] == [{"power": "italy", "unit": "army", "strength": 3}]
    assert s["step"] == "war-second"
    assert s["wars"][0]["conquered"] == {"tunis": 0}


def test_rule_retreat_procedure_default_list_then_ordered_retreat() -> None:
    s = _battle()
    # Table 1, 3:1, roll 3: DR. Italy's army retreats in the next phase.
    s, events = play(s, {"france": "attack in Tunis"}, lead=[3])
    assert of_type(events, "war_combat")[0]["result"] == "DR"
    assert s["wars"][0]["pending"]
    d = load()
    first_choice = war.default_retreat(d, s, s["wars"][0], "italy", "army", "tunis")
    s2, events = play(s, {})
    [r] = of_type(events, "war_retreat")
    assert r["power"] == "italy" and r["to"] == first_choice


def test_rule_supply_armies_without_a_line_of_supply_surrender() -> None:
    s = _battle()
    s["merchants"]["italy"] = []
    s, events = play(s, {}, lead=[])
    s, events = play(s, {})
    assert any(x["power"] == "italy" and x["why"] == "out of supply" for x in of_type(events, "war_surrender"))
    if s.get("wars"):
        assert any(u["power"] == "italy" and u["strength"] == 3 for u in s["wars"][0]["surrendered"])


def test_rule_war_end_three_rounds_without_attacks_is_a_stalemate_units_come_home() -> None:
    s, _ = _at_war({"france": "declare war on Italy"})
    for _ in range(6):
        if not s["step"].startswith("war-"):
            break
        s, events = play(s, {})
    assert s["step"] == "movement"
    assert of_type(events, "war_ended")[0]["outcome"] == "stalemate"


def test_rule_negotiations_and_ending_a_war_peace_by_every_combatant() -> None:
    s, _ = _at_war({"france": "declare war on Italy"})
    assert refused_on_arrival(s, "france", "peace") == [
        "peace is made in the second phase of a round"]
    s, _ = play(s, {"france": "peace"}, unjudged=("france",))
    s, events = play(s, {"france": "peace", "italy": "peace"})
    assert of_type(events, "war_ended")[0]["outcome"] == "peace"


def test_rule_the_great_war_four_european_powers_end_the_game_culprits_triple() -> None:
    cbs = [{"holder": "russia", "against": "france", "area": "", "cause": "x"},
           {"holder": "britain", "against": "italy", "area": "", "cause": "x"}]
    s, events = _at_war({"france": "declare war on Italy", "russia": "declare war on France",
                         "britain": "declare war on Italy"}, cbs)
    assert s["step"] == "ended"
    [gw] = of_type(events, "great_war")
    # Simultaneous declarations are taken in alphabetical order: Britain started the war,
    # Russia's was the fourth European power's declaration.
    assert gw["culprits"] == ["britain", "russia"]
    pen = {p["power"]: p["lost"] for p in of_type(events, "great_war_penalty")}
    assert pen["britain"] == 3 * pen["italy"] == pen["russia"] and pen["france"] == pen["italy"] > 0


def test_rule_chinese_rebellion_armies_never_in_a_possession_china_victory_clears_markers() -> None:
    s = set_up()
    s["step"], s["cri"] = "negotiation", 190
    s["markers"]["chihli"] = [{"power": "russia", "kind": "possession", "established": True}]
    # 3 dice 1-1-1 < 19: rebellion; 2 armies; placement rolls 1 (Chihli, a Possession: re-rolled), 2, 2.
    s, events = play(s, {}, lead=[1, 1, 1, 2, 1, 2, 2])
    [reb] = of_type(events, "chinese_rebellion")
    assert reb["armies"] == ["shantung", "shantung"]
    assert "britain" in reb["against"] and s["wars"][0]["sides"][0] == ["china"]
    for _ in range(30):
        if not s["step"].startswith("war-"):
            break
        s, events = play(s, {})
    if of_type(events, "rebellion_succeeded"):
        assert not any(a in s["markers"] for a in ("hong_kong", "chihli", "korea"))
    assert s["cri"] < 190


def _dual(public: bool = True) -> dict:
    s = tunis_dispute()
    s["treaties"].append({"name": "Dual", "public": public, "parties": ["germany", "italy", "russia"],
                          "text": "Germany places no marker in Tunis", "signed": ["germany", "italy", "russia"],
                          "ratified": True})
    return s


def test_rule_treaties_and_casus_belli_a_breach_gives_every_other_signatory_a_casus_belli() -> None:
    s0 = _dual()
    s, events = play(s0, {"italy": 'breach "Dual" by Germany'})
    cbs = [cb for cb in s["casus_belli"] if cb["cause"] == "treaty_broken"]
    assert sorted((cb["holder"], cb["against"]) for cb in cbs) == [("italy", "germany"), ("russia", "germany")]
    # European Tensions +5, the violator -2 VP, the treaty is negated.
    assert any(t["cause"] == "treaty broken" and t["amount"] == 5 for t in of_type(events, "tension"))
    assert s["vp"]["germany"] == s0["vp"]["germany"] - 2
    assert not [t for t in s["treaties"] if t["name"] == "Dual"]
    # The Casus Belli is a pretext for war in the War phase.
    assert s["step"] == "war"
    s, events = play(s, {"russia": "declare war on Germany"}, lead=[6, 1])
    assert s["wars"][0]["sides"] == [["russia"], ["germany"]]


def test_rule_treaties_a_secret_treaty_breach_makes_it_public() -> None:
    s, events = play(_dual(public=False), {"russia": 'violation "Dual" par Germany'})
    [made] = [e for e in events if e.type == "treaty_made_public"]
    assert made.visible_to is None and made.data["text"] == "Germany places no marker in Tunis"


def test_rule_treaties_only_a_party_can_lodge_a_breach_by_another_party() -> None:
    s0 = _dual()
    assert refused_on_arrival(s0, "italy", 'breach "Dual" by France') == [
        "only another party to the treaty can break it"]
    assert refused_on_arrival(s0, "russia", 'breach "Dual" by Russia') == [
        "only another party to the treaty can break it"]
    assert refused_on_arrival(s0, "france", 'breach "Dual" by Germany') == [
        "you are not a party to a ratified treaty of that name"]
    s, events = play(s0, {"france": 'breach "Dual" by Germany', "italy": 'breach "Dual" by France',
                          "russia": 'breach "Dual" by Russia'}, unjudged=("france", "italy", "russia"))
    assert len(of_type(events, "order_not_carried_out")) == 3
    assert s["eti"] == s0["eti"] and s["treaties"] == s0["treaties"]


def test_rule_the_great_war_treaty_breaker_brought_in_fourth_loses_double() -> None:
    s, _ = play(_dual(), {"italy": 'breach "Dual" by Germany'})
    s["casus_belli"].append({"holder": "britain", "against": "italy", "area": "", "cause": "x"})
    # Britain and France go to war with Italy (three European powers); Italy declares on
    # Germany for the broken treaty, bringing it in as the fourth.
    s, events = play(s, {"britain": "declare war on Italy", "france": "declare war on Italy",
                         "italy": "declare war on Germany"}, lead=[6, 1])
    [gw] = of_type(events, "great_war")
    assert "germany" not in gw["culprits"]
    penalty = {e["power"]: e["lost"] for e in of_type(events, "great_war_penalty")}
    assert penalty["germany"] == 2 * penalty["japan"]


def test_rule_negotiation_2_no_influence_beside_control_after_a_stalemate() -> None:
    s, _ = _at_war({"france": "declare war on Italy"})
    for _ in range(6):
        if not s["step"].startswith("war-"):
            break
        s, events = play(s, {})
    assert of_type(events, "war_ended")[0]["outcome"] == "stalemate"
    # France's Influence beside Italy's established Protectorate is reduced to Interest.
    assert {m["power"]: m["kind"] for m in s["markers"]["tunis"]} == {"france": "interest",
                                                                      "italy": "protectorate"}


def test_rule_negotiation_2_no_influence_beside_a_possession_after_peace() -> None:
    s, _ = _at_war({"france": "declare war on Italy"})
    s["markers"]["tunis"][1]["kind"] = "possession"
    s, _ = play(s, {"france": "peace"}, unjudged=("france",))
    s, events = play(s, {"france": "peace", "italy": "peace"})
    assert of_type(events, "war_ended")[0]["outcome"] == "peace"
    assert {m["power"]: m["kind"] for m in s["markers"]["tunis"]} == {"italy": "possession"}


def test_rule_casus_belli_the_war_sequence_removes_the_combatants_casus_belli() -> None:
    """"War can be declared. Once the War sequence begins, all Casus Belli of the combatants
    are automatically removed." France declares war on Italy over Tunis: the dispute goes to
    the war, not to the GM's settlement, so France's Influence there is not reduced (the
    tensions rise by the declaration only)."""
    s0 = _war_phase()
    s, events = play(s0, {"france": "declare war on Italy"}, lead=[6, 1])
    assert s["wars"][0]["sides"] == [["france"], ["italy"]]
    assert not [cb for cb in s["casus_belli"] if {cb["holder"], cb["against"]} == {"france", "italy"}]
    assert {m["power"]: m["kind"] for m in s["markers"]["tunis"]} == {"france": "influence",
                                                                      "italy": "protectorate"}
    assert not of_type(events, "marker_downgraded") and s["eti"] == s0["eti"] + 5


def test_rule_casus_belli_an_unused_dispute_beside_a_possession_removes_the_influence() -> None:
    """Nobody goes to war over the Tunis dispute: "the markers of the players who originally had
    the Casus Belli, but refuse to use them to declare war, are downgraded or removed" (Congress
    of Europe), down to "a level that will co-exist with any other markers in the area". An
    Interest may stay beside a Protectorate, "(since Interest markers are permitted in
    Protectorates)" (Negotiation 2), never beside an established Possession (Status Change):
    beside Italy's Possession, France's Influence is removed, two steps of tension."""
    s0 = tunis_dispute()
    s0["markers"]["tunis"][1]["kind"] = "possession"
    s0, _ = play(s0, {})
    assert s0["step"] == "war"
    s, events = play(s0, {})
    assert s["markers"]["tunis"] == [{"power": "italy", "kind": "possession", "established": True}]
    assert [t["amount"] for t in of_type(events, "tension") if t["cause"] == "status downgrade"] == [2]


def _french_battle(units: list[int], italy_abroad: bool = True) -> dict:
    """France (first) attacks in Tunis with armies of ``units`` against Italy's Army(3)."""
    s, _ = _at_war({"france": "declare war on Italy"})
    for i, strength in enumerate(units):
        s["units"].append({"id": 910 + i, "power": "france", "type": "army", "strength": strength,
                           "at": "tunis"})
    if not italy_abroad:
        s["markers"]["eritrea"] = [{"power": "italy", "kind": "protectorate", "established": True}]
    return s


def test_rule_combat_during_a_war_half_exchange_rounds_halves_up() -> None:
    """"½EX: Half Exchange. All Units of the weaker force are removed. The stronger force must
    lose Units whose combined Combat Strength is at least equal to one half the Combat Strength
    of the smaller force (round halves up)." France's 9 against Italy's 3 (3-to-1, table 1):
    half of 3 rounds up to 2, so France loses two Army(1)."""
    d = load()
    s = _french_battle([3, 3, 1, 1, 1])
    roll = d.charts["crt"]["table1"]["3:1"].index("HEX") + 1
    s, events = play(s, {"france": "attack in Tunis"}, lead=[roll])
    [c] = of_type(events, "war_combat")
    assert (c["attack"], c["defence"], c["result"]) == (9, 3, "HEX")
    assert sorted((x["power"], x["strength"]) for x in c["lost"]) == [
        ("france", 1), ("france", 1), ("italy", 3)]


def test_rule_war_end_determination_no_army_units_abroad_ends_the_war() -> None:
    """"If no Army Units of one Alliance occupy any Area or Sea Zone outside the Alliance's Home
    Countries, proceed to the Resolution Phase." Italy's only army abroad, in Tunis, is
    eliminated (its armies at home do not count); Italy still holds Eritrea, unoccupied: the
    war ends, France's alliance the winner."""
    d = load()
    s = _french_battle([10], italy_abroad=False)
    assert [u["at"] for u in s["units"] if u["power"] == "italy" and u["type"] == "army"
            and u["at"] != "home"] == ["tunis"]
    roll = d.charts["crt"]["table1"]["3:1"].index("DE") + 1
    s, _ = play(s, {"france": "attack in Tunis"}, lead=[roll])
    s, events = play(s, {})
    [end] = of_type(events, "war_ended")
    assert (end["outcome"], end["winners"]) == (0, ["france"])


def test_rule_european_tensions_increases_2_at_the_end_of_each_war_phase() -> None:
    """"The Index increases 2 points at the end of each War Phase during a War. Thus, the
    longer a War lasts, the more the Index increases." Each round of the France-Italy war
    raises it by 2 when the round ends."""
    s, _ = _at_war({"france": "declare war on Italy"})
    for _ in range(2):
        assert s["step"] == "war-first"
        s, events = play(s, {})
        assert not [t for t in of_type(events, "tension") if t["cause"] == "war phase"]
        before = s["eti"]
        s, events = play(s, {})
        assert [t["amount"] for t in of_type(events, "tension") if t["cause"] == "war phase"] == [2]
        assert s["eti"] == before + 2
