"""Pax Baltica rules as pure functions over a :class:`~.world.World`, one module per rule section."""
