"""Pax Baltica (GMT 2012): the engine, its orders, its fog; ``module`` is the plug-in."""
