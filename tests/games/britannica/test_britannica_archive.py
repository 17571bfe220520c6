"""``gm archive`` of a Pax Britannica game: its public pages, in English and French (issue 18:
the spectator's view is what the archive renders; the Viking one crashed on it)."""

from __future__ import annotations

from click.testing import CliRunner

from gm.cli.main import cli
from tests.games.britannica.test_britannica_by_mail import close, pax, send  # noqa: F401


def test_archive_of_a_britannica_game_writes_its_public_pages(pax, tmp_path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """The archive renders every phase as a spectator sees it, in both languages; the public
    events (Britain's Protectorate in Eritrea) are on its pages, the area named in the
    page's language."""
    send(pax, "britain", "place protectorate in Eritrea", "move army 3 from home to Eritrea")
    assert close(pax) == "1880-negotiation"
    for lang, eritrea in (("en", "Eritrea"), ("fr", "Érythrée")):
        out = tmp_path / lang
        result = CliRunner().invoke(cli, ["--db", pax.engine.url.render_as_string(hide_password=False),
                                          "archive", "pax1", "--out", str(out), "--lang", lang])
        assert result.exit_code == 0, result.output
        pages = {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()}
        assert "index.html" in pages and any(n.startswith("phase-") for n in pages)
        everything = "\n".join(pages.values())
        assert eritrea in everything  # the area as the reader's language names it (issue 20)
