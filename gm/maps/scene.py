"""What a map shows, as data: built from a power's view, drawn by gm.maps.svg."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Area:
    """A territory, sea zone or off-map box; ``owner`` is a palette key (its controller)."""

    id: str
    label: str
    kind: str = "land"  # land | sea | box
    owner: str | None = None
    note: str = ""  # e.g. the garrison: "Malmö 3"
    marks: list[str] = field(default_factory=list)  # battle | siege | recon | captured


@dataclass
class Piece:
    """A block or unit, or a group of unknown enemy blocks (``kind="hidden"``, only a count)."""

    area: str
    owner: str  # palette key
    kind: str = "own"  # own | revealed | hidden | public
    label: str = ""  # a name; never set for hidden pieces
    detail: str = ""  # strength ("3/4"); never set for hidden pieces
    count: int = 1
    fleet: bool = False


@dataclass
class Link:
    """A border or a sea lane between two areas."""

    a: str
    b: str
    style: str = "land"  # land | difficult | blocked | sea | impassable (drawn, never crossed)


@dataclass
class Arrow:
    """A move this phase, through the areas of ``path`` (the first is the origin)."""

    path: list[str]
    owner: str
    style: str = "move"  # move | retreat


@dataclass
class Scene:
    title: str = ""
    subtitle: str = ""  # the phase and the deadline
    areas: dict[str, Area] = field(default_factory=dict)
    pieces: list[Piece] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    arrows: list[Arrow] = field(default_factory=list)
    palette: dict[str, str] = field(default_factory=dict)  # owner key -> colour name or #hex
    legend: list[tuple[str, str]] = field(default_factory=list)  # (owner key, label)
    words: dict[str, str] = field(default_factory=dict)  # legend words in the reader's language
