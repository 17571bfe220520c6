"""Deadlines, reminders, sweeps and the daemon's scheduler (docs/scheduling.md).

The phases table is the truth; the scheduler only wakes the service up.
Exactly-once comes from row claims in the database, never from the scheduler.
"""

from __future__ import annotations

from gm.schedule import tables as tables  # registers Heartbeat and Absence
