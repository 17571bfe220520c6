"""Deadlines, reminders, sweeps and the daemon's wake-ups (docs/scheduling.md).

The phases table is the truth; the daemon's loop reads its next wake-up from
it (gm.schedule.wakeup). Exactly-once comes from row claims in the database.
"""

from __future__ import annotations

from gm.db import schedule_tables as schedule_tables  # registers Heartbeat and Absence
