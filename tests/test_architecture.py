"""The import graph of gm/ has no cycle between its first-level folders (docs/architecture.md).

Every import counts, including those inside functions: an import moved into a
function to dodge a cycle at load time is still a dependency. A top-level module
(gm/clock.py) is a node of its own, like a folder.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

GM = Path(__file__).resolve().parent.parent / "gm"

Graph = dict[str, dict[str, list[str]]]  # folder -> folder it imports -> "file:line module"


def _node(package: Path, path: Path) -> str:
    parts = path.relative_to(package).parts
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(".py")


def _imported(tree: ast.AST, module: list[str]) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``tree`` (``module``: where it is)."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the module's own package upwards
                base = module[:-node.level]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            # ``from gm import service`` imports the folder gm.service itself
            out += [(node.lineno, f"{name}.{alias.name}") for alias in node.names]
    return out


def folder_graph(package: Path) -> Graph:
    """Which first-level folder of ``package`` imports which, with where each import is."""
    name = package.name
    graph: Graph = defaultdict(lambda: defaultdict(list))
    for path in sorted(package.rglob("*.py")):
        src = _node(package, path)
        module = [name, *path.relative_to(package).with_suffix("").parts]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for line, imported in _imported(tree, module):
            parts = imported.split(".")
            if parts[0] != name or len(parts) < 2:
                continue
            dst = parts[1]
            if dst != src and ((package / dst).is_dir() or (package / f"{dst}.py").exists()):
                graph[src][dst].append(f"{path.relative_to(package.parent)}:{line} {imported}")
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected groups of more than one folder (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group: list[str] = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def shortest_cycle(graph: Graph, group: list[str], start: str) -> list[str]:
    """A shortest cycle through ``start`` inside ``group``: ``[start, b, ..., start]``."""
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph.get(v, {})):
            if w == start:
                return paths[v] + [start]
            if w in group and w not in paths:
                paths[w] = paths[v] + [w]
                queue.append(w)
    raise AssertionError(f"{group} is not a cycle")


def explain(graph: Graph, group: list[str]) -> str:
    """Cycles covering ``group``, with the imports that make each step (three at most)."""
    lines: list[str] = []
    covered: set[str] = set()
    for start in group:
        if start in covered:
            continue
        path = shortest_cycle(graph, group, start)
        covered.update(path)
        lines.append(" -> ".join(path))
        for a, b in zip(path, path[1:], strict=False):
            where = graph[a][b]
            lines += [f"  {a} -> {b}: {w}" for w in where[:3]]
            if len(where) > 3:
                lines.append(f"  {a} -> {b}: ... and {len(where) - 3} more")
    return "\n".join(lines)


def _package(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / "pkg" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_no_import_cycle_between_folders_of_gm() -> None:
    graph = folder_graph(GM)
    found = cycles(graph)
    assert not found, "import cycles between folders of gm/:\n" + "\n".join(
        explain(graph, group) for group in found)


def test_the_detector_finds_a_planted_cycle_through_a_function_level_import(
        tmp_path: Path) -> None:
    package = _package(tmp_path, {
        "__init__.py": "",
        "low/__init__.py": "",
        "low/x.py": "def f() -> None:\n    from pkg.high import y\n",
        "high/__init__.py": "",
        "high/y.py": "from ..low.x import f\n",
        "top.py": "import pkg.high.y\n",
    })
    graph = folder_graph(package)
    assert cycles(graph) == [["high", "low"]]
    text = explain(graph, ["high", "low"])
    assert "pkg/low/x.py:2 pkg.high.y" in text
    assert "pkg/high/y.py:1 pkg.low.x.f" in text


def test_the_detector_finds_a_longer_cycle_and_accepts_a_one_way_graph(tmp_path: Path) -> None:
    package = _package(tmp_path, {
        "__init__.py": "",
        "a/__init__.py": "from pkg import b\n",
        "b/__init__.py": "from pkg.c import thing\n",
        "c/__init__.py": "thing = 1\n",
        "d.py": "import pkg.a\n",
    })
    assert cycles(folder_graph(package)) == []
    (package / "c" / "back.py").write_text("import pkg.a\n", encoding="utf-8")
    assert cycles(folder_graph(package)) == [["a", "b", "c"]]
