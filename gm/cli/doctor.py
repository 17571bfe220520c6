"""``gm doctor``: is this host set up to run games? (gm/doctor.py does the checks.)"""

from __future__ import annotations

import sys

import click

from gm.cli.app import App, counted, emit, json_option, pass_app


@click.command()
@click.option("--no-send", is_flag=True, help="Do not send the test mail to the moderator.")
@click.option("--wait", "wait_seconds", default=30.0, show_default=True,
              help="How long to wait for the test mail to come back (seconds).")
@json_option
@pass_app
def doctor(app: App, no_send: bool, wait_seconds: float, as_json: bool) -> None:
    """Check the config, the database, the outbox, the templates and the mailbox; say what to
    fix.

    Logs into IMAP and SMTP as `gm serve` would, tries IDLE, sends a test mail
    to the moderator with a copy to gm's own address and reads the copy back.
    Exits 1 when anything needs fixing; a warning (no moderator_address: nobody would
    be told of held games, undelivered mail, bounces; mail waiting for a retry) does not.
    """
    from gm.doctor import Doctor, failed, unreadable_config

    findings = (unreadable_config(app.config_error) if app.config_error is not None else
                Doctor(app.config, app.db_override, send=not no_send,
                       wait_seconds=wait_seconds).run())
    lines = []
    for f in findings:
        mark = "skip" if f.skipped else "warn" if f.warning else ("ok" if f.ok else "FAIL")
        lines.append(f"{mark:5} {f.check:15} {f.detail}")
        if f.fix:
            lines.append(f"{'':5} {'':15} fix: {f.fix}")
    bad = failed(findings)
    warned = [f for f in findings if f.warning]
    lines.append(counted(len(bad), "problem", "problems") + " found" if bad
                 else "gm can run here, but read the " + counted(len(warned), "warning",
                                                                 "warnings") + " above"
                 if warned else "all good: gm can run here")
    emit([f.as_dict() for f in findings], as_json, "\n".join(lines))
    if bad:
        sys.exit(1)
