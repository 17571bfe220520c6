"""Seed 003, Random Events: War in the Balkans (1-1) and Forced Expenditure."""

from __future__ import annotations

from britannica_helpers import of_type, play, set_up

from gm.dice import Dice
from gm.games.britannica import economy, module
from gm.games.britannica.data import after_balkan_wars, load
from gm.games.britannica.turn import start_of_turn


def test_rule_war_in_the_balkans_first_and_second_roll_change_the_links() -> None:
    d = load()
    assert "greece" not in d.neighbours("serbia") and "anatolia" in d.neighbours("serbia")
    first = after_balkan_wars(d, 1)
    assert "greece" in first.neighbours("serbia") and "greece" not in first.neighbours("bulgaria")
    second = after_balkan_wars(d, 2)
    assert "greece" in second.neighbours("bulgaria") and "greece" in second.neighbours("serbia")
    assert "anatolia" not in second.neighbours("serbia")
    assert "anatolia" in second.neighbours("greece")  # the Greek islands keep that link
    assert "mediterranean" in second.areas["bulgaria"].seas
    assert "mediterranean" not in d.areas["bulgaria"].seas  # the data set itself is unchanged
    assert after_balkan_wars(d, 5) is second and after_balkan_wars(second, 1) is second


def test_rule_war_in_the_balkans_routes_apply_to_movement() -> None:
    s = set_up()
    s["next_unit"] += 1
    s["units"].append({"id": s["next_unit"], "power": "russia", "type": "army", "strength": 1, "at": "serbia"})
    s["markers"]["anatolia"] = [{"power": "russia", "kind": "protectorate", "established": True}]
    s2, events = play(s, {"russia": "move army 1 from Serbia to Anatolia"})
    assert [m["path"] for m in of_type(events, "move_done")] == [["serbia", "anatolia"]]
    s["balkan_wars"] = 2  # the second Balkan war severed Serbia-Anatolia
    s3, events = play(s, {"russia": "move army 1 from Serbia to Anatolia"})
    assert not of_type(events, "move_done")
    assert of_type(events, "order_not_carried_out")[0]["reason"] == "NO_PATH"


def test_rule_forced_expenditure_the_gm_builds_armies_for_the_shortfall() -> None:
    s = set_up()
    upkeep = economy.unit_maintenance(load(), s, "germany")
    s["forced"] = [{"power": "germany", "amount": upkeep + 20}]
    s["treasury"]["germany"] = 100
    before = [u["id"] for u in s["units"] if u["power"] == "germany"]
    s2, events = play(s, {"germany": "buy army 3"})
    [f] = of_type(events, "forced_expenditure")
    # Upkeep abroad and the Army(3) bought count; the GM builds an Army(3) for the last £10.
    assert (f["spent"], f["built"], f["short"]) == (upkeep + 10, [3], 0)
    new = [u for u in s2["units"] if u["power"] == "germany" and u["id"] not in before]
    assert sorted(u["strength"] for u in new) == [3, 3] and {u["at"] for u in new} == {"home"}
    assert "forced" not in s2


def test_rule_forced_expenditure_no_ill_effect_when_money_runs_short() -> None:
    s = set_up()
    s["forced"] = [{"power": "russia", "amount": economy.unit_maintenance(load(), s, "russia") + 30}]
    s["treasury"]["russia"] = 5
    s2, events = play(s, {})
    [f] = of_type(events, "forced_expenditure")
    assert f["built"] == [1] and s2["treasury"]["russia"] == 2 and f["short"] > 0


def _report(s: dict, events: list, power: str, lang: str) -> str:
    from gm.service.render import render

    shown = [{"type": e.type, "data": dict(e.data)} for e in events if e.visible(power)]
    return render("report", lang, "britannica", game_only=True, view=module.view(s, power),
                  events=shown, power=power)


def test_rule_random_events_a_peace_conference_lowers_european_tensions() -> None:
    """Random Events (6-6, "Peace conference", European Tensions -3, a reconstructed chart
    entry): "the GM will ... adjust" the index by the event's amount, down as well as up; the
    reports say it like every Tensions change. It was dropped (only increases were applied)."""
    d = load()
    s = set_up()
    s["eti"] = 30
    events = economy.random_events(d, s, Dice.scripted([1, 6, 6]))
    assert s["eti"] == 27
    assert [(t["amount"], t["eti"]) for t in of_type(events, "tension")] == [(-3, 27)]
    assert "European Tensions -3 (random event 6-6): now 27." in _report(s, events, "italy", "en")
    assert "Tensions européennes -3 (événement aléatoire 6-6) : désormais 27." in _report(s, events, "italy", "fr")
    s["eti"] = 1
    economy.random_events(d, s, Dice.scripted([1, 6, 6]))
    assert s["eti"] == 0  # never below zero


