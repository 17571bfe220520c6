"""Drawing each game's opening maps once before the first real one (issue 21).

A drawing process's first maps cost far more than the next: the board's layout read, the
fonts loaded, the names' text rasters drawn and kept (gm.maps.raster), the routes
worked out (gm.maps.route); a fresh worker's first two Pax Baltica maps took 0.6 s and
0.2 s of CPU on a quiet machine, the next ones ~30 ms. The drawing pool's forkserver
(gm.pipeline.drawpool) imports this module, which draws the opening position of every
installed game with a map (its first scenario, each power's view and the moderator's,
English words) and throws the pictures away: every worker is then forked with those caches
filled, instead of filling them itself inside the first storm.

Importing it draws; nothing raises out of it (a game whose map cannot be drawn is skipped:
a forkserver that failed to start would leave the pool drawing in-process).

Then it freezes what the forkserver holds (``gc.freeze``, as the Python documentation advises
before forking): a worker's garbage collections never walk those objects, so the pages they
sit on stay shared with the forkserver instead of being copied into every worker the first
time a collection touches them (issue 21: a worker's own memory after drawing 240 reports,
PSS 84-86 -> 65-67 MB, private dirty pages 67-71 -> 38-43 MB).
"""

from __future__ import annotations

import gc
import logging

log = logging.getLogger(__name__)


def warm() -> int:
    """Draw (SVG, then PNG) every installed game's opening maps; how many were drawn."""
    from gm.games import registry

    drawn = 0
    for name in registry.names():
        try:
            drawn += _warm_game(registry.get(name))
        except Exception:  # a head start only: that game's first maps are drawn cold
            log.warning("the opening maps of %s were not drawn ahead", name, exc_info=True)
    return drawn


def _warm_game(module: object) -> int:
    from gm.games.base import GameModule, map_view
    from gm.maps.draw import png_from_svg, svg_from_source
    from gm.maps.source import MapSource
    from gm.service.mapwords import map_words

    if not isinstance(module, GameModule) or module.map_layout() is None:
        return 0
    scenario = module.scenarios()[0]
    state = module.setup(scenario.id, {})
    drawn = 0
    for power in (*scenario.powers, None):
        words = map_words("en", module.name, game_title=module.title, game_id="warm-up",
                          power=power or "", power_name=power or "", phase="", deadline=None,
                          timezone="UTC", ended=False)
        source = MapSource(module.name, map_view(module.view(state, power)), [], words).to_bytes()
        png_from_svg(svg_from_source(source))
        drawn += 1
    return drawn


try:
    DRAWN = warm()
except Exception:  # never out of an import (the forkserver's)
    log.warning("no map drawn ahead", exc_info=True)
    DRAWN = 0
gc.freeze()  # what the forkserver holds now, shared by every worker forked from it
