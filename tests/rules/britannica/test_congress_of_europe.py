"""Seed 003, Negotiation and Congress of Europe: calling, ballots, signing and defiance."""

from __future__ import annotations

from britannica_helpers import of_type, play, refused_on_arrival, tunis_dispute

from gm.games.britannica import module


def _convened(site: str = "Russia") -> dict:
    s, events = play(tunis_dispute(), {"france": f"congress in {site}"})
    assert s["step"] == "congress"
    return s


def test_rule_congress_of_europe_call_needs_a_casus_belli_and_raises_tensions_3() -> None:
    s0 = tunis_dispute()
    assert refused_on_arrival(s0, "britain", "congress in Russia") == [
        "only a power with a Casus Belli may call a Congress"]  # issue 17 class 4
    s, events = play(s0, {"britain": "congress in Russia", "france": "congress in Russia"},
                     unjudged=("britain",))
    assert s["congress"]["caller"] == "france" and s["congress"]["site"] == "russia"
    assert s["eti"] == s0["eti"] + 3
    refused = [e for e in events if e.type == "order_not_carried_out"]
    assert refused and refused[0].visible_to == frozenset({"britain"})


def test_rule_congress_of_europe_site_must_not_be_a_party_nor_usa_or_japan() -> None:
    s, _ = play(tunis_dispute(), {"france": "congress in Italy"})
    assert s["congress"]["site"] not in ("italy", "france", "usa", "japan")
    s, _ = play(tunis_dispute(), {"france": "congress in Japan"})
    assert s["congress"]["site"] == "britain"


def test_rule_congress_of_europe_members_parties_host_and_attending_europeans_only() -> None:
    s, events = play(_convened(), {"britain": "attend", "usa": "attend", "germany": "stay away",
                                   "russia": "object to USA", "japan": "attend"})
    [members] = of_type(events, "congress_members")
    # Japan asked to attend and nobody objected: invited; Russia objected to the USA.
    assert members["members"] == ["britain", "france", "italy", "japan", "russia"]
    assert of_type(events, "congress_objection") == [{"powers": ["usa"]}]
    # No proposal was made: the Congress is unresolved (+3) and the turn goes on to the War phase.
    assert of_type(events, "congress_unresolved") and s["step"] == "war"


def _ballot(votes: dict[str, str], proposals: int = 1) -> tuple[dict, list]:
    props = {"italy": 'propose "Tunis to Italy": france none in Tunis'}
    if proposals == 2:
        props["france"] = 'propose "Tunis to France": italy none in Tunis'
    s, _ = play(_convened(), {"britain": "attend", "germany": "attend", **props})
    assert s["step"] == "congress-vote"
    assert module.phase(s).owing == ("britain", "france", "germany", "italy", "russia")
    return play(s, {p: f'vote "Tunis to Italy" {v}' for p, v in votes.items()})


def test_rule_congress_of_europe_example_two_for_two_against_host_vote_counts_twice() -> None:
    s, events = _ballot({"italy": "yes", "britain": "yes", "france": "no", "germany": "no",
                         "russia": "abstain"})
    [b] = of_type(events, "ballot")
    assert (b["yes"], b["no"], b["host"]) == (2, 2, "russia") and b["passed"] is True
    # The host abstains: the only proposal on the issue succeeds, one of two fails.
    s, events = _ballot({"italy": "yes", "britain": "yes", "france": "no", "germany": "no"})
    assert of_type(events, "ballot")[0]["passed"] is True
    s, events = _ballot({"italy": "yes", "britain": "yes", "france": "no", "germany": "no"}, 2)
    assert of_type(events, "ballot")[0]["passed"] is False


def test_rule_congress_of_europe_votes_secret_until_the_deadline_then_revealed_to_all() -> None:
    s, events = _ballot({"italy": "yes", "russia": "yes", "france": "no"})
    ballot = next(e for e in events if e.type == "ballot")
    assert ballot.visible_to is None and ballot.data["votes"]["france"] == "no"
    assert s["step"] == "congress-sign"


