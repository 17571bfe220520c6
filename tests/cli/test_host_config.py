"""A host's gm.toml mistakes, met by the real `gm` command run as a process.

What a host runs: `gm --config /etc/gm/gm.toml doctor`, then `gm serve` (from the
systemd unit, whose working folder is /var/lib/gm, not the config's folder). Each
mistake must be named with the option and what to do, before anything is created,
never as a traceback, and never be dropped in silence.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from gm.config import load
from tests.e2e.test_crash import ROOT

GM = "from gm.cli.main import cli; cli(prog_name='gm')"

BASE = """\
[mail]
address = "gm@pbem.test"
inbound = "maildir"
outbound = "maildir"

[service]
moderator_address = "mod@pbem.test"

[database]
path = "gm.db"

[maildir]
inbox = "mail/inbox"
outbox = "mail/outbox"
"""


def gm(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`gm ARGS` in ``cwd``, as a host runs it (this checkout's code, whatever the folder),
    with ``env`` added to the environment."""
    env = {**{k: v for k, v in os.environ.items() if k not in ("GM_CONFIG", "GM_DATABASE_URL")},
           **(env or {}), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", GM, *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def config_folder(tmp_path: Path, text: str) -> Path:
    etc = tmp_path / "etc" / "gm"
    (etc / "secrets").mkdir(parents=True)
    (etc / "gm.toml").write_text(text, encoding="utf-8")
    return etc


def test_relative_secret_files_are_read_from_the_config_folder_not_the_working_one(
        tmp_path: Path) -> None:
    """deploy/gm.example.toml: "Relative paths are relative to this file's folder". The
    password file was read from the folder gm ran in, so the systemd unit (working folder
    /var/lib/gm) failed with "cannot read" for a config that `gm doctor` passed in /etc/gm."""
    etc = config_folder(tmp_path, BASE + '[imap]\nuser = "gm@pbem.test"\n'
                        'password_file = "secrets/imap-password"\nca_file = "secrets/ca.pem"\n'
                        '[oauth2]\nrefresh_token_file = "secrets/refresh-token"\n')
    (etc / "secrets" / "imap-password").write_text("s3cret\n")
    elsewhere = tmp_path / "var" / "lib" / "gm"
    elsewhere.mkdir(parents=True)
    done = gm(elsewhere, "--config", str(etc / "gm.toml"), "doctor", "--no-send", "--json")
    found = {f["check"]: f for f in json.loads(done.stdout)}
    assert found["config"]["ok"], found["config"]
    assert "cannot read" not in done.stdout
    # the other file options are made absolute from the same folder
    os.chdir(elsewhere)
    try:
        mail = load(etc / "gm.toml").mail_settings()
    finally:
        os.chdir(ROOT)
    assert mail.imap.password == "s3cret"
    assert mail.imap.ca_file == str(etc / "secrets" / "ca.pem")
    assert mail.oauth2.refresh_token_file == str(etc / "secrets" / "refresh-token")


def test_a_misspelt_option_outside_the_mail_tables_is_named_before_anything_starts(
        tmp_path: Path) -> None:
    """`[service] moderator_adress` and `[database] uri` were ignored in silence: the
    moderator got no notice, and gm ran on a new SQLite file instead of PostgreSQL."""
    etc = config_folder(tmp_path, BASE.replace("moderator_address", "moderator_adress"))
    served = gm(tmp_path, "--config", str(etc / "gm.toml"), "serve", "--once")
    assert served.returncode == 1
    assert "service.moderator_adress: unknown option (did you mean moderator_address?)" \
        in served.stderr
    assert "Traceback" not in served.stderr
    doctor = gm(tmp_path, "--config", str(etc / "gm.toml"), "doctor", "--no-send")
    assert doctor.returncode == 1
    assert "FAIL  config" in doctor.stdout and "moderator_adress" in doctor.stdout

    (etc / "gm.toml").write_text(BASE.replace('path = "gm.db"',
                                              'uri = "postgresql+psycopg://gm@db/gm"'))
    served = gm(tmp_path, "--config", str(etc / "gm.toml"), "serve", "--once")
    assert served.returncode == 1 and "database.uri: unknown option (did you mean url?)" \
        in served.stderr
    assert not (etc / "gm.db").exists()

    (etc / "gm.toml").write_text(BASE + "[schedular]\nsweep_seconds = 5\n")
    served = gm(tmp_path, "--config", str(etc / "gm.toml"), "game", "list")
    assert served.returncode == 1 and "[schedular]: unknown table (did you mean [scheduler]?)" \
        in served.stderr


def test_a_wrong_value_outside_the_mail_tables_is_named_not_a_traceback(tmp_path: Path) -> None:
    """`reply_budget = "ten"` passed `gm doctor` ("all good") and then stopped `gm serve`
    with a ValueError traceback."""
    etc = config_folder(tmp_path, BASE.replace('moderator_address = "mod@pbem.test"',
                                               'moderator_address = "mod@pbem.test"\n'
                                               'reply_budget = "ten"'))
    doctor = gm(tmp_path, "--config", str(etc / "gm.toml"), "doctor", "--no-send")
    assert doctor.returncode == 1 and "service.reply_budget: must be a number" in doctor.stdout
    served = gm(tmp_path, "--config", str(etc / "gm.toml"), "serve", "--once")
    assert served.returncode == 1
    assert "service.reply_budget: must be a number" in served.stderr
    assert "Traceback" not in served.stderr
    (etc / "gm.toml").write_text(BASE + "[scheduler]\nsweep_seconds = -30\n")
    served = gm(tmp_path, "--config", str(etc / "gm.toml"), "serve", "--once")
    assert served.returncode == 1 and "scheduler.sweep_seconds: must be >= 0" in served.stderr


def test_the_deploy_example_passes_and_documents_every_option_of_these_tables(
        tmp_path: Path) -> None:
    """deploy/gm.example.toml says it shows every option; `[service] send_lease_seconds`
    was missing from it."""
    from gm.config import OPTIONS

    example = (ROOT / "deploy" / "gm.example.toml").read_text(encoding="utf-8")
    (tmp_path / "gm.toml").write_text(example, encoding="utf-8")
    load(tmp_path / "gm.toml").check()
    for table, options in OPTIONS.items():
        body = example.split(f"\n[{table}]\n")[1].split("\n[")[0]
        for option in options:
            assert f"\n{option} = " in body or f"\n# {option} = " in body, f"{table}.{option}"


def test_the_systemd_unit_lets_gm_write_every_folder_the_example_config_has_it_write() -> None:
    """docs/mailbox.md: with OAuth2 gm rewrites refresh_token_file when the provider
    rotates it, "so the file must be writable by the gm user". deploy/gm.service made
    /etc read-only (ProtectSystem=strict) with only /var/lib/gm writable: Microsoft's
    rotated token could not be kept. And the example's SQLite `path = "gm.db"` and
    Maildirs `mail/inbox` are read from /etc/gm: under the unit, not writable."""
    unit = (ROOT / "deploy" / "gm.service").read_text(encoding="utf-8")
    settings = dict(line.split("=", 1) for line in unit.splitlines()
                    if "=" in line and not line.startswith("#"))
    assert settings["ProtectSystem"] == "strict"
    writable = [path.lstrip("-") for line in unit.splitlines()
                if line.startswith("ReadWritePaths=")
                for path in line.split("=", 1)[1].split()]
    example = (ROOT / "deploy" / "gm.example.toml").read_text(encoding="utf-8")
    [token] = [line.split("=", 1)[1].strip().strip('"') for line in example.splitlines()
               if line.lstrip("# ").startswith("refresh_token_file =")]
    state = settings["WorkingDirectory"]
    for folder in (state, str(Path(token).parent)):
        assert folder in writable, (folder, writable)
    # the SQLite file and the Maildirs the example names (commented or not): a relative
    # path is read from the config's folder (/etc/gm), which the unit keeps read-only
    etc = Path(settings["Environment"].split("=", 1)[1]).parent
    for table, option in (("database", "path"), ("maildir", "inbox"), ("maildir", "outbox")):
        body = example.split(f"\n[{table}]\n")[1].split("\n[")[0]
        [value] = [line.split("=", 1)[1].strip().strip('"') for line in body.splitlines()
                   if line.lstrip("# ").startswith(f"{option} =")]
        where = etc / value
        assert any(where.is_relative_to(folder) for folder in writable if folder != str(etc)
                   and not folder.startswith("/etc/gm/secrets")), (f"{table}.{option}", where)


def test_a_database_folder_that_cannot_be_written_is_named_with_what_to_do(tmp_path: Path) -> None:
    """`[database] path` in a folder that does not exist (or the gm user may not write):
    `gm serve` stopped with a FileNotFoundError traceback from its lock file, and the
    other commands said "the database cannot be read: unable to open database file",
    naming neither the file nor the folder."""
    etc = config_folder(tmp_path, BASE.replace('path = "gm.db"', 'path = "missing/gm.db"'))
    served = gm(tmp_path, "--config", str(etc / "gm.toml"), "serve", "--once")
    assert served.returncode == 1 and "Traceback" not in served.stderr
    assert f"the folder {etc / 'missing'} must exist and be writable by the user gm runs as" \
        in served.stderr
    listed = gm(tmp_path, "--config", str(etc / "gm.toml"), "game", "list")
    assert listed.returncode == 1
    assert f"the database {etc / 'missing' / 'gm.db'} cannot be read" in listed.stderr
    assert f"its folder {etc / 'missing'} must exist and be writable" in listed.stderr


def test_an_upgrade_of_the_database_schema_says_from_which_revision(tmp_path: Path) -> None:
    """deploy/README.md has a host back up before every upgrade. `gm db upgrade` printed
    "database at schema revision 0007_..." whether it had just migrated the database or
    found it up to date, and any other command migrated an old database without a word."""
    from alembic import command

    from gm.db.engine import sqlite_url
    from gm.db.migrate import alembic_config, head_revision

    etc = config_folder(tmp_path, BASE)
    old = "0005_game_phase_indexes"
    command.upgrade(alembic_config(sqlite_url(etc / "gm.db")), old)
    (etc / "gm5.db").write_bytes((etc / "gm.db").read_bytes())
    done = gm(tmp_path, "--config", str(etc / "gm.toml"), "db", "upgrade")
    assert done.returncode == 0
    assert f"database upgraded from schema revision {old} to {head_revision()}" in done.stdout
    again = gm(tmp_path, "--config", str(etc / "gm.toml"), "db", "upgrade")
    assert f"database at schema revision {head_revision()}: up to date" in again.stdout
    (etc / "gm.db").write_bytes((etc / "gm5.db").read_bytes())
    listed = gm(tmp_path, "--config", str(etc / "gm.toml"), "game", "list")
    assert listed.returncode == 0
    assert f"gm: database upgraded from schema revision {old} to {head_revision()}" in listed.stderr
    assert "upgraded" not in gm(tmp_path, "--config", str(etc / "gm.toml"), "game", "list").stderr


def test_json_logs_keep_the_traceback_of_an_error() -> None:
    """The systemd unit and the container run `gm serve --json-logs`; its lines held the
    message only, so every "the round failed" or "mail ... could not be stored" reached
    journald without its cause: the traceback was dropped."""
    import logging

    from gm.cli.serve import JsonFormatter

    try:
        raise ValueError("the cause a host needs")
    except ValueError:
        record = logging.LogRecord("gm.daemon", logging.ERROR, __file__, 1,
                                   "the round failed; trying again in %.0f s", (1.0,),
                                   sys.exc_info())
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "the round failed; trying again in 1 s"
    assert "Traceback" in line["exception"]
    assert "ValueError: the cause a host needs" in line["exception"]
    plain = logging.LogRecord("gm.daemon", logging.INFO, __file__, 1, "stopped", (), None)
    assert "exception" not in json.loads(JsonFormatter().format(plain))


def test_the_start_of_gm_serve_never_shows_the_database_password() -> None:
    """`gm serve` printed "database postgresql+psycopg://gm:PASSWORD@db/gm" into journald
    when GM_DATABASE_URL held the password, as deploy/README.md has a host put it."""
    from gm.cli.serve import banner
    from gm.mail.config import MailSettings

    mail = MailSettings.from_dict({"mail": {"address": "gm@pbem.test", "inbound": "imap",
                                            "outbound": "smtp"},
                                   "imap": {"host": "imap.pbem.test", "user": "gm"},
                                   "smtp": {"host": "smtp.pbem.test"}})
    lines = banner(mail, "postgresql+psycopg://gm:s3cret-pw@db.pbem.test/gm")
    assert lines[0] == "gm serving gm@pbem.test: database postgresql+psycopg://gm:***@db.pbem.test/gm"
    assert not any("s3cret-pw" in line for line in lines)
    assert lines[1:] == ["  order mails read from INBOX at imap.pbem.test:993 as gm",
                         "  replies sent through smtp.pbem.test:587"]


def test_a_config_file_named_by_gm_config_that_is_missing_is_an_error_not_the_defaults(
        tmp_path: Path) -> None:
    """The systemd unit and the container set GM_CONFIG=/etc/gm/gm.toml. With that file
    missing (named gm.conf, say) and GM_DATABASE_URL in /etc/gm/env, gm serve ran on the
    built-in defaults (gm@localhost, a Maildir in the working folder: the real mailbox
    never read) and `gm doctor` said "ok config: no config file: built-in defaults"."""
    missing = tmp_path / "etc" / "gm" / "gm.toml"
    env = {"GM_CONFIG": str(missing), "GM_DATABASE_URL": f"sqlite:///{tmp_path / 'gm.db'}"}
    for args in (("serve", "--once"), ("doctor", "--no-send")):
        done = gm(tmp_path, *args, env=env)
        assert done.returncode == 1, (args, done.stdout)
        assert f"no config file at {missing} (named by GM_CONFIG)" in done.stderr
    assert not (tmp_path / "var").exists() and not (tmp_path / "gm.db").exists()


def test_a_toml_syntax_error_is_a_doctor_finding_naming_the_file_and_line_and_stops_serve(
        tmp_path: Path) -> None:
    """A quote left open in gm.toml: `gm doctor` printed a bare "Error: ... is not valid
    TOML" line, not a finding with what to do, and `gm serve` the same click "Error:"."""
    etc = config_folder(tmp_path, BASE.replace('"mod@pbem.test"', '"mod@pbem.test'))
    path = etc / "gm.toml"
    doctor = gm(tmp_path, "--config", str(path), "doctor", "--no-send")
    assert doctor.returncode == 1
    assert doctor.stdout.splitlines()[0] == (
        f"FAIL  config          {path}, line 7, column 35: Illegal character '\\n' "
        "(the file is not valid TOML)")
    assert f"fix: correct line 7 of {path}" in doctor.stdout
    assert doctor.stdout.splitlines()[-1] == "1 problem found"
    assert "Error:" not in doctor.stdout + doctor.stderr
    as_json = json.loads(gm(tmp_path, "--config", str(path), "doctor", "--json").stdout)
    assert [(f["check"], f["ok"]) for f in as_json] == [("config", False)]

    served = gm(tmp_path, "--config", str(path), "serve", "--once")
    assert served.returncode == 1
    assert served.stderr.strip() == (f"gm: {path}, line 7, column 35: Illegal character "
                                     "'\\n' (the file is not valid TOML)")
    assert not (etc / "gm.db").exists()
