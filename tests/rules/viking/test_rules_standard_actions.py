"""Standard Actions A-D (INVEST, JOURNEY, PLAY, ACTIVATE): the guarantees the mutation audit
found without a test of their own (docs/robustness.md, "Can the tests fail?").

Each test is named after its rule and quotes the comprehensive rule book; each fails if the
engine breaks that rule (checked by breaking it on purpose).
"""

from __future__ import annotations

from viking_tables import (
    DATA,
    event,
    give,
    hold,
    send,
    ship,
    ships_at,
    table,
    tid,
    types,
    venture,
)

from gm.games.viking import module


def test_rule_a_invest_buy_does_not_refill_the_saga_track() -> None:
    """Standard Actions A, INVEST: "Buy from the Saga Track for the listed Silfr cost on the
    gameboard without refilling the Saga Track." Red buys the tile on the 5-silfr spot, then
    plays an Althing event: while the vote waits (the turn not over, no Winter Solstice yet),
    that spot is still empty and the saga pile is untouched."""
    state = table(pile=["Odin", "Thor"])
    give(state, "red", "Thingvellir Assembly")  # North, althing
    ship(state, "red", "sigtuna")
    fourth = DATA.tiles[state["track"][3]].name
    out = send(state, {"red": f"invest buy {fourth}\nplay Thingvellir Assembly"})
    s = out.state
    assert event(out, "bought") == {"power": "red", "tile": fourth, "cost": 5, "price": 5,
                                   "discounts": []}
    assert module.phase(s).kind == "althing"
    assert s["track"][3] is None
    assert s["pile"] == [tid("Odin"), tid("Thor")]


def test_rule_posts_a_trade_center_gives_its_persistent_ability_once_established() -> None:
    """Game Board Anatomy, Posts 3: "Trade Center (gray pre-printed Posts on the map) provides
    a persistent ability that may only apply during the listed action once Established with
    a Follower". Birka (persistent, INVEST: 1 silfr off a tile bought): red, with its
    follower there, buys the tile on the 5-silfr spot for 4; blue, without, pays 5."""
    state = table()
    hold(state, "birka", "red")
    fourth = DATA.tiles[state["track"][3]].name
    out = send(state, {"red": f"invest buy {fourth}"})
    assert event(out, "bought") == {"power": "red", "tile": fourth, "cost": 4, "price": 5,
                                   "discounts": [{"source": "trade_center", "name": "Birka",
                                                  "amount": 1}]}
    state["current"] = 1  # blue's turn, same track
    out = send(state, {"blue": f"invest buy {fourth}"})
    assert event(out, "bought") == {"power": "blue", "tile": fourth, "cost": 5, "price": 5,
                                   "discounts": []}


def test_rule_posts_a_powerful_ally_gives_its_gains_when_established() -> None:
    """Game Board Anatomy, Posts 4: "Powerful Ally (brown pre-printed Posts on the map)
    provides immediate gains."; Rosetta Stone, POWERFUL ALLY: "Their abilities immediately
    trigger when ESTABLISHED." Red PARLEYs onto Normandy (cost 3; gain 3 silfr): it pays 3
    and gains 3 at once."""
    state = table()
    ship(state, "red", "normandy")
    out = send(state, {"red": "parley Normandy"})
    moves = [(e.data["amount"], e.data["why"]) for e in out.events if e.type == "viking.silfr"]
    assert moves[:2] == [(-3, "establishing on Normandy"), (3, "post Normandy")]
    assert out.state["players"]["red"]["silfr"] == 10 - 3 + 3 + 1  # and 1 income (theocracy)


def test_rule_b_journey_a_persistent_ability_adds_a_step() -> None:
    """Standard Actions B: "Move 1 Unexhausted Longship you control up to 3 Steps";
    Persistent abilities: "Persistent abilities of a God, Advocate, or Trade Center on
    which you have a Follower may impact your actions." Four steps from red's home to Birka
    are refused; with Thor (persistent, JOURNEY: +1 step) on red's jarlboard they are taken."""
    path = "journey from home to Gotaland, Baltic Sea, Svealand, Birka"
    state = table()
    assert "a journey is at most 3 steps" in event(send(state, {"red": path}), "refused")["why"]
    state["players"]["red"]["gods"] = [tid("Thor")]
    out = send(state, {"red": path})
    assert "refused" not in types(out)
    assert ships_at(out.state, "birka") == {"red": 1}