def test_rule_congress_of_europe_all_sign_markers_set_free_dispute_resolved() -> None:
    s, _ = _ballot({"italy": "yes", "russia": "yes", "france": "no"})
    treasury, eti = dict(s["treasury"]), s["eti"]
    s, events = play(s, {})
    assert [m["power"] for m in s["markers"]["tunis"]] == ["italy"]
    assert not [cb for cb in s["casus_belli"] if cb["area"] == "tunis"]
    assert s["eti"] >= eti + 2  # France's Influence removed: two steps
    # free of charge: Italy's £ moved only by the VP purchase and the next turn's income
    [vp] = [v for v in of_type(events, "victory_points") if v["power"] == "italy"]
    [adm] = [a for a in of_type(events, "administration") if a["power"] == "italy"]
    net = adm["colonial_office"] + adm["markers"] - adm["maintenance"]
    assert s["treasury"]["italy"] == treasury["italy"] - vp["spent"] + net
    assert of_type(events, "congress_resolved")


def test_rule_congress_of_europe_defiance_gives_signers_casus_belli_and_tensions_5() -> None:
    s, _ = _ballot({"italy": "yes", "russia": "yes", "france": "no"})
    eti = s["eti"]
    s, events = play(s, {"france": 'defy "Tunis to Italy"'})
    holders = {cb["holder"] for cb in s["casus_belli"] if cb["against"] == "france"
               and cb["cause"] == "defied_congress"}
    assert holders == {"britain", "germany", "italy", "russia"}
    assert s["eti"] == eti + 3 + 2
    assert s["step"] == "war"


def test_rule_negotiation_removing_a_disputed_marker_raises_tensions_by_steps() -> None:
    s0 = tunis_dispute()
    s, events = play(s0, {"france": "downgrade Tunis to none"})
    assert [t["amount"] for t in of_type(events, "tension") if t["cause"] == "status downgrade"] == [2]
    assert not s["casus_belli"] and s["step"] == "movement"  # no dispute left: no War phase


def test_rule_congress_of_europe_keeps_and_takes_reduce_the_others_until_they_coexist() -> None:
    from gm.games.britannica.congress import resulting_markers

    s = tunis_dispute()
    assert resulting_markers(s, [("italy", "keeps", "tunis")]) == {
        "tunis": {"italy": "protectorate", "france": "interest"}}
    assert resulting_markers(s, [("france", "takes", "tunis")]) == {
        "tunis": {"france": "protectorate", "italy": "interest"}}


def test_rule_congress_of_europe_numbered_proposal_and_cb_by_mail_words() -> None:
    s, events = play(tunis_dispute(), {"france": "congress at Germany about CB-1"})
    assert s["congress"]["site"] == "germany" and len(s["congress"]["disputes"]) == 1
    s, _ = play(s, {"italy": "propose 1: Italy keeps Tunis"})
    s, events = play(s, {"italy": "vote 1 yes", "germany": "vote 1 yes", "france": "vote 1 no"})
    assert s["step"] == "congress-sign"
    s, events = play(s, {})
    assert {m["power"]: m["kind"] for m in s["markers"]["tunis"]} == {"france": "interest",
                                                                      "italy": "protectorate"}
    assert [t["amount"] for t in of_type(events, "tension") if t["cause"] == "status downgrade"] == [1]


def test_rule_congress_of_europe_usa_invited_unless_a_european_power_objects() -> None:
    s, events = play(_convened(), {"usa": "attend"})
    assert "usa" in of_type(events, "congress_members")[0]["members"]
    s, events = play(_convened(), {"usa": "attend", "germany": "s'opposer a USA"})
    assert "usa" not in of_type(events, "congress_members")[0]["members"]
    # Only a European power may object, and only to the USA or Japan.
    for power, line in (("japan", "object to USA"), ("britain", "object to France")):
        assert refused_on_arrival(_convened(), power, line) == [
            "only a European power may object, and only to the USA or Japan"]
    s, events = play(_convened(), {"usa": "attend", "japan": "object to USA",
                                   "britain": "object to France"}, unjudged=("japan", "britain"))
    assert "usa" in of_type(events, "congress_members")[0]["members"]
    assert sorted(r["power"] for r in of_type(events, "order_not_carried_out")) == ["britain", "japan"]


