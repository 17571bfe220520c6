"""Game modules are discovered through the ``gm.games`` entry-point group."""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points

from gm.games.base import GameError, GameModule


class UnknownGame(GameError):
    pass


class ModuleLoadError(GameError):
    pass


@cache
def available() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group="gm.games")}


_extra: dict[str, GameModule] = {}


def register(module: GameModule) -> None:
    """Register a module directly (tests, embedding); entry points are the norm."""
    _extra[module.name] = module


@cache
def _load(name: str) -> GameModule:
    ep = available().get(name)
    if ep is None:
        raise UnknownGame(f"no game module '{name}' (installed: {', '.join(names()) or 'none'})")
    try:
        obj = ep.load()
    except Exception as exc:  # a broken third-party module must not crash gm
        raise ModuleLoadError(f"game module '{name}' failed to load: {exc}") from exc
    module = obj() if isinstance(obj, type) or callable(obj) and not isinstance(obj, GameModule) else obj
    if not isinstance(module, GameModule):
        raise ModuleLoadError(f"entry point '{name}' is not a gm GameModule")
    return module


def get(name: str) -> GameModule:
    if name in _extra:
        return _extra[name]
    return _load(name)


def names() -> list[str]:
    return sorted(set(available()) | set(_extra))
