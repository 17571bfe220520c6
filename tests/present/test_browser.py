"""Reports and the archive in a real browser: Debian's headless Chromium over DevTools.

The map is read back from the rendered page (the data-* attributes of what was drawn,
and each drawn element's box) and compared with the power's view, not with pixels.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from gm.db.engine import session_scope
from gm.games.baltica.module import BalticaModule
from gm.service.archive import write_archive
from gm.service.games import current_phase, get_game
from tests.present.browser import Browser, chromium_path
from tests.present.support import (
    SWEDISH_ORDERS,
    finished_game,
    mails,
    new_baltica,
    parts,
    play,
    sent,
)

pytestmark = pytest.mark.skipif(chromium_path() is None,
                                reason="chromium is not installed (scripts/install --test installs it)")
MODULE = BalticaModule()

DRAWN = """[...document.querySelectorAll('g[data-kind]')].map(g => {
  const b = g.getBBox();
  return {kind: g.dataset.kind, block: g.dataset.block || null, strength: g.dataset.strength || null,
          count: g.dataset.count || null, area: g.dataset.area, visible: b.width > 0 && b.height > 0};
})"""


@pytest.fixture(autouse=True)
def _one_database(request: pytest.FixtureRequest) -> None:
    if "postgres" in request.node.name:
        pytest.skip("the browser tests look at pages, not storage: they run on SQLite only")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    b = Browser(tmp_path_factory.mktemp("chromium-profile"))
    yield b
    b.close()


def test_report_renders_and_its_map_shows_only_what_the_power_may_see(ctx, browser, tmp_path) -> None:  # type: ignore[no-untyped-def]
    new_baltica(ctx)
    play(ctx, "b1", 2, {"sweden": SWEDISH_ORDERS})
    with session_scope(ctx.engine) as s:
        state = current_phase(s, "b1").game_state or {}
    for power, address in (("sweden", "karl@example.org"), ("coalition", "pyotr@example.org")):
        row, _ = mails(ctx, kind="report", to=address)[-1]
        p = parts(sent(row))
        (tmp_path / f"{power}.svg").write_bytes(p["files"]["map.svg"].get_content())
        html = re.sub(r'src="cid:[^"]+"', f'src="{power}.svg"', p["html"])
        (tmp_path / f"{power}.html").write_text(html, encoding="utf-8")
        browser.errors.clear()
        browser.open((tmp_path / f"{power}.html").as_uri())
        assert browser.js("document.images.length === 1 && document.images[0].naturalWidth > 0")
        assert browser.js("document.documentElement.scrollWidth") <= 800, "fits a phone-sized window"
        text = browser.js("document.body.innerText")
        assert "==== gm report b1" in text
        assert len(browser.screenshot(tmp_path / f"{power}-report.png")) > 10_000
        browser.open((tmp_path / f"{power}.svg").as_uri())
        drawn = browser.js(DRAWN)
        assert browser.errors == []
        view = MODULE.view(state, power)
        own = {(b["name"], f"{b['strength']}/{b['max']}") for b in view["own_blocks"]}
        shown_own = {(d["block"], d["strength"]) for d in drawn if d["kind"] == "own"}
        assert shown_own <= own and all(d["visible"] for d in drawn)
        revealed = {b["name"] for b in view["revealed"]}
        assert {d["block"] for d in drawn if d["kind"] == "revealed"} <= revealed
        assert all(d["block"] is None and d["strength"] is None for d in drawn if d["kind"] == "hidden")
        counts = {(g["location"], g["count"]) for g in view["enemy_blocks"]}
        assert {(d["area"], int(d["count"])) for d in drawn if d["kind"] == "hidden"} <= counts
        svg_text = browser.js("document.documentElement.textContent")
        enemy = [b for b in MODULE.board.blocks.values()
                 if MODULE.board.nations[b.nation].side.value != power]
        hidden_names = ({b.name for b in enemy} - revealed - {t.name for t in MODULE.board.territories.values()}
                        - {n.name for n in MODULE.board.nations.values()})  # places and legend words
        assert not [n for n in hidden_names if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", svg_text)]
        browser.screenshot(tmp_path / f"{power}-map.png")


def test_archive_of_a_finished_game_opens_without_errors_and_every_link_works(ctx, browser, tmp_path) -> None:  # type: ignore[no-untyped-def]
    finished_game(ctx)
    site = tmp_path / "site"
    with session_scope(ctx.engine) as s:
        write_archive(s, get_game(s, "fin"), site)
    seen: set[str] = set()
    todo = ["index.html"]
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.add(page)
        assert (site / page).exists(), f"broken link to {page}"
        browser.errors.clear()
        browser.open((site / page).as_uri())
        assert browser.errors == [], (page, browser.errors)
        assert browser.js("[...document.images].every(i => i.complete && i.naturalWidth > 0)"), page
        hrefs = browser.js("[...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))")
        todo += [h.split("#")[0] for h in hrefs if h.endswith(".html")]
    pages = {p.name for p in site.glob("*.html")}
    assert seen == pages, f"pages nobody links: {pages - seen}"
    browser.open((site / "index.html").as_uri())
    assert len(browser.screenshot(tmp_path / "archive-index.png")) > 5_000
    assert "reveal.html" in seen
