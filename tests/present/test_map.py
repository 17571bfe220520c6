"""The report map: drawn from the power's view only, as SVG (attached) and PNG (inline).

The fog property of tests/games/baltica/test_fog_reports.py, extended to the picture:
several seeded 12.1 games are played with random orders; after every close the map each
player receives must show exactly the blocks the view gives (own blocks with name and
strength, revealed ones, the rest as counts) and name no other enemy block anywhere.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import random
import xml.etree.ElementTree as ET
from collections import Counter
from email.message import EmailMessage
from itertools import combinations

import pytest

from gm.db.engine import session_scope
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.state import OFF_MAP, GameState
from gm.mail.file_sink import FileSink
from gm.maps.layout import check_layout, load_layout
from gm.pipeline.dispatch import drain
from gm.service.games import current_phase
from tests.games.baltica.test_fog_reports import (
    ADDRESS,
    BOARD,
    ENEMY,
    TEXT_CHECKED,
    mentions,
    random_orders,
    side_of,
)
from tests.present.support import (
    drain_while_ticking,
    mails,
    new_baltica,
    parts,
    play,
    sent,
    sent_svg,
)

MODULE = BalticaModule()
SVG = "{http://www.w3.org/2000/svg}"


def chips(svg: str) -> list[dict[str, str]]:
    root = ET.fromstring(svg.encode())
    return [dict(g.attrib) for g in root.iter(f"{SVG}g") if "data-kind" in g.attrib]


def test_layout_places_every_area_once_without_overlap() -> None:
    import tomllib

    path = MODULE.map_layout()
    assert path is not None and path.name == "map_layout.toml"
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    assert check_layout(raw, set(BOARD.territories) | set(BOARD.seas)) == []
    assert all("reconstructed" in a["source"] for a in raw["area"].values())
    layout = load_layout(path)
    for a, b in combinations(layout.positions, 2):
        (ax, ay), (bx, by) = layout.positions[a], layout.positions[b]
        assert abs(ax - bx) >= layout.box[0] or abs(ay - by) >= layout.box[1], (a, b)


def assert_map_is_the_view(svg: str, state: dict, power: str) -> None:  # type: ignore[type-arg]
    view = MODULE.view(state, power)
    shown = chips(svg)
    named = Counter((c["data-kind"], c["data-block"], c.get("data-strength", "")) for c in shown
                    if c["data-kind"] != "hidden")
    expected = Counter(("own", b["name"], f"{b['strength']}/{b['max']}") for b in view["own_blocks"])
    expected += Counter(("revealed", b["name"], str(b["strength"])) for b in view["revealed"])
    more = sum(int(g.get("data-more", 0)) for g in ET.fromstring(svg.encode()).iter(f"{SVG}g"))
    assert named <= expected and sum((expected - named).values()) <= more, (named, expected)
    hidden: Counter[tuple[str, str]] = Counter()
    for c in shown:
        if c["data-kind"] == "hidden":
            hidden[(c["data-area"], c["data-owner"])] += int(c["data-count"])
    told: Counter[tuple[str, str]] = Counter()
    for g in view["enemy_blocks"]:  # fleets and ground blocks of a nation are separate groups
        told[(g["location"], g["nation"])] += g["count"]
    for key, n in hidden.items():
        assert n <= told[key], (key, n, told[key])  # fewer only behind "+n more"
    assert all("data-block" not in c for c in shown if c["data-kind"] == "hidden")
    # against the full state: no hidden enemy block by name, anywhere in the file
    gs = GameState.from_json(state)
    allowed = {b["name"] for b in view["revealed"]}
    for b, bs in gs.blocks.items():
        name = BOARD.blocks[b].name
        if side_of(b) == ENEMY[power] and b in TEXT_CHECKED and name not in allowed:
            assert not mentions(svg, name), f"{power}'s map names hidden {name}"
            assert not any(c.get("data-block") == name for c in shown)
        if side_of(b) == power and bs.location not in OFF_MAP:
            assert any(c.get("data-block") == name for c in shown) or more


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_map_shows_the_view_and_no_hidden_enemy_block(tmp_path, seed: int) -> None:  # type: ignore[no-untyped-def]
    from gm.clock import FakeClock
    from gm.db.engine import make_engine, sqlite_url
    from gm.db.migrate import upgrade
    from gm.service.context import ServiceContext

    engine = make_engine(sqlite_url(tmp_path / "gm.db"))
    upgrade(engine)
    ctx = ServiceContext(engine=engine, clock=FakeClock(), instance="test",
                         settings={"address": "gm@example.org"})
    rng = random.Random(seed)
    new_baltica(ctx, "fog")
    checked = 0
    for _ in range(8):
        with session_scope(ctx.engine) as s:
            phase = current_phase(s, "fog")
            orders = {p: random_orders(rng, phase.game_state or {}, p) for p in ADDRESS}
        play(ctx, "fog", 1, orders)
        with session_scope(ctx.engine) as s:
            state = current_phase(s, "fog").game_state or {}
        for power, address in (("sweden", "karl@example.org"), ("coalition", "pyotr@example.org")):
            _, msg = mails(ctx, kind="report", to=address)[-1]
            svg = sent_svg(msg)
            assert_map_is_the_view(svg, state, power)
            checked += 1
    engine.dispose()
    assert checked == 16


def test_png_is_drawn_before_sending_and_the_mail_keeps_its_id(ctx, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The map is drawn when the mail is sent, not stored: the outbox keeps the report as
    queued, and what was sent is drawn again from it byte for byte (issue 21)."""
    from gm.pipeline.drawpool import finish_raw

    new_baltica(ctx)
    play(ctx, "b1", 1, {"sweden": ["move from Skåne: Karl XII to Småland"]})
    before = {r.id: r.message_id for r, _ in mails(ctx)}
    row, msg = mails(ctx, kind="report", to="karl@example.org")[-1]
    p = parts(msg)
    (cid, png), = p["inline"].items()
    assert png.get_content_type() == "image/png" and png.get_content() == b"", "drawn when sent"
    assert f'src="cid:{cid}"' in p["html"]
    sink = FileSink(tmp_path / "out")
    sent = asyncio.run(drain(ctx, sink))
    assert sent == len(before)
    after = {r.id: (r.message_id, r.raw, r.status) for r, _ in mails(ctx)}
    assert {i: m for i, (m, _, _) in after.items()} == before, "no new Message-ID"
    files = sorted((tmp_path / "out").rglob("*"))
    on_disk = [f.read_bytes() for f in files if f.is_file()]
    sent_bytes = [d for d in on_disk if row.message_id.encode() in d]
    assert len(sent_bytes) == 1, "the report was sent once"
    finished = email.message_from_bytes(sent_bytes[0], policy=email.policy.default)
    assert isinstance(finished, EmailMessage)
    png = next(iter(parts(finished)["inline"].values())).get_content()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000
    stored = after[row.id][1]
    assert stored == row.raw, "the outbox keeps the report as it was queued"
    assert sent_bytes[0].endswith(finish_raw(stored)), "what was sent is drawn again from it, byte for byte"
    assert len(stored) * 4 < len(finish_raw(stored)), "the drawn map is not stored"
    assert asyncio.run(drain(ctx, sink)) == 0, "nothing is sent twice"