def test_rule_congress_of_europe_uninvited_usa_does_not_vote() -> None:
    s, _ = play(_convened(), {"usa": "attend", "italy": 'object to USA\npropose "T": france none in Tunis'})
    assert s["step"] == "congress-vote" and "usa" not in module.phase(s).owing
    s, _ = play(_convened(), {"usa": "attend", "italy": 'propose "T": france none in Tunis'})
    assert "usa" in module.phase(s).owing


def _two_accepted() -> tuple[dict, list]:
    s, _ = play(_convened(), {"britain": "attend", "germany": "attend",
                              "italy": 'propose "Tunis to Italy": france none in Tunis',
                              "france": 'propose "Tunis to France": italy none in Tunis'})
    both = 'vote "Tunis to Italy" yes\nvote "Tunis to France" yes'
    return play(s, {p: both for p in ("britain", "france", "germany", "italy", "russia")})


def test_rule_congress_of_europe_two_accepted_proposals_go_to_a_second_ballot() -> None:
    s, events = _two_accepted()
    assert [b["passed"] for b in of_type(events, "ballot")] == [True, True]
    assert s["step"] == "congress-runoff" and not s["congress"]["adopted"]
    assert module.phase(s).id == "1880-congress-runoff"
    assert module.phase(s).owing == ("britain", "france", "germany", "italy", "russia")
    s, events = play(s, {"italy": 'vote "Tunis to Italy" yes', "britain": 'vote "Tunis to Italy" yes',
                         "france": 'vote "Tunis to France" yes'})
    [r] = of_type(events, "runoff")
    assert r["counts"] == {"Tunis to Italy": 2, "Tunis to France": 1}
    assert r["adopted"] == "Tunis to Italy" and s["step"] == "congress-sign"
    s, _ = play(s, {})
    assert [m["power"] for m in s["markers"]["tunis"]] == ["italy"]


def test_rule_congress_of_europe_second_ballot_tie_goes_to_the_host_else_unresolved() -> None:
    s, _ = _two_accepted()
    s2, events = play(s, {"italy": 'vote "Tunis to Italy" yes', "france": 'vote "Tunis to France" yes',
                          "russia": 'vote "Tunis to France" yes', "britain": 'vote "Tunis to Italy" yes'})
    assert of_type(events, "runoff")[0]["adopted"] == "Tunis to France"  # 2-2: host Russia's choice
    eti = s["eti"]
    s3, events = play(s, {"italy": 'vote "Tunis to Italy" yes', "france": 'vote "Tunis to France" yes'})
    assert of_type(events, "runoff")[0]["adopted"] is None  # 1-1, the host did not vote
    assert of_type(events, "congress_unresolved") and s3["eti"] >= eti + 3 and s3["step"] == "war"


def test_rule_congress_of_europe_second_ballot_one_vote_each_only_yes() -> None:
    s, _ = _two_accepted()
    assert refused_on_arrival(s, "italy", 'vote "Tunis to Italy" yes\nvote "Tunis to France" yes') \
        == ["one vote in the second round"]
    assert refused_on_arrival(s, "france", 'vote "Tunis to France" no') == [
        "in the second round, vote yes for the proposal you prefer"]
    s, events = play(s, {"italy": 'vote "Tunis to Italy" yes\nvote "Tunis to France" yes',
                         "france": 'vote "Tunis to France" no'}, unjudged=("italy", "france"))
    assert sorted(r["power"] for r in of_type(events, "order_not_carried_out")) == ["france", "italy"]
    # 1-0 for Italy's proposal.
    assert of_type(events, "runoff")[0]["adopted"] == "Tunis to Italy"
