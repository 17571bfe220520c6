"""The trade examples of Standard Actions B, played by mail as proposals."""

from __future__ import annotations

from viking_tables import (
    event,
    give,
    hold,
    orders,
    send,
    ship,
    ships_at,
    table,
    tid,
    types,
    venture,
)

from gm.games.viking import module


def test_trade_example_bribery() -> None:
    """Bribery: "Ingvar moves a Longship into Edla's Post. Ingvar offers Edla 3 Silfr to
    exchange Edla's Follower and Longship in that Post for Ingvar's. ... Edla agrees."
    (Ingvar is red, Edla blue.)"""
    state = table()
    venture(state, "lyubsha", "Fur Traders", "blue")
    ship(state, "blue", "lyubsha")
    ship(state, "red", "ladoga")
    out = send(state, {"red": "journey from Ladoga to Lyubsha\n"
                              "offer blue: give 3 silfr for follower at Lyubsha, "
                              "longship at Lyubsha\n"
                              "invest draw"})
    s = out.state
    assert module.phase(s).kind == "trade" and module.phase(s).owing == ("blue",)
    proposal = [e for e in out.events if e.type == "viking.trade_proposed"][0]
    assert proposal.visible_to == frozenset({"red", "blue"})
    assert module.view(s, "green")["trade"] == {"from": "red", "to": "blue", "number": 1,
                                                "counters": 0}
    out = send(s, {"blue": "accept"})
    s = out.state
    assert s["posts"]["lyubsha"]["owner"] == "red"
    assert ships_at(s, "lyubsha") == {"red": 2}
    assert s["players"]["red"]["silfr"] == 7 + 1  # and 1 income: a rus follower
    assert s["players"]["blue"]["silfr"] == 13
    # the turn goes on with red's next order, then the winter solstice
    assert "drew" in types(out) and module.phase(s).id == "round-1-blue"


def test_trade_example_haggling() -> None:
    """Haggling: "Sigrid grabs a 12 cost tile ... Sigrid then moves a Longship so she is
    Colocated with Ingvar and offers it for 5 Silfr. Ingvar instead offers a tile Sigrid
    is marginally interested in, plus 2 Silfr. Sigrid agrees." (Sigrid red, Ingvar blue.)"""
    state = table()
    give(state, "red", "Odin")
    give(state, "blue", "Skald")
    ship(state, "blue", "ilmen")
    ship(state, "red", "ladoga")
    out = send(state, {"red": "journey from Ladoga to Holmgard\n"
                              "offer blue: give tile Odin for 5 silfr"})
    out = send(out.state, {"blue": "counter: give tile Skald, 2 silfr for tile Odin"})
    s = out.state
    assert module.phase(s).owing == ("red",) and "trade_countered" in types(out)
    out = send(s, {"red": "accept"})
    s = out.state
    assert s["players"]["red"]["hand"] == [tid("Skald")]
    assert s["players"]["blue"]["hand"] == [tid("Odin")]
    assert s["players"]["red"]["silfr"] == 12  # no follower placed: no income
    done = {k: v for k, v in event(out, "trade_done").items() if not k.endswith("_msg")}
    assert done == {"power": "blue", "rival": "red", "give": ["a saga tile", "2 silfr"],
                    "get": ["a saga tile"], "gives_nothing": False}


def test_trade_example_extortion() -> None:
    """Extortion: "Ingvar has his fleet of three Dublin ships in the German Ocean, which is
    Colocated with Harald's Post in Normandy. Ingvar promises Harald he will not attack
    Normandy as long as Harald pays him a Silfr every turn. Harald agrees, and Ingvar
    JOURNEYS south instead." (Ingvar red holds Dublin, Harald blue holds Normandy.)"""
    state = table()
    hold(state, "dublin", "red")
    hold(state, "normandy", "blue")
    out = send(state, {"red": "journey from German Ocean to Skagerrak\n"
                              'offer blue: give promise "no raid on Normandy" for 1 silfr'})
    # colocated where it stands: the trade comes before the first step
    assert "journey" not in types(out)
    out = send(out.state, {"blue": "accept"})
    s = out.state
    assert event(out, "trade_done")["give"] == ['promise "no raid on Normandy"']
    assert types(out).index("trade_done") < types(out).index("journey")
    assert event(out, "journey")["fleet"] == "Dublin"
    assert event(out, "journey")["path"] == ["Skagerrak"]
    assert s["players"]["blue"]["silfr"] == 9
    assert s["posts"]["normandy"]["owner"] == "blue"


def test_an_unanswered_offer_is_refused_and_the_turn_goes_on() -> None:
    state = table()
    ship(state, "blue", "ilmen")
    ship(state, "red", "ladoga")
    out = send(state, {"red": "journey from Ladoga to Holmgard\n"
                              "offer blue: give 2 silfr for nothing\ninvest draw"})
    assert module.default_orders(out.state, "blue") != []
    out = module.adjudicate(out.state, {"blue": module.default_orders(out.state, "blue")},
                            __import__("gm.dice", fromlist=["Dice"]).Dice.scripted([]))
    assert "trade_refused" in types(out) and "drew" in types(out)
    assert out.state["players"]["red"]["silfr"] == 10


def test_an_offer_needs_a_colocated_rival() -> None:
    state = table()
    ship(state, "blue", "black_sea")
    ship(state, "red", "ladoga")
    out = send(state, {"red": "journey from Ladoga to Holmgard\noffer blue: give 1 silfr "
                              "for nothing"})
    assert "never colocated with blue" in event(out, "refused")["why"]
    assert module.phase(out.state).kind == "turn"


