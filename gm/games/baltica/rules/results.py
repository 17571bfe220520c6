"""Why an order (or part of one) was not carried out: a closed vocabulary.

Events carry ``why`` as the member's value (English) and ``code`` as its name;
replies and report templates say it in the reader's language from the catalogue
``gm/locale/<language>.toml`` (the ``say`` filter), like any message of the code.
"""

from __future__ import annotations

from enum import Enum

from gm.i18n import vocabulary


@vocabulary
class Why(Enum):
    NOT_YET_IMPLEMENTED = "not yet implemented"
    NO_ACTIONS_LEFT = "no actions left"
    NOT_YOURS = "not your block"
    NOT_THERE = "not in that territory"
    NOT_ON_MAP = "not on the map"
    NOT_A_TERRITORY = "not a land territory"
    FLEET_SAILS = "fleets move with sail (9.1)"
    ABOARD = "blocks at sea move by land orders (9.2)"
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
    AT_SEA = "at sea or not in a harbor (8.3)"
    NOT_MAJOR = "not a major nation you control (3.3)"
    POLITICS_USED = "national politics already chosen for this nation this year (3.3)"
    NOT_ACTIVE = "the nation is not at war (10.1)"
    MISTRUST = "Coalition mistrust: blocks of different colours may not move or attack together (12.2)"
    OPPONENT_ONLY = "given by the other player during your action phase"
    BRITISH_FLEET = "Russian fleets may not enter the British fleet's sea zone (11.11)"
    NOT_A_HARBOR = "fleets enter only harbors (9.1)"
    ENEMY_HARBOR = "fleets may not enter enemy-controlled harbors (9.1)"
    NOT_A_SEA = "not a sea zone"
    MUST_STOP_ENEMY_FLEET = "must stop on entering enemy fleets (9.1)"
    NOT_A_FLEET = "not a fleet"
    TOO_FAR_AT_SEA = "beyond the fleet's movement (9.1)"
    HARBOR_EXIT = "leaving a harbor is a whole action, into its own sea zone (9.1)"
    CARGO_IN_HARBOR = "land the blocks aboard before entering a harbor"
    NOT_FRIENDLY_PORT = "blocks embark only from a friendly port (9.2)"
    ENEMY_FLEET_PRESENT = "no loading or unloading with enemy fleets in the sea zone (9.2)"
    NO_FLEET_THERE = "the fleet is not at sea off that port"
    NO_ROOM = "a fleet carries one army or two regiments (9.2)"
    NO_PORT_ON_SEA = "blocks land only through a port on that sea zone (9.2)"
    NOT_ABOARD = "not aboard a fleet in that sea zone"
    NOT_FRIENDLY_HARBOR = "a retreating fleet goes to a friendly harbor (9.3)"
    NO_TRUCE_OFFER = "Sweden, Ukraine and Poland never offer a truce (10.2)"
    NOT_YOUR_NATION_AT_WAR = "not a nation of yours at war (10.2)"
    WINTER_WITH_KARL = "a winter campaign moves or besieges with Karl XII, from where he stands (3.4)"
    SWEDEN_ONLY = "only Sweden goes on a winter campaign (3.4)"