def test_rule_c_play_an_immediate_venture_acts_when_established() -> None:
    """Saga Tile Anatomy D, Trigger Icon: "Immediate – one-time ability occurs immediately
    when the Post is Established." Amber Coast (Kurland, immediate: gain 3 silfr) pays red
    3 silfr as it is played onto Grobin."""
    state = table()
    give(state, "red", "Amber Coast")
    ship(state, "red", "grobin")
    out = send(state, {"red": "play Amber Coast"})
    s = out.state
    assert s["posts"]["grobin"] == {"venture": tid("Amber Coast"), "owner": "red",
                                    "followers": 1}
    gains = [e.data["amount"] for e in out.events
             if e.type == "viking.silfr" and e.data["why"] == "tile Amber Coast"]
    assert gains == [3]
    assert s["players"]["red"]["silfr"] == 10 + 3 + 1  # and 1 income: a sweden follower


def test_rule_c_play_a_venture_never_replaces_a_pre_printed_post() -> None:
    """PLAY, Ventures: "Place the Venture onto an empty Post or Replace an existing Venture
    Post (pre-printed Posts can not be Replaced) within the location listed on the tile,
    where you also have a Longship." Red is alone on Birka (a trade center) and on Sigtuna
    (empty), both in Svealand: Shipyard goes onto Sigtuna, and Birka stays a trade center;
    alone on Birka only, red cannot play it."""
    state = table()
    give(state, "red", "Shipyard")  # Svealand, jarldom
    ship(state, "red", "birka")
    out = send(state, {"red": "play Shipyard"})
    assert event(out, "refused")["why"] == (
        "your longships there are alone only on pre-printed posts")
    ship(state, "red", "sigtuna")
    out = send(state, {"red": "play Shipyard"})
    s = out.state
    assert s["posts"]["sigtuna"] == {"venture": tid("Shipyard"), "owner": "red", "followers": 1}
    assert s["posts"]["birka"]["venture"] is None


def test_rule_c_play_an_advocate_replaces_one_when_the_circles_are_full() -> None:
    """PLAY, Advocates: "Place your Advocate onto your Jarlboard in an Advocate circle. You
    may Replace an existing Advocate and return its Follower to your Jarlboard." Red's
    circles hold Skald and Lawspeaker: Huscarl replaces the oldest, Skald, which is
    discarded, and Skald's jarldom follower is back in red's supply."""
    state = table()
    assert DATA.rule("advocate_slots") == 2
    state["players"]["red"]["advocates"] = [tid("Skald"), tid("Lawspeaker")]
    give(state, "red", "Huscarl")  # North, jarldom
    ship(state, "red", "sigtuna")
    out = send(state, {"red": "play Huscarl"})
    s = out.state
    assert s["players"]["red"]["advocates"] == [tid("Lawspeaker"), tid("Huscarl")]
    assert event(out, "replaced") == {"power": "red", "tile": "Skald"}
    assert tid("Skald") in s["discard"]
    jarldom = [p["followers"]["jarldom"] for p in module.view(s, "red")["players"]
               if p["power"] == "red"]
    assert jarldom == [1]


def test_rule_d_activate_exhausts_the_longship_each_time() -> None:
    """ACTIVATE: "Perform the written ability on a Venture Post if you have a Follower and
    an Unexhausted Longship on the Post, then Exhaust that Longship. You may ACTIVATE the
    same Venture several times on the same turn as long as you have another Unexhausted
    Longship on the Post to then Exhaust." Wax Market (gain 2 silfr) with two of red's
    longships on it: activated twice; the third time is refused and spends no action."""
    state = table()
    venture(state, "suvar", "Wax Market", "red")
    ship(state, "red", "suvar", 2)
    out = send(state, {"red": "activate Suvar\nactivate Suvar\nactivate Suvar"})
    assert types(out).count("activated") == 2
    assert event(out, "refused")["why"] == ("you have no unexhausted longship on Suvar: the order "
                                           "\"activate Suvar\" above exhausted it")
    assert out.state["players"]["red"]["silfr"] == 10 + 2 + 2 + 1  # and 1 income (sweden)


def test_rule_d_activate_needs_your_follower_on_the_venture() -> None:
    """ACTIVATE: "Perform the written ability on a Venture Post if you have a Follower and
    an Unexhausted Longship on the Post". Red's longship stands on blue's Wax Market: red
    may not use blue's venture."""
    state = table()
    venture(state, "suvar", "Wax Market", "blue")
    ship(state, "red", "suvar")
    out = send(state, {"red": "activate Suvar"})
    assert event(out, "refused")["why"] == "Suvar is not one of your venture posts"
    assert "activated" not in types(out)
    assert out.state["players"]["red"]["silfr"] == 10
