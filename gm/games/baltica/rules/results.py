"""Why an order (or part of one) was not carried out: a closed vocabulary.

Events carry ``why`` as the member's value; templates word it per language.
"""

from __future__ import annotations

from enum import Enum


class Why(Enum):
    NOT_YET_IMPLEMENTED = "not yet implemented"
    NO_ACTIONS_LEFT = "no actions left"
    NOT_YOURS = "not your block"
    NOT_THERE = "not in that territory"
    NOT_ON_MAP = "not on the map"
    NOT_A_TERRITORY = "not a land territory"
    FLEETS_NOT_YET = "fleet movement is not yet implemented"
    ALREADY_MOVED = "already moved this turn (4.1)"
    PINNED = "pinned (4.3)"
    PINNERS_BORDER = "cannot leave across a border used by pinning blocks (4.3)"
    NO_BORDER = "no land border (1.0)"
    PROHIBITED = "territory of an inactive nation (4.5)"
    BORDER_FULL = "border limit reached (4.2)"
    MUST_STOP_DIFFICULT = "must stop after a difficult terrain border (4.2)"
    MUST_STOP_ENEMY = "must stop on entering enemy blocks (4.1)"
    NO_PATH = "no legal path"
    FORCE_NEEDED = "too far for the movement rating: add force (4.4)"
    TOO_FAR = "too far even force-marching (4.4)"
    NOT_ADJACENT = "not adjacent to a friendly army or regiment (3.3)"
    NO_ENEMY_BLOCKS = "no enemy blocks there"
    NOT_ENEMY_GARRISON = "the garrison is not the enemy's (6.1)"
    MIXED_NATIONS = "blocks of different nations cannot siege together (6.2)"
    REGIMENTS_EXCLUDED = "regiments cannot siege a garrison of 2 or more (6.2)"
    ALREADY_BESIEGED = "a siege is already declared there"
    FULL_STRENGTH = "already at full strength"
    NO_LINE = "no line of communications (8.5)"
    IN_BATTLE = "in a battle territory (8.3)"
    NOT_IN_BATTLE = "not in a battle"
    NOT_FRIENDLY = "not a friendly or transit territory free of enemy blocks (5.6)"
    BORDER_NOT_ALLOWED = "that border may not be used to retreat (5.6)"
    TOO_FAR_TO_RETREAT = "beyond the block's movement rating (5.6)"
    NOT_WINNER = "only the winner regroups (5.7)"
    CONDITION_FALSE = "condition not met"
