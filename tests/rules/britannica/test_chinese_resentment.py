"""Seed 003, Chinese Resentment."""

from __future__ import annotations

from britannica_helpers import set_up

from gm.dice import Dice
from gm.games.britannica.data import load
from gm.games.britannica.turn import chinese_resentment, rebellion_occurs
from gm.games.britannica.war.empires import end_chinese


def test_rule_chinese_resentment_cri_124_roll_11_or_less_rebels() -> None:
    """"For example If the CRI is at 124, a roll of 11 or less will activate a Chinese rebellion."""
    assert rebellion_occurs(124, 11)
    assert rebellion_occurs(124, 3)
    assert not rebellion_occurs(124, 12)


def test_rule_chinese_resentment_phase_rolls_three_dice() -> None:
    """"the GM rolls three dice. If the total on the three dice is less than the number in the
    10's portion of the Chinese Resentment Index, a Chinese Rebellion will occur"."""
    s = set_up()
    s["markers"] = {}
    s["cri"] = 124
    dice = Dice.scripted([4, 4, 3])
    events = chinese_resentment(load(), s, dice)
    assert len(dice.rolls) == 3
    assert events[0].data["roll"] == 11 and events[0].data["rebellion"] is True


def test_rule_ending_a_chinese_rebellion_the_index_becomes_zero() -> None:
    """Ending a Chinese Rebellion: if it succeeds, "the Chinese Resentment Index is reduced to
    zero"; if the colonial Powers win, "The Chinese Resentment Index becomes zero." (then rises
    only for the markers placed in ceded areas: none here)."""
    for outcome in (0, 1):
        s = set_up()
        s["cri"] = 190
        events = end_chinese(load(), s, outcome, [])
        assert s["cri"] == 0, outcome
        assert [e.data["amount"] for e in events if e.type == "resentment"] == [-190]