def test_rule_b_journey_trade_happens_mid_journey() -> None:
    """JOURNEY: "Move 1 Unexhausted Longship ... up to 3 Steps then Exhaust with the
    option to Trade before or after any step if Colocated with a Rival." The offer
    stops the longship at the step where it is colocated; the rest of the journey
    follows the answer, then the longship is exhausted."""
    state = table()
    ship(state, "blue", "gorodische")  # in Holmgard: colocated there only
    ship(state, "red", "ladoga")
    out = send(state, {"red": "journey from Ladoga to Holmgard, Ilmen\n"
                              "offer blue: give 2 silfr for nothing\ninvest draw"})
    s = out.state
    assert module.phase(s).kind == "trade"
    assert event(out, "journey")["path"] == ["Holmgard"]
    red = [sh for sh in s["ships"] if sh["owner"] == "red"][0]
    assert red["at"] == "holmgard" and not red["exhausted"]
    out = send(s, {"blue": "accept"})
    s = out.state
    order = types(out)
    assert order.index("trade_done") < order.index("journey") < order.index("drew")
    assert event(out, "journey") == {"power": "red", "start": "Holmgard", "path": ["Ilmen"],
                                     "fleet": ""}
    red = [sh for sh in s["ships"] if sh["owner"] == "red"][0]
    assert red["at"] == "ilmen" and "journeying" not in red
    assert s["players"]["blue"]["silfr"] == 12


def test_rule_b_journey_trade_at_a_named_step() -> None:
    """An offer may name the step of the journey where it is made (``offer blue at
    PLACE``); the place must be on the rest of the journey and colocated there."""
    state = table()
    ship(state, "blue", "holmgard")
    ship(state, "red", "ladoga")
    out = send(state, {"red": "journey from Ladoga to Holmgard, Smolensk\n"
                              "offer blue at Smolensk: give 1 silfr for nothing"})
    assert "not colocated with blue" in event(out, "refused")["why"]
    # the journey went on to its end all the same
    assert [sh["at"] for sh in out.state["ships"] if sh["owner"] == "red"] == ["smolensk"]
    out = send(state, {"red": "journey from Ladoga to Holmgard, Smolensk\n"
                              "offer blue at Svir: give 1 silfr for nothing"})
    assert "not on the rest of your journey" in event(out, "refused")["why"]
    out = send(state, {"red": "journey from Ladoga to Holmgard, Smolensk\n"
                              "offer blue at Holmgard: give 1 silfr for nothing"})
    assert module.phase(out.state).kind == "trade"


def test_rule_b_two_trades_on_one_journey() -> None:
    """Trade "before or after any step": two offers on one journey, each where its
    rival is colocated, in the order written."""
    state = table()
    ship(state, "blue", "ladoga")
    ship(state, "green", "holmgard")
    ship(state, "red", "ladoga")
    out = send(state, {"red": "journey from Ladoga to Holmgard, Ilmen\n"
                              "offer blue: give 1 silfr for nothing\n"
                              "offer green: give 1 silfr for nothing"})
    assert "journey" not in types(out) and module.phase(out.state).owing == ("blue",)
    out = send(out.state, {"blue": "refuse"})
    assert event(out, "journey")["path"] == ["Holmgard"]
    assert module.phase(out.state).owing == ("green",)
    out = send(out.state, {"green": "accept"})
    assert event(out, "journey")["path"] == ["Ilmen"]
    assert out.state["players"]["green"]["silfr"] == 11


def test_all_information_public_shows_every_hand_and_every_trade() -> None:
    """Key Concepts, Public and Private Information: "for a game with more strategy and
    negotiation, consider making all information public" (setting open_information):
    every hand is in every view, a third player sees the offer's items and the tile
    traded, and may name a rival's tile in its orders."""
    state = table(open_information=True)
    give(state, "red", "Odin")
    give(state, "blue", "Skald")
    ship(state, "blue", "ilmen")
    ship(state, "red", "ladoga")
    green = module.view(state, "green")
    assert [t["name"] for p in green["players"] for t in p["hand"]] == ["Odin", "Skald"]
    out = send(state, {"red": "journey from Ladoga to Holmgard\n"
                              "offer blue: give tile Odin for tile Skald"})
    proposed = next(e for e in out.events if e.type == "viking.trade_proposed")
    assert proposed.visible_to is None
    assert module.view(out.state, "green")["trade"]["give"] == ["tile Odin"]
    out = send(out.state, {"blue": "accept"})
    assert event(out, "trade_done")["give"] == ["tile Odin"]
    assert "trade_tiles" not in types(out)
    [o] = orders(out.state, "green", "offer red: give 1 silfr for tile Skald")
    assert o.get[0].value == "Skald"  # red holds Skald now, and everyone knows it


def test_fog_a_player_sees_its_own_hand_and_only_the_size_of_the_others() -> None:
    """Key Concepts, Public and Private Information: "All information in the game is public
    except Saga Tiles in your hand." Green sees how many tiles red and blue hold, never
    which; a tile red draws is told to red alone."""
    state = table()
    give(state, "red", "Odin")
    give(state, "blue", "Skald")
    green = module.view(state, "green")
    assert [(p["power"], p["hand_size"]) for p in green["players"]] == [
        ("red", 1), ("blue", 1), ("green", 0)]
    assert [p["power"] for p in green["players"] if "hand" in p] == ["green"]
    red = module.view(state, "red")
    assert [t["name"] for t in red["hand"]] == ["Odin"]
    assert [p["power"] for p in red["players"] if "hand" in p] == ["red"]
    out = send(state, {"red": "invest draw"})
    drawn = next(e for e in out.events if e.type == "viking.drew_tile")
    assert drawn.visible_to == frozenset({"red"})
    assert next(e for e in out.events if e.type == "viking.drew").visible_to is None  # that red drew
