"""A local OAuth2 provider for tests: a token endpoint and an introspection endpoint.

It plays Google's or Microsoft's part on loopback: ``POST /token`` exchanges a
refresh token for an access token (RFC 6749 §6), rotating the refresh token
when ``rotate`` is set, as Microsoft does; ``POST /introspect`` (RFC 7662) says
whether an access token is live and whose it is, which is how the test
Dovecot's oauth2 passdb checks an XOAUTH2 login.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import threading
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class OAuth2Stub:
    user: str
    client_id: str = "gm-client"
    client_secret: str = "gm-secret"
    refresh_token: str = "rt-0"
    rotate: bool = False
    lifetime: int = 3600
    live: dict[str, str] = field(default_factory=dict)  # access token -> user
    codes: dict[str, str] = field(default_factory=dict)  # authorization code -> PKCE challenge
    token_requests: int = 0
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def start(self) -> None:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                size = int(self.headers.get("Content-Length") or 0)
                form = dict(urllib.parse.parse_qsl(self.rfile.read(size).decode()))
                status, body = stub.answer(self.path, form)
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def answer(self, path: str, form: dict[str, str]) -> tuple[int, dict[str, object]]:
        if path == "/introspect":
            user = self.live.get(form.get("token", ""))
            return 200, ({"active": "true", "username": user} if user else {"active": "false"})
        if path != "/token":
            return 404, {"error": "not_found"}
        self.token_requests += 1
        if (form.get("client_id"), form.get("client_secret")) != (self.client_id,
                                                                   self.client_secret):
            return 401, {"error": "invalid_client"}
        if form.get("grant_type") == "authorization_code":
            challenge = self.codes.pop(form.get("code", ""), None)
            digest = hashlib.sha256(form.get("code_verifier", "").encode()).digest()
            if challenge != base64.urlsafe_b64encode(digest).rstrip(b"=").decode():
                return 400, {"error": "invalid_grant"}
            self.refresh_token = f"rt-granted-{len(self.live)}"
            token = f"at-{next(self._ids)}"
            self.live[token] = self.user
            return 200, {"access_token": token, "expires_in": self.lifetime,
                         "refresh_token": self.refresh_token}
        if form.get("grant_type") != "refresh_token" or form.get("refresh_token") != \
                self.refresh_token:
            return 400, {"error": "invalid_grant"}
        token = f"at-{next(self._ids)}"
        self.live[token] = self.user
        body: dict[str, object] = {"access_token": token, "token_type": "Bearer",
                                   "expires_in": self.lifetime}
        if self.rotate:
            self.refresh_token = f"rt-{token}"
            body["refresh_token"] = self.refresh_token
        return 200, body

    def revoke_all(self) -> None:
        self.live.clear()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
