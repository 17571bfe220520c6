"""The scheduler's own tables: the service's heartbeat and declared absences.

They join ``SQLModel.metadata`` when this module is imported (gm.schedule
imports it), so ``create_all`` and the Alembic autogenerate see them.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlmodel import Field, SQLModel


class Heartbeat(SQLModel, table=True):
    """When each service instance last ran a sweep: the service's last-alive time.

    The service counts as down only when no instance was alive: the outage
    is measured from the latest ``alive_at`` over all rows.
    """

    instance: str = Field(primary_key=True, max_length=128)
    started_at: datetime
    alive_at: datetime = Field(index=True)


class Absence(SQLModel, table=True):
    """``ABSENT 2026-12-20 TO 2027-01-03`` from a power (orders.md §1), dates inclusive."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    power: str = Field(max_length=64)
    start: date
    end: date
    declared_at: datetime
    inbound_id: int | None = Field(default=None, foreign_key="inboundmail.id")
    cancelled: bool = False
