"""What every service operation needs: the database, the clock, the settings."""

from __future__ import annotations

import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Engine

from gm.clock import Clock, SystemClock


def default_instance() -> str:
    """The host name: stable across restarts (heartbeats and send claims are per instance).

    Two daemons on one host must be given names (``[service] instance``).
    """
    return socket.gethostname()


@dataclass
class ServiceContext:
    """The service's handles: one per process (or per test).

    ``settings`` holds the service-wide options of the config file (the
    service's mail address, its domain for Message-IDs, defaults for new
    games); per-game options live in ``Game.settings``.
    """

    engine: Engine
    clock: Clock = field(default_factory=SystemClock)
    settings: dict[str, Any] = field(default_factory=dict)
    instance: str = field(default_factory=default_instance)
    # told the bytes of each mail queued (gm.service.outbox), before its transaction commits:
    # the drawing pool draws a report's map ahead (gm.pipeline.drawahead); None: nobody
    on_queued: Callable[[bytes], None] | None = None

    @property
    def service_address(self) -> str:
        return str(self.settings.get("address", "gm@localhost"))

    @property
    def mail_domain(self) -> str:
        return self.service_address.rpartition("@")[2] or "localhost"
