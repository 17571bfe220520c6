"""``gm archive``: the public history of a finished game as static pages, and HISTORY by mail."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from click.testing import CliRunner

from gm.cli.main import cli
from gm.db.engine import session_scope
from gm.dice import commitment
from gm.service.games import get_game
from tests.pipeline.conftest import deliver, mail
from tests.present.support import finished_game, mails, parts

SVG = "{http://www.w3.org/2000/svg}"


def links(html: str) -> set[str]:
    return set(re.findall(r'(?:href|src)="([^"#:]+)"', html))


def test_archive_of_a_finished_game_links_every_page_and_reveals_the_seed(ctx, tmp_path) -> None:  # type: ignore[no-untyped-def]
    finished_game(ctx)
    out = tmp_path / "site"
    result = CliRunner().invoke(cli, ["--db", ctx.engine.url.render_as_string(hide_password=False),
                                      "archive", "fin", "--out", str(out)])
    assert result.exit_code == 0, result.output
    pages = {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()}
    index = pages["index.html"]
    assert "reveal.html" in index and "The game has ended." in index
    phase_pages = sorted(n for n in pages if n.startswith("phase-"))
    assert len(phase_pages) >= 4 and links(index) >= set(phase_pages) | {"reveal.html"}
    for name, html in pages.items():
        assert links(html) <= set(pages), f"{name} links a missing file"
        assert "<script" not in html.lower()
    everything = "\n".join(pages[n] for n in phase_pages)
    assert "Karl XII may cross the ice this winter" in everything, "the public ruling"
    assert "Peace in our time? &lt;no&gt;" in everything, "press to all, escaped"
    with session_scope(ctx.engine) as s:
        seed = get_game(s, "fin").seed
    reveal = pages["reveal.html"]
    assert seed.hex() in reveal and "matches" in reveal
    assert commitment(seed, "fin") in reveal
    assert "Report for Sweden" in reveal and "Report for the Coalition" in reveal  # issue 20: names
    # the public pages show no block by name: the spectator sees counts only (besiegers excepted)
    for name in (n for n in pages if n.endswith(".svg")):
        root = ET.fromstring(pages[name].encode())
        kinds = {g.get("data-kind") for g in root.iter(f"{SVG}g") if g.get("data-kind")}
        assert kinds <= {"hidden", "revealed"}, (name, kinds)
    assert "Karl XII 4/4" not in everything and "Dalregementet" not in everything


def test_archive_in_french_says_every_page_in_french(ctx, tmp_path) -> None:  # type: ignore[no-untyped-def]
    finished_game(ctx)
    out = tmp_path / "site"
    result = CliRunner().invoke(cli, ["--db", ctx.engine.url.render_as_string(hide_password=False),
                                      "archive", "fin", "--out", str(out), "--lang", "fr"])
    assert result.exit_code == 0, result.output
    pages = {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()}
    reveal = pages["reveal.html"]
    assert "tout est révélé" in reveal and "correspond à celui publié" in reveal
    assert "Rapport pour la Suède" in reveal and 'lang="fr"' in reveal  # issue 20
    assert "Report for" not in reveal and "everything revealed" not in reveal
    everything = "\n".join(pages[n] for n in pages if n.startswith("phase-"))
    assert "Message de " in everything and "Press from" not in everything


def test_history_by_mail_sends_the_phase_page_with_its_map(ctx) -> None:  # type: ignore[no-untyped-def]
    finished_game(ctx)
    with session_scope(ctx.engine) as s:
        from sqlmodel import select

        from gm.db.models import ModeratorAct, Report
        seq = s.exec(select(ModeratorAct.phase_seq).where(ModeratorAct.command == "ruling")).one()
        # the report that published the ruling: the close of its phase, or of the last phase
        # of the chain that close began (one report for phases closed together)
        phase_id = s.exec(select(Report.phase_id).where(
            Report.game_id == "fin", Report.power == "sweden", Report.phase_seq >= seq)
            .order_by(Report.phase_seq)).first()
    deliver(ctx, mail(f"GAME fin\nPOWER sweden sw-pw\nHISTORY {phase_id}\n",
                      sender="karl@example.org"))
    (_, msg), = [m for m in mails(ctx, kind="report", to="karl@example.org")
                 if "history" in m[1]["Subject"]]
    p = parts(msg)
    assert "==== gm report fin" in p["text"] and "Karl XII" in p["text"], "the power's own report"
    assert "map.svg" in p["files"] and p["inline"], "the public map"
    assert "Karl XII may cross the ice" in p["text"] and "Karl XII may cross the ice" in p["html"]
