"""Maps of the board as one power may know it: a game's view becomes a :class:`Scene`
(what to draw), a layout file says where each area sits, one renderer draws any game.

* ``scene.py``: the drawing as data (areas, pieces, links, arrows, marks);
* ``layout.py``: ``gm/games/<game>/data/map_layout.toml`` (schematic coordinates);
* ``svg.py``: Scene + Layout -> SVG text; ``raster.py``: SVG -> PNG;
* ``baltica.py``, ``britannica.py``: each game's view (never its full state) as a Scene.

See docs/reports.md.
"""
