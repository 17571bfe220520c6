"""``gm doctor`` against real servers: it passes a working set-up and names each planted fault.

The set-up is the one docs/mailbox.md tells a host to write: gm.toml with
[imap], [smtp] and (for Gmail and Microsoft 365) [oauth2]. The IMAP server is a
private Dovecot; the SMTP server is aiosmtpd relaying accepted mail into that
Dovecot like a real mail server, so the doctor's test mail really comes back.
The XOAUTH2 run uses a local token endpoint (tests/support/oauth2_stub.py) that
Dovecot's oauth2 passdb and the SMTP server both ask about the token.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from gm.cli.main import cli
from gm.mail.config import AuthMode, ImapSettings, TlsMode
from gm.mail.imap_source import ImapSource
from gm.mail.oauth2 import OAuth2Settings, TokenSource
from tests.support.oauth2_stub import OAuth2Stub
from tests.support.servers import (
    DOVECOT,
    DovecotServer,
    ReceivedMail,
    SmtpTestServer,
    dovecot_available,
    free_port,
)

GM = "gm@pbem.test"
MODERATOR = "moderator@pbem.test"


def write_config(folder: Path, imap: dict[str, object], smtp: dict[str, object],
                 extra: str = "") -> Path:
    def table(name: str, values: dict[str, object]) -> str:
        return f"[{name}]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in values.items())

    config = folder / "gm.toml"
    config.write_text(
        f'[mail]\naddress = "{GM}"\ninbound = "imap"\noutbound = "smtp"\n'
        f'[service]\nmoderator_address = "{MODERATOR}"\n'
        f'[database]\npath = "gm.db"\n'
        + table("imap", {"timeout": 5.0, "poll_interval": 0.2, **imap})
        + table("smtp", {"timeout": 5.0, **smtp}) + extra)
    return config


def doctor(config: Path, *args: str) -> tuple[Result, dict[str, dict[str, object]]]:
    result = CliRunner().invoke(cli, ["--config", str(config), "doctor", "--wait", "10",
                                      "--json", *args], catch_exceptions=False)
    findings = {f["check"]: f for f in json.loads(result.output)}
    return result, findings


def relay_into(dovecot: DovecotServer, user: str, password: str) -> object:
    """Deliver the copy addressed to gm's own address into gm's IMAP inbox."""
    def deliver(mail: ReceivedMail) -> None:
        if GM in mail.recipients:
            dovecot.append(user, password, [mail.raw])
    return deliver


@pytest.fixture
def relay(dovecot: DovecotServer, imap_user: tuple[str, str]) -> Iterator[SmtpTestServer]:
    server = SmtpTestServer(deliver=relay_into(dovecot, *imap_user))  # type: ignore[arg-type]
    server.start()
    yield server
    server.stop()


def good_imap(dovecot: DovecotServer, imap_user: tuple[str, str]) -> dict[str, object]:
    user, password = imap_user
    return {"host": dovecot.host, "port": dovecot.port, "user": user, "password": password,
            "tls": "none"}


def good_smtp(relay: SmtpTestServer) -> dict[str, object]:
    return {"host": relay.host, "port": relay.port, "tls": "none"}


def test_doctor_passes_a_working_mailbox_and_its_test_mail_comes_back(
        tmp_path: Path, dovecot: DovecotServer, imap_user: tuple[str, str],
        relay: SmtpTestServer) -> None:
    config = write_config(tmp_path, good_imap(dovecot, imap_user), good_smtp(relay))
    result, found = doctor(config)
    assert result.exit_code == 0, result.output
    assert all(f["ok"] for f in found.values()), found
    assert "IDLE works" in str(found["imap idle"]["detail"])
    assert "read back" in str(found["round trip"]["detail"])
    to_moderator = [m for m in relay.received if MODERATOR in m.recipients]
    assert len(to_moderator) == 1 and b"Auto-Submitted: auto-generated" in to_moderator[0].raw
    # the copy is flagged handled, so a running daemon never stores or answers it
    source = ImapSource(ImapSettings(host=dovecot.host, port=dovecot.port, user=imap_user[0],
                                     password=imap_user[1], tls=TlsMode.NONE), max_attempts=1)
    assert source.fetch_new() == []
    source.close()


def test_doctor_names_a_wrong_password(tmp_path: Path, dovecot: DovecotServer,
                                       imap_user: tuple[str, str], relay: SmtpTestServer) -> None:
    config = write_config(tmp_path, {**good_imap(dovecot, imap_user), "password": "wrong"},
                          good_smtp(relay))
    result, found = doctor(config)
    assert result.exit_code == 1
    assert not found["imap"]["ok"] and "refused the login" in str(found["imap"]["detail"])
    assert "password" in str(found["imap"]["fix"])
    assert found["round trip"]["skipped"] and relay.received == []


def test_doctor_names_a_wrong_port(tmp_path: Path, dovecot: DovecotServer,
                                   imap_user: tuple[str, str], relay: SmtpTestServer) -> None:
    config = write_config(tmp_path, {**good_imap(dovecot, imap_user), "port": free_port()},
                          {**good_smtp(relay), "port": free_port()})
    result, found = doctor(config)
    assert result.exit_code == 1
    for kind in ("imap", "smtp"):
        assert "nothing answers" in str(found[kind]["detail"]), found[kind]
        assert "port" in str(found[kind]["fix"])


def test_doctor_names_a_server_without_the_tls_the_config_asks_for(
        tmp_path: Path, dovecot: DovecotServer, imap_user: tuple[str, str],
        relay: SmtpTestServer) -> None:
    config = write_config(tmp_path, {**good_imap(dovecot, imap_user), "tls": "tls"},
                          {**good_smtp(relay), "tls": "starttls"})
    result, found = doctor(config)
    assert result.exit_code == 1
    assert "does not speak TLS" in str(found["imap"]["detail"]), found["imap"]
    assert "STARTTLS" in str(found["smtp"]["detail"]), found["smtp"]


def test_doctor_refuses_passwords_in_clear_to_another_machine(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"host": "mail.pbem.test", "port": 143, "user": "gm",
                                     "password": "x", "tls": "none"},
                          {"host": "mail.pbem.test", "port": 587, "tls": "none"})
    result, found = doctor(config)
    assert result.exit_code == 1
    for kind in ("imap", "smtp"):
        assert "in clear" in str(found[kind]["detail"]), found[kind]


def test_doctor_names_an_unwritable_maildir(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(cli, ["init", str(tmp_path)]).exit_code == 0
    outbox = tmp_path / "mail" / "outbox"
    for sub in ("new", "cur", "tmp"):
        (outbox / sub).rmdir()
    outbox.rmdir()
    outbox.write_text("not a folder")  # a file where the outbox should be
    result = runner.invoke(cli, ["--config", str(tmp_path / "gm.toml"), "doctor", "--json"])
    found = {f["check"]: f for f in json.loads(result.output)}
    assert result.exit_code == 1
    assert not found["maildir outbox"]["ok"] and "cannot be written" in str(
        found["maildir outbox"]["detail"])
    assert found["maildir inbox"]["ok"]


def test_doctor_passes_a_fresh_gm_init_folder(tmp_path: Path) -> None:
    """It runs; the doctor warns (exit status 0) that nobody would be told anything: gm
    init leaves [service] moderator_address empty."""
    runner = CliRunner()
    assert runner.invoke(cli, ["init", str(tmp_path)]).exit_code == 0
    result = runner.invoke(cli, ["--config", str(tmp_path / "gm.toml"), "doctor"])
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("gm can run here, but read the 1 warning above")
    assert "warn  moderator       [service] moderator_address is empty" in result.output
    assert not (tmp_path / "gm.db").exists()  # the doctor looks; it creates nothing


NO_MODERATOR = (
    "[service] moderator_address is empty: for the games that name no moderator of their "
    "own{here} and for mail that belongs to no game, nobody is told when a game is held "
    "because its phase raised, when a mail gm sent cannot be delivered or bounces, when a "
    "mail's handling fails, or when a mail loop is stopped")
SET_IT = ('set moderator_address = "you@example.org" in [service] of the config, then restart '
          "gm; a game's own moderator is set by gm game new --moderator or gm game moderator "
          "GAME --address")


def test_doctor_warns_that_without_a_moderator_address_nobody_is_told(tmp_path: Path) -> None:
    """Before, the doctor said "all good" with moderator_address empty, although the
    notices of held games, undelivered mail and bounces then went to nobody. It warns,
    names the games here that have no moderator of their own, and says how to set it; a
    warning is not a failure."""
    from tests.support import toygame  # noqa: F401  (registers "race")

    runner = CliRunner()
    config = tmp_path / "gm.toml"
    assert runner.invoke(cli, ["init", str(tmp_path)]).exit_code == 0
    for game, moderator in (("race1", []), ("race2", ["--moderator", "ref@example.org"])):
        made = runner.invoke(cli, ["--config", str(config), "game", "new", game, "--module",
                                   "race", "--scenario", "duel", "--seat", "north=n@example.org",
                                   "--seat", "south=s@example.org", *moderator])
        assert made.exit_code == 0, made.output
    result = runner.invoke(cli, ["--config", str(config), "doctor"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    at = lines.index("warn  moderator       " + NO_MODERATOR.format(here=" (here: race1)"))
    assert lines[at + 1] == f"{'':5} {'':15} fix: {SET_IT}"
    found = {f["check"]: f for f in json.loads(runner.invoke(
        cli, ["--config", str(config), "doctor", "--json"]).output)}
    assert found["moderator"]["warning"] and found["moderator"]["ok"]

    config.write_text(config.read_text().replace('moderator_address = ""',
                                                  'moderator_address = "mod@example.org"'))
    result = runner.invoke(cli, ["--config", str(config), "doctor"])
    assert result.exit_code == 0, result.output
    assert ("ok    moderator       mod@example.org is told of the games that name no moderator "
            "of their own, and of mail that belongs to no game") in result.output
    assert result.output.rstrip().endswith("all good: gm can run here")


# -- XOAUTH2 (Gmail, Microsoft 365) ------------------------------------------------------


@pytest.fixture(scope="module")
def provider() -> Iterator[OAuth2Stub]:
    stub = OAuth2Stub(user="gmoauth", rotate=True)
    stub.start()
    yield stub
    stub.stop()


@pytest.fixture(scope="module")
def oauth_dovecot(provider: OAuth2Stub) -> Iterator[DovecotServer]:
    if not dovecot_available():
        pytest.skip(f"{DOVECOT} not installed")
    server = DovecotServer(oauth2_introspection_url=f"{provider.base}/introspect")
    server.start()
    server.add_user("gmoauth", "unused-password")
    yield server
    server.cleanup()


def oauth_config(tmp_path: Path, provider: OAuth2Stub, dovecot: DovecotServer,
                 smtp: SmtpTestServer) -> Path:
    secrets = tmp_path / "secrets"
    secrets.mkdir(exist_ok=True)
    (secrets / "refresh-token").write_text(provider.refresh_token + "\n")
    (secrets / "client-secret").write_text(provider.client_secret)
    extra = (f'[oauth2]\ntoken_url = "{provider.base}/token"\nclient_id = "{provider.client_id}"\n'
             f'client_secret_file = "{secrets / "client-secret"}"\n'
             f'refresh_token_file = "{secrets / "refresh-token"}"\n')
    return write_config(
        tmp_path,
        {"host": dovecot.host, "port": dovecot.port, "user": "gmoauth", "auth": "xoauth2",
         "tls": "none"},
        {"host": smtp.host, "port": smtp.port, "user": "gmoauth", "auth": "xoauth2",
         "tls": "none"}, extra)


def test_doctor_passes_an_xoauth2_mailbox_and_keeps_the_rotated_refresh_token(
        tmp_path: Path, provider: OAuth2Stub, oauth_dovecot: DovecotServer) -> None:
    smtp = SmtpTestServer(deliver=relay_into(oauth_dovecot, "gmoauth", "unused-password"),  # type: ignore[arg-type]
                          oauth2_check=lambda user, token: provider.live.get(token) == user)
    smtp.start()
    try:
        config = oauth_config(tmp_path, provider, oauth_dovecot, smtp)
        result, found = doctor(config)
        assert result.exit_code == 0, result.output
        assert found["oauth2"]["ok"] and "read back" in str(found["round trip"]["detail"])
        # the provider rotated the refresh token; gm wrote the new one back for next time
        stored = (tmp_path / "secrets" / "refresh-token").read_text().strip()
        assert stored == provider.refresh_token and stored != "rt-0"
        # a refresh token the provider no longer honours is named, with the fix
        (tmp_path / "secrets" / "refresh-token").write_text("rt-revoked")
        result, found = doctor(config)
        assert result.exit_code == 1
        assert "invalid_grant" in str(found["oauth2"]["detail"])
        assert "docs/mailbox.md" in str(found["oauth2"]["fix"])
    finally:
        smtp.stop()


def test_imap_xoauth2_login_fetches_a_fresh_token_when_the_old_one_is_refused(
        tmp_path: Path, provider: OAuth2Stub, oauth_dovecot: DovecotServer) -> None:
    (tmp_path / "rt").write_text(provider.refresh_token)
    tokens = TokenSource(OAuth2Settings(token_url=f"{provider.base}/token",
                                        client_id=provider.client_id,
                                        client_secret=provider.client_secret,
                                        refresh_token_file=str(tmp_path / "rt")))
    settings = ImapSettings(host=oauth_dovecot.host, port=oauth_dovecot.port, user="gmoauth",
                            auth=AuthMode.XOAUTH2, tls=TlsMode.NONE, timeout=5.0)
    oauth_dovecot.append("gmoauth", "unused-password",
                         [b"From: a@pbem.test\r\nMessage-ID: <x1@pbem.test>\r\n\r\nhello\r\n"])
    source = ImapSource(settings, tokens=tokens, max_attempts=1)
    assert len(source.fetch_new()) >= 1
    source.close()
    provider.revoke_all()  # the provider ends every token early (a password change, a revocation)
    before = tokens.refreshes
    source = ImapSource(settings, tokens=tokens, max_attempts=1)
    assert len(source.fetch_new()) >= 1  # refused once, refreshed, logged in
    assert tokens.refreshes == before + 1
    source.close()


def test_token_source_refreshes_only_when_the_token_is_about_to_expire(
        tmp_path: Path, provider: OAuth2Stub) -> None:
    (tmp_path / "rt").write_text(provider.refresh_token)
    now = [1000.0]
    tokens = TokenSource(OAuth2Settings(token_url=f"{provider.base}/token",
                                        client_id=provider.client_id,
                                        client_secret=provider.client_secret,
                                        refresh_token_file=str(tmp_path / "rt")),
                         clock=lambda: now[0])
    first = tokens.access_token()
    now[0] += provider.lifetime - 120  # still two minutes to go: the same token
    assert tokens.access_token() == first and tokens.refreshes == 1
    now[0] += 90  # within the last minute: a new one
    assert tokens.access_token() != first and tokens.refreshes == 2


def test_mailbox_authorize_stores_the_refresh_token_the_provider_grants(
        tmp_path: Path, provider: OAuth2Stub) -> None:
    """The owner's browser is played by a GET of the redirect the provider would send."""
    secrets = tmp_path / "secrets"
    secrets.mkdir()
    (secrets / "client-secret").write_text(provider.client_secret)
    config = tmp_path / "gm.toml"
    config.write_text(
        f'[mail]\naddress = "{GM}"\ninbound = "imap"\n[imap]\nuser = "gmoauth"\nauth = "xoauth2"\n'
        f'[oauth2]\ntoken_url = "{provider.base}/token"\nclient_id = "{provider.client_id}"\n'
        f'client_secret_file = "{secrets / "client-secret"}"\n'
        f'refresh_token_file = "{secrets / "refresh-token"}"\nscope = "https://mail.google.com/"\n')
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", "from gm.cli.main import main; main()", "--config", str(config),
         "mailbox", "authorize", "--auth-url", "https://accounts.example/auth", "--port",
         str(port), "--timeout", "30"], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    proc.stdout.readline()
    consent = urllib.parse.urlsplit(proc.stdout.readline().strip())
    asked = dict(urllib.parse.parse_qsl(consent.query))
    assert asked["redirect_uri"] == f"http://127.0.0.1:{port}/" and asked["scope"]
    provider.codes["code-1"] = asked["code_challenge"]  # the provider saw the consent page
    back = urllib.parse.urlencode({"code": "code-1", "state": asked["state"]})
    with urllib.request.urlopen(f"{asked['redirect_uri']}?{back}", timeout=10) as page:
        assert page.status == 200
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0, out
    stored = (secrets / "refresh-token").read_text().strip()
    assert stored == provider.refresh_token and stored.startswith("rt-granted")
    assert (secrets / "refresh-token").stat().st_mode & 0o077 == 0
