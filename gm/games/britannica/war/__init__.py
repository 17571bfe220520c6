"""War (seed, War; The War Sequence; Combat during a War; Supply; Ending a War).

By mail (seed, email procedure i-ix) each round of a war takes two phases:

* ``war-first``: the First Alliance sends moves (one step each, ``move army 3
  from A to B``), attacks (``attack in AREA`` / ``attack fleet in ZONE``) and
  standing retreat orders (``retreat army from A to B``); the GM then resolves
  its attacks and its own retreats.
* ``war-second``: the Second Alliance retreats from those attacks, the First
  Alliance's supply is checked, the Second Alliance moves and attacks, both
  alliances retreat (orders from this phase, else the standing ones, else the
  seed's default lists), the Second Alliance's supply is checked, tensions rise
  by 2, and the war-end conditions are tested. ``peace`` from every combatant
  in the same ``war-second`` phase ends the war by agreement.

Initiative is rolled each round (Chinese and unallied Ottoman Empire always
first). The GM moves the Chinese and Ottoman armies (towards the nearest enemy
army, attacking whatever the odds) and every minor power (holding; attacking at
3:2 or better, always joining a Great Power ally's attack in its area). Wars of
one turn are fought one after another: a Chinese rebellion, then the Ottoman
war, then the declared wars in the order declared.

Modules, one per part of the rulebook: ``sides`` (who is who), ``declarations``
(declaring war, support, unused Casus Belli), ``manoeuvre`` (movement, Coaling Rights),
``attack`` (combat, conquered areas), ``retreat``, ``surrender`` (supply and surrendered
units), ``empires`` (Chinese rebellion, Ottoman war), ``ending`` (War End Determination,
Resolution) and ``rounds`` (the two mail phases of a round).
"""

from gm.games.britannica.war.declarations import declarations, declare_mid_war, settle_unused
from gm.games.britannica.war.ending import ended, resolution
from gm.games.britannica.war.geography import offers
from gm.games.britannica.war.manoeuvre import adjacent, coaling, controlled_by, may_move
from gm.games.britannica.war.retreat import default_retreat, retreat
from gm.games.britannica.war.rounds import first_part, second_part, start_round
from gm.games.britannica.war.sides import (
           combatants,
           gm_controlled,
           minor_controller,
           phase_seats,
           side_of,
           side_seats,
)
from gm.games.britannica.war.surrender import supply

__all__ = ["adjacent", "coaling", "combatants", "controlled_by", "declarations", "default_retreat",
           "declare_mid_war", "ended", "first_part", "offers", "gm_controlled", "may_move", "minor_controller", "phase_seats", "resolution", "retreat",
           "second_part", "settle_unused", "side_of", "side_seats", "start_round", "supply"]
