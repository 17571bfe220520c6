"""What every CLI command shares: the config, the database, output as text or JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import click

from gm.config import Config, ConfigError

if TYPE_CHECKING:  # the database and the service are imported by the commands that use them,
    from gm.service.context import ServiceContext  # so that `gm --help` starts fast (issue 21)


@dataclass
class App:
    config: Config
    db_override: str | None = None
    config_error: ConfigError | None = None  # the config file is not TOML (gm doctor says so)
    _ctx: ServiceContext | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return self.config.database_url(self.db_override)

    def context(self) -> ServiceContext:
        """The service context, with the schema brought up to date (on every start)."""
        if self._ctx is None:
            self.config.check()  # a misspelt option is named before a database is opened
            missing = self.config.missing_database(self.db_override)
            if missing:
                raise ConfigError(missing)
            from gm.db.engine import make_engine
            from gm.db.migrate import current_revision, upgrade
            from gm.service.context import ServiceContext, default_instance

            engine = make_engine(self.url)
            before = current_revision(engine)
            head = upgrade(engine)
            if before is not None and before != head:  # said: a host backs up before upgrading
                click.echo(f"gm: database upgraded from schema revision {before} to {head}",
                           err=True)
            settings = self.config.service_settings()
            self._ctx = ServiceContext(engine=engine, settings=settings,
                                       instance=settings.get("instance") or default_instance())
        return self._ctx


pass_app = click.make_pass_decorator(App)


def counted(n: int, one: str, many: str) -> str:
    """``n`` and the word that goes with it, for the operator's English output:
    ``counted(1, "phase", "phases")`` is "1 phase" (no "phase(s)")."""
    return f"{n} {one if n == 1 else many}"


def emit(data: Any, as_json: bool, text: str | None = None) -> None:
    """Print ``data`` as JSON for scripts, or ``text`` for people."""
    if as_json:
        click.echo(json.dumps(data, indent=2, sort_keys=True, default=str, ensure_ascii=False))
    else:
        click.echo(text if text is not None else str(data))


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")


def when(dt: Any) -> str:
    """A deadline as people read it (UTC), or "no deadline"."""
    return f"{dt:%Y-%m-%d %H:%M} UTC" if dt is not None else "no deadline"
