"""``gm mailbox authorize``: get the OAuth2 refresh token gm needs for XOAUTH2, once.

The authorization-code flow for installed programs (RFC 8252): gm prints the
provider's consent page, the mailbox's owner signs in and allows access in any
browser on this machine, the provider redirects to a one-shot listener on
127.0.0.1, and gm trades the code (with PKCE, RFC 7636) for a refresh token,
stored in ``[oauth2] refresh_token_file``. docs/mailbox.md has each provider's
values.
"""

from __future__ import annotations

import secrets
import time
import urllib.parse
from datetime import datetime
from http.server import BaseHTTPRequestHandler, HTTPServer

import click

from gm.cli.app import App, counted, pass_app


@click.group()
def mailbox() -> None:
    """The service's own mailbox (see also `gm doctor`)."""


@mailbox.command()
@click.option("--auth-url", required=True, metavar="URL",
              help="The provider's authorization endpoint (docs/mailbox.md lists them).")
@click.option("--port", default=0, show_default=True,
              help="Loopback port for the provider's redirect (0: any free port).")
@click.option("--timeout", default=600.0, show_default=True,
              help="Seconds to wait for the browser.")
@pass_app
def authorize(app: App, auth_url: str, port: int, timeout: float) -> None:
    """Sign the mailbox in with OAuth2 once and store its refresh token."""
    from gm.mail.oauth2 import TokenSource, pkce_pair

    settings = app.config.mail_settings().oauth2
    missing = settings.missing()
    if missing:
        raise click.ClickException(f"set {', '.join(missing)} in the config first (docs/mailbox.md)")
    verifier, challenge = pkce_pair()
    state = secrets.token_urlsafe(16)
    answers: dict[str, str] = {}

    class Redirect(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            answers.update(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query))
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.end_headers()
            self.wfile.write(b"gm has the answer; you may close this page.\n")

        def log_message(self, *args: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", port), Redirect)
    redirect = f"http://127.0.0.1:{server.server_port}/"
    query = {"client_id": settings.client_id, "redirect_uri": redirect, "response_type": "code",
             "scope": settings.scope, "state": state, "code_challenge": challenge,
             "code_challenge_method": "S256", "access_type": "offline", "prompt": "consent"}
    click.echo("Open this address in a browser on this machine, sign in as the owner of the "
               "mailbox and allow access:")
    click.echo(f"  {auth_url}?{urllib.parse.urlencode(query)}", nl=True)
    deadline = time.monotonic() + timeout
    server.timeout = 1.0
    try:
        while "code" not in answers and "error" not in answers and time.monotonic() < deadline:
            server.handle_request()
    finally:
        server.server_close()
    if "error" in answers:
        raise click.ClickException(f"the provider said no: {answers['error']} "
                                   f"{answers.get('error_description', '')}".strip())
    if "code" not in answers:
        raise click.ClickException(f"no answer from the browser within {timeout:.0f} s")
    if answers.get("state") != state:
        raise click.ClickException("the answer did not carry this request's state: ignored")
    TokenSource(settings).exchange_code(answers["code"], redirect, verifier)
    click.echo(f"refresh token stored in {settings.refresh_token_file}; "
               "now run `gm doctor` to check the mailbox")


@mailbox.command()
@click.option("--since", required=True, type=click.DateTime(formats=["%Y-%m-%d"]),
              metavar="YYYY-MM-DD",
              help="The day the restored backup was made: mail from that day on is read again.")
@pass_app
def reread(app: App, since: datetime) -> None:
    """Have gm read again the mail it handled since a day: after restoring the database
    from a backup, the orders mailed since then (deploy/README.md, "What to back up").
    Mail the restored database knows is not answered twice."""
    from gm.mail.config import InboundKind
    from gm.mail.factory import token_source
    from gm.mail.imap_source import ImapSource
    from gm.mail.reread import reread_since

    mail = app.config.mail_settings()
    if mail.inbound is not InboundKind.IMAP:
        where = f"{mail.maildir.processed or mail.maildir.inbox}/cur"
        raise click.ClickException(
            f"gm reads a Maildir: move the mails handled since {since:%Y-%m-%d} from {where} "
            f"back into {mail.maildir.inbox}/new")
    source = ImapSource(mail.imap, max_attempts=1, tokens=token_source(mail))
    try:
        count = reread_since(source, since.date())
    finally:
        source.close()
    click.echo(f"{counted(count, 'mail', 'mails')} in {mail.imap.folder} since "
               f"{since:%Y-%m-%d} will be read again by gm serve")