def test_rule_chinese_resentment_every_change_gets_a_report_line() -> None:
    """Chinese Resentment: "the GM will periodically adjust the Chinese Resentment Index, whenever
    a condition on the Chinese Resentment Increase Summary ... is met" — each adjustment is told
    in the reports with its cause, like a European Tensions change: a marker placed in China
    now, and the markers there in the Chinese Resentment Phase."""
    from britannica_helpers import dice

    from gm.games.britannica.turn import chinese_resentment

    d = load()
    s = set_up()
    before = s["cri"]
    s2, events = play(s, {"japan": "place influence in Manchuria"}, tag="cri")
    placed = [e for e in of_type(events, "resentment") if e["cause"] == "marker placed"]
    assert placed == [{"amount": d.charts["cri"]["placed"]["influence"], "cause": "marker placed",
                       "by": ["japan"], "area": "manchuria",
                       "cri": before + d.charts["cri"]["placed"]["influence"]}]
    assert "Chinese Resentment +" in _report(s2, events, "france", "en")
    events = chinese_resentment(d, s2, dice("cri-phase"))
    [phase] = of_type(events, "resentment")
    assert phase["cause"] == "markers in China" and phase["amount"] > 0 and phase["cri"] == s2["cri"]
    assert "Ressentiment chinois +" in _report(s2, events, "france", "fr")


def test_rule_headline_events_no_single_headline_event_more_than_once_per_phase() -> None:
    """"No single headline event can occur more than once per Random Events Phase. If a headline
    event has already been rolled and re-occurs in the same Phase, re-roll for a new event
    instead." Two events; 1-6 is rolled twice: the second is re-rolled (3-6)."""
    s = set_up()
    events = economy.random_events(load(), s, Dice.scripted([2, 1, 6, 1, 6, 3, 6]))
    assert [h["event"] for h in of_type(events, "headline")] == ["1-6", "3-6"]


def test_rule_unrest_no_area_put_into_unrest_more_than_once_per_phase() -> None:
    """"No Area can be put into Unrest more than once per Random Events Phase. If this occurs,
    the GM will re-roll on the same Unrest Table for a new Area instead." Two Unrest events on
    table A both roll Morocco: the second is re-rolled (Egypt)."""
    d = load()
    s = set_up()
    s["unrest"] = []
    table = d.charts["unrest_tables"]["A"]["areas"]
    assert table[:2] == ["morocco", "egypt"]
    events = economy.random_events(d, s, Dice.scripted([2, 1, 2, 1, 2, 2, 1, 2]))
    assert [u["area"] for u in of_type(events, "unrest")] == ["morocco", "egypt"]
    assert s["unrest"] == ["morocco", "egypt"]


def test_rule_war_in_the_balkans_the_new_link_counts_in_the_same_turn_s_administration() -> None:
    """"War in the Balkans(1-1): The first time that this event is rolled, a communication link
    is created between Serbia and Greece", and the Random Events Phase comes before the
    Administration Phase (Game Turn Sequence): the turn that rolls it already counts the link.
    Austria-Hungary (no merchant fleet) holds Serbia as a Protectorate and an Influence in
    Greece: its marker income is Serbia's £8 plus Greece's £4."""
    d = load()
    s = set_up()
    s["markers"]["serbia"] = [{"power": "austria-hungary", "kind": "protectorate", "established": True}]
    s["markers"]["greece"] = [{"power": "austria-hungary", "kind": "influence", "established": True}]
    assert "greece" not in d.neighbours("serbia") and (d.areas["serbia"].value, d.areas["greece"].value) == (2, 2)
    events = start_of_turn(d, s, Dice.scripted([1, 1, 1], then_seed=True))
    assert [h["event"] for h in of_type(events, "headline")] == ["1-1"]
    [admin] = [a for a in of_type(events, "administration") if a["power"] == "austria-hungary"]
    assert admin["markers"] == 2 * 4 + 2 * 2
