"""Committing a transaction in a thread of its own while the caller goes on (issue 21).

A deadline storm's sweep closes a thousand phases one after the other, each a transaction
of its own: its last round trip, the COMMIT (the server writes and flushes the close's WAL),
was the longest wait of a close on PostgreSQL, and the sweep's thread sat idle through it.
A :class:`Committer` takes the finished transaction's session and commits it in its thread
while the caller works out the next close (claim, adjudication, reports); one commit at a
time, in order: handing over the next waits for the one before.

The commit thread only waits on the database (every statement of the transaction ran
before it was handed over): an instance keeps one busy thread. What a commit came to is
given back to the caller's thread by :meth:`Committer.settled`, in the order handed over:
the caller treats a failed commit as it would have treated it inline.
"""

from __future__ import annotations

from collections.abc import Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Generic, TypeVar

from sqlmodel import Session

K = TypeVar("K", bound=Hashable)


class Committer(Generic[K]):
    """Commits handed-over sessions in one thread of its own, one at a time, in order."""

    def __init__(self) -> None:
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="gm-commit")
        self._pending: tuple[K, Future[BaseException | None]] | None = None
        self._settled: list[tuple[K, BaseException | None]] = []

    def commit(self, key: K, session: Session) -> None:
        """Commit ``session`` (its statements all run: only the COMMIT is left) and close it,
        in the commit thread, after the transaction handed over before it; ``key`` names it
        in :meth:`settled`. ``session`` is the commit thread's from here on."""
        try:
            self.wait()
        except BaseException:
            _abandon(session)
            raise
        self._pending = (key, self._thread.submit(_commit, session))

    def holds(self, key: K) -> bool:
        """Whether the transaction handed over under ``key`` is still to be settled."""
        return self._pending is not None and self._pending[0] == key

    def wait(self) -> None:
        """Wait for the commit in flight, if any (its outcome joins :meth:`settled`)."""
        pending, self._pending = self._pending, None
        if pending is not None:
            key, future = pending
            self._settled.append((key, future.result()))

    def settled(self) -> list[tuple[K, BaseException | None]]:
        """The transactions whose commit ended since the last call, in order: each key with
        None (committed) or what the commit raised (it was rolled back)."""
        done, self._settled = self._settled, []
        return done

    def close(self) -> None:
        """Wait for the commit in flight and stop the thread (what was not collected with
        :meth:`settled` is dropped: the caller is giving up, the next sweep sees the rows)."""
        try:
            self.wait()
        finally:
            self._thread.shutdown()


def _commit(session: Session) -> BaseException | None:
    try:
        session.commit()
    except BaseException as exc:  # given back to the caller's thread, which decides
        _abandon(session)
        return exc
    session.close()
    return None


def _abandon(session: Session) -> None:
    try:
        session.rollback()
    finally:
        session.close()
