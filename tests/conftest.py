"""Shared fixtures: a real database (SQLite file, and PostgreSQL when reachable)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy import create_engine, text

from gm.clock import FakeClock
from gm.db.engine import make_engine, sqlite_url
from gm.db.migrate import upgrade
from gm.service.context import ServiceContext

PG_URL = os.environ.get("GM_TEST_DATABASE_URL", "")

# Property tests draw the same examples on every run of the suite, so CI never
# fails on a draw it could not repeat; the random, longer search is a separate
# run: HYPOTHESIS_PROFILE=explore ./scripts/test (docs/robustness.md).
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", max_examples=2000, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def _postgres_database() -> Iterator[str]:
    """A fresh database inside the server of GM_TEST_DATABASE_URL, dropped afterwards."""
    name = f"gm_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    base = PG_URL.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """The URL of an empty database: a SQLite file, then PostgreSQL if GM_TEST_DATABASE_URL is set."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "gm.db")
    else:
        if not PG_URL:
            pytest.skip("GM_TEST_DATABASE_URL is not set (PostgreSQL runs of the storage tests)")
        yield from _postgres_database()


@pytest.fixture
def ctx(db_url: str) -> Iterator[ServiceContext]:
    """A service context on a migrated database with a fake clock."""
    engine = make_engine(db_url)
    upgrade(engine)
    yield ServiceContext(engine=engine, clock=FakeClock(),
                         settings={"address": "gm@example.org", "moderator_address": "mod@example.org"},
                         instance="test")
    engine.dispose()


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus game (tests/e2e/corpus_game.py), created and settled once per module."""
    from tests.e2e.corpus_game import build_template

    db = tmp_path_factory.mktemp("corpus") / "template.db"
    build_template(db)
    return db


@pytest.fixture
def game(template: Path, tmp_path: Path) -> Iterator[ServiceContext]:
    """A private copy of the corpus game's database, with its context."""
    from tests.e2e.corpus_game import copy_of

    ctx = copy_of(template, tmp_path)
    yield ctx
    ctx.engine.dispose()


@pytest.fixture(scope="module")
def other_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus's Pax Britannica and Pax Viking games (tests/e2e/corpus_game.py), once
    per module."""
    from tests.e2e.corpus_game import build_other_template

    db = tmp_path_factory.mktemp("corpus-other") / "template.db"
    build_other_template(db)
    return db


@pytest.fixture
def other_games(other_template: Path, tmp_path: Path) -> Iterator[ServiceContext]:
    """A private copy of the corpus's Pax Britannica and Pax Viking games."""
    from tests.e2e.corpus_game import copy_of

    ctx = copy_of(other_template, tmp_path)
    yield ctx
    ctx.engine.dispose()
