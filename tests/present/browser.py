"""Headless Chromium driven over the DevTools protocol (a websocket), for the browser tests.

Debian's ``chromium`` is started with ``--headless --no-sandbox`` and background
networking off; one page target is attached in flat mode, and console messages,
log entries and uncaught exceptions are collected as errors.
"""

from __future__ import annotations

import base64
import itertools
import json
import re
import shutil
import subprocess
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

FLAGS = ["--headless=new", "--no-sandbox", "--disable-background-networking", "--disable-gpu",
         "--disable-extensions", "--disable-sync", "--no-first-run", "--mute-audio",
         "--disable-component-update", "--disable-default-apps", "--remote-debugging-port=0",
         "--window-size=800,1200"]


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    def __init__(self, profile: Path) -> None:
        exe = chromium_path()
        assert exe
        self.proc = subprocess.Popen([exe, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        url = None
        deadline = time.monotonic() + 30
        assert self.proc.stderr is not None
        while url is None and time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            m = re.search(r"DevTools listening on (ws://\S+)", line)
            url = m.group(1) if m else None
        assert url, "chromium did not start"
        self._stack = ExitStack()
        self.ws = self._stack.enter_context(connect(url, max_size=None, open_timeout=20))
        self.ids = itertools.count(1)
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.errors: list[str] = []
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable", session=True)

    def call(self, method: str, session: bool = False, **params: Any) -> dict[str, Any]:
        n = next(self.ids)
        msg: dict[str, Any] = {"id": n, "method": method, "params": params}
        if session:
            msg["sessionId"] = self.session
        self.ws.send(json.dumps(msg))
        while True:
            reply = json.loads(self.ws.recv(timeout=30))
            if reply.get("id") == n:
                assert "error" not in reply, reply
                return reply.get("result", {})
            self._event(reply)

    def _event(self, ev: dict[str, Any]) -> None:
        method, p = ev.get("method"), ev.get("params", {})
        if method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            self.errors.append(json.dumps(p.get("args")))
        elif method == "Runtime.exceptionThrown":
            self.errors.append(json.dumps(p.get("exceptionDetails")))
        elif method == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            self.errors.append(p["entry"].get("text", "") + " " + p["entry"].get("url", ""))
        elif method == "Page.loadEventFired":
            self.loaded = True

    def open(self, url: str) -> None:
        self.loaded = False
        self.call("Page.navigate", session=True, url=url)
        deadline = time.monotonic() + 30
        while not self.loaded and time.monotonic() < deadline:
            self._event(json.loads(self.ws.recv(timeout=30)))
        assert self.loaded, f"{url} did not load"

    def js(self, expression: str) -> Any:
        r = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True,
                      awaitPromise=True)
        assert "exceptionDetails" not in r, r
        return r["result"].get("value")

    def screenshot(self, path: Path) -> bytes:
        data = base64.b64decode(self.call("Page.captureScreenshot", session=True, format="png",
                                          captureBeyondViewport=True)["data"])
        path.write_bytes(data)
        return data

    def close(self) -> None:
        try:
            self._stack.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
