"""Fixtures of the scheduling tests: the race game of the pipeline tests (for the mail races)."""

from tests.pipeline.conftest import race  # noqa: F401  (fixture re-exported for this folder)