def test_the_map_is_drawn_from_the_view_when_sent_and_its_source_never_leaves(ctx, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 21: closing a phase queues the report with what its map is drawn from (the
    power's view, the events it may see, its words) instead of drawing it; the drain draws
    the SVG and the PNG before the first send and the source part is not sent."""
    import email
    import json
    from email.policy import default

    new_baltica(ctx)
    play(ctx, "b1", 1, {"sweden": ["move from Skåne: Karl XII to Småland"]})
    with session_scope(ctx.engine) as s:
        state = current_phase(s, "b1").game_state or {}
    row, msg = mails(ctx, kind="report", to="karl@example.org")[-1]
    queued = parts(msg)
    assert queued["files"]["map.svg"].get_content() == b"", "not drawn while closing the phase"
    source = json.loads(queued["files"]["map.json"].get_content())
    assert source["game"] == "baltica"
    assert source["view"] == json.loads(json.dumps(MODULE.view(state, "sweden"), default=str))
    assert asyncio.run(drain(ctx, FileSink(tmp_path / "out"))) > 0
    out = [email.message_from_bytes(f.read_bytes(), policy=default)
           for f in sorted((tmp_path / "out").rglob("*")) if f.is_file()]
    left = [m for m in out if m["Message-ID"] == row.message_id]
    assert len(left) == 1
    p = parts(left[0])
    assert "map.json" not in p["files"] and all("map.json" not in (x.get_filename() or "")
                                                for x in left[0].walk())
    svg = p["files"]["map.svg"].get_content().decode()
    assert svg.startswith("<?xml") and svg == sent_svg(msg)
    assert_map_is_the_view(svg, state, "sweden")
    (png,) = p["inline"].values()
    assert png.get_content().startswith(b"\x89PNG")


def test_the_moderators_map_source_leaves_out_the_whole_state_and_draws_the_same_map(ctx) -> None:  # type: ignore[no-untyped-def]
    """Issue 21: the moderator's view carries the whole state (FULL_STATE), which no map
    draws; the report's map source leaves it out (half of that mail's source) and the
    moderator's map is the one drawn from the whole view."""
    import json

    from gm.games.base import FULL_STATE
    from gm.maps.draw import svg_from_source
    from gm.maps.source import MapSource

    new_baltica(ctx)
    play(ctx, "b1", 1, {"sweden": ["move from Skåne: Karl XII to Småland"]})
    with session_scope(ctx.engine) as s:
        state = current_phase(s, "b1").game_state or {}
    _, msg = mails(ctx, kind="report", to="mod@example.org")[-1]
    queued = parts(msg)["files"]["map.json"].get_content()
    source = MapSource.from_bytes(queued)
    assert source.view["power"] is None and FULL_STATE not in source.view
    whole = MapSource(source.game, MODULE.view(state, None), source.events, source.words)
    assert whole.view[FULL_STATE] == state
    assert svg_from_source(whole.to_bytes()) == svg_from_source(queued)
    assert len(json.dumps(source.view)) > 1000


def test_drawing_a_map_never_holds_up_the_daemons_event_loop(ctx, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A report's PNG is drawn when it is first sent; while it is drawn (a few tenths of a
    second each) the daemon must go on fetching and answering mail: the drawing runs in a
    worker thread, and a task on the loop keeps running meanwhile. Drawn in-process
    (``draw_workers = 0``), where the drawing shares the daemon's process; the pool's own
    test is tests/pipeline/test_draw_pool.py."""
    import time

    from gm.service import outbox

    ctx.settings["draw_workers"] = 0
    new_baltica(ctx)
    drawn: list[float] = []

    def slow_png(data: bytes) -> bytes:
        time.sleep(0.2)
        drawn.append(time.monotonic())
        return b"\x89PNG\r\n\x1a\n"

    monkeypatch.setitem(outbox.RENDERERS, ("image/svg+xml", "image/png"), slow_png)

    sent, ticks = drain_while_ticking(ctx, FileSink(tmp_path / "out"))
    assert sent > 0 and len(drawn) >= 2, "the reports' maps were drawn while sending"
    # Blocked, the ticker runs at most once per mail; free, about every 10 ms of drawing.
    assert ticks > 3 * len(drawn)


def test_map_words_follow_the_seat_language(ctx) -> None:  # type: ignore[no-untyped-def]
    new_baltica(ctx)
    row, _ = mails(ctx, kind="report", to="pyotr@example.org")[0]
    svg = parts(sent(row))["files"]["map.svg"].get_content().decode()
    assert "partie b1" in svg and "date limite" in svg and "Europe/Paris" not in svg


def test_britannica_layout_leaves_room_for_the_units_under_every_home_country() -> None:
    """Europe's home countries carry the most unit chips (CHIPS_SHOWN, then "+n more");
    no box, nor the chips under it, may cover another area of the world map."""
    from gm.games.britannica.data import load
    from gm.games.registry import get
    from gm.maps.svg import CHIP_H, CHIPS_SHOWN

    d = load()
    path = get("britannica").map_layout()
    assert path is not None
    layout = load_layout(path)
    homes = {str(d.home(p)) for p in (*d.great_powers, *d.minor_powers)}
    seas = set(d.seas)

    def rect(area: str) -> tuple[float, float, float, float]:
        x, y = layout.positions[area]
        w, h = layout.sea if area in seas else layout.box
        below = CHIPS_SHOWN if area in homes else 1
        return x - w / 2, y - h / 2, x + w / 2, y + h / 2 + below * (CHIP_H + 1)

    assert {"britain", "germany", "austria_hungary", "belgium"} <= homes
    for a, b in combinations(layout.positions, 2):
        ra, rb = rect(a), rect(b)
        overlap = min(ra[2], rb[2]) > max(ra[0], rb[0]) and min(ra[3], rb[3]) > max(ra[1], rb[1])
        assert not overlap, (a, b)


def test_britannica_units_alike_in_one_place_are_one_chip_with_their_count() -> None:
    from gm.games.britannica import module as britannica
    from gm.maps.britannica import scene

    state = britannica.setup("1880", {})
    alike = Counter((u["power"], u["type"], u["strength"]) for u in state["units"]
                    if u["power"] == "russia" and u["at"] == "home")
    (power, kind, strength), n = alike.most_common(1)[0]
    assert n > 1  # the 1880 set-up gives Russia several Army(10) at home
    chips = [p for p in scene(britannica.view(state, "britain"), [], {}).pieces
             if p.owner == "russia" and p.label == f"{kind} {strength}" and p.area == "russia"]
    assert [(c.detail, c.count) for c in chips] == [(f"×{n}", n)]
