"""OAuth2 access tokens for XOAUTH2 logins (Gmail, Microsoft 365).

Those providers no longer take a mailbox password from a program: the program
logs in with a short-lived *access token*, which it gets from the provider's
token endpoint in exchange for a long-lived *refresh token* (RFC 6749 §6).
gm keeps the refresh token in a secrets file (``[oauth2] refresh_token_file``),
refreshes the access token itself shortly before it expires, and writes a new
refresh token back to that file when the provider rotates it (Microsoft does).

The same :class:`TokenSource` serves the IMAP source (a worker thread) and the
SMTP sink (the event loop), so it is thread-safe. How to get the first refresh
token for each provider is in docs/mailbox.md.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Refresh this long before the provider's expiry, so a token never dies mid-login.
EXPIRY_MARGIN = 60.0
DEFAULT_LIFETIME = 3600.0


@dataclass(frozen=True)
class OAuth2Settings:
    """The ``[oauth2]`` table: the provider's token endpoint and gm's client."""

    token_url: str = ""
    client_id: str = ""
    client_secret: str = field(default="", repr=False)
    refresh_token_file: str = ""
    scope: str = ""
    timeout: float = 30.0

    def missing(self) -> list[str]:
        """The options an XOAUTH2 login cannot do without, by name."""
        needed = ("token_url", "client_id", "refresh_token_file")
        return [f"oauth2.{name}" for name in needed if not getattr(self, name)]


class TokenError(RuntimeError):
    """No access token could be had; the message says why and what to do."""


Opener = Callable[..., Any]


class TokenSource:
    """Hands out a valid access token, refreshing it when it is about to expire."""

    def __init__(self, settings: OAuth2Settings, *, clock: Callable[[], float] = time.time,
                 opener: Opener = urllib.request.urlopen) -> None:
        self.settings = settings
        self._clock = clock
        self._open = opener
        self._lock = threading.Lock()
        self._token = ""
        self._expires = 0.0
        self.refreshes = 0

    def access_token(self) -> str:
        """A token valid for at least :data:`EXPIRY_MARGIN` seconds more."""
        with self._lock:
            if not self._token or self._clock() >= self._expires - EXPIRY_MARGIN:
                self._refresh()
            return self._token

    def invalidate(self) -> None:
        """Forget the token (the server refused it): the next call refreshes."""
        with self._lock:
            self._token, self._expires = "", 0.0

    def _refresh(self) -> None:
        s = self.settings
        form = {"grant_type": "refresh_token", "refresh_token": self._read_refresh_token(),
                "client_id": s.client_id}
        if s.client_secret:
            form["client_secret"] = s.client_secret
        if s.scope:
            form["scope"] = s.scope
        answer = self._post(form)
        token = answer.get("access_token")
        if not isinstance(token, str) or not token:
            raise TokenError(f"the token endpoint {s.token_url} answered without an access_token")
        lifetime = float(answer.get("expires_in") or DEFAULT_LIFETIME)
        self._token, self._expires = token, self._clock() + lifetime
        rotated = answer.get("refresh_token")
        if isinstance(rotated, str) and rotated:
            self._write_refresh_token(rotated)
        self.refreshes += 1

    def exchange_code(self, code: str, redirect_uri: str, verifier: str) -> str:
        """Trade an authorization code (RFC 6749 §4.1.3, PKCE RFC 7636) for tokens.

        Stores the refresh token in ``refresh_token_file`` and keeps the access
        token; returns the refresh token. ``gm mailbox authorize`` uses it once.
        """
        s = self.settings
        form = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri,
                "client_id": s.client_id, "code_verifier": verifier}
        if s.client_secret:
            form["client_secret"] = s.client_secret
        answer = self._post(form)
        refresh = answer.get("refresh_token")
        if not isinstance(refresh, str) or not refresh:
            raise TokenError("the provider gave no refresh token: ask for offline access "
                             "(Google: access_type=offline and prompt=consent; Microsoft: the "
                             "offline_access scope)")
        with self._lock:
            self._write_refresh_token(refresh)
            token = answer.get("access_token")
            if isinstance(token, str) and token:
                lifetime = float(answer.get("expires_in") or DEFAULT_LIFETIME)
                self._token, self._expires = token, self._clock() + lifetime
        return refresh

    def _post(self, form: dict[str, str]) -> dict[str, Any]:
        s = self.settings
        request = urllib.request.Request(
            s.token_url, data=urllib.parse.urlencode(form).encode(),
            headers={"Content-Type": "application/x-www-form-urlencoded",
                     "Accept": "application/json"})
        try:
            with self._open(request, timeout=s.timeout) as response:
                body = response.read()
        except urllib.error.HTTPError as exc:
            raise TokenError(_refusal(s.token_url, exc)) from exc
        except (urllib.error.URLError, OSError) as exc:
            raise TokenError(f"the token endpoint {s.token_url} cannot be reached: {exc}") from exc
        try:
            answer = json.loads(body)
        except ValueError as exc:
            raise TokenError(f"the token endpoint {s.token_url} did not answer JSON") from exc
        if not isinstance(answer, dict):
            raise TokenError(f"the token endpoint {s.token_url} did not answer a JSON object")
        return answer

    def _read_refresh_token(self) -> str:
        path = Path(self.settings.refresh_token_file)
        try:
            token = path.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise TokenError(f"oauth2.refresh_token_file: cannot read {path}: {exc}") from exc
        if not token:
            raise TokenError(f"oauth2.refresh_token_file: {path} is empty; "
                             "put the provider's refresh token in it (docs/mailbox.md)")
        return token

    def _write_refresh_token(self, token: str) -> None:
        """Replace the file atomically, readable by its owner only."""
        path = Path(self.settings.refresh_token_file)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".refresh-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(token + "\n")
            os.chmod(tmp, 0o600)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def _refusal(url: str, exc: urllib.error.HTTPError) -> str:
    try:
        detail = json.loads(exc.read() or b"{}")
    except ValueError:
        detail = {}
    code = detail.get("error", "") if isinstance(detail, dict) else ""
    if code == "invalid_grant":
        return (f"the token endpoint {url} refused the refresh token (invalid_grant): it was "
                "revoked or has expired; get a new one as docs/mailbox.md says")
    if code == "invalid_client":
        return (f"the token endpoint {url} refused the client (invalid_client): "
                "check oauth2.client_id and client_secret")
    return f"the token endpoint {url} refused the request: HTTP {exc.code} {code}".strip()


def pkce_pair() -> tuple[str, str]:
    """A PKCE code verifier and its S256 challenge (RFC 7636 §4.1-4.2)."""
    verifier = base64.urlsafe_b64encode(secrets.token_bytes(48)).rstrip(b"=").decode()
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
