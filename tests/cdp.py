"""A headless Chromium driven over the DevTools protocol through a pipe (no extra packages):
enough to load a page, run JavaScript in it and read the clipboard."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class Browser:
    """One Chromium process; `open_page` gives a session id for `evaluate`."""

    def __init__(self) -> None:
        self.profile = tempfile.mkdtemp(prefix="scholarsite-chromium-")
        to_chrome, self._out = os.pipe()
        self._in, from_chrome = os.pipe()

        def wire_pipes() -> None:  # Chromium reads commands on fd 3 and answers on fd 4
            a, b = os.dup(to_chrome), os.dup(from_chrome)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [str(CHROMIUM), *FLAGS, f"--user-data-dir={self.profile}",
             "--remote-debugging-pipe", "about:blank"],
            preexec_fn=wire_pipes, close_fds=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome)
        os.close(from_chrome)
        self._buffer = b""
        self._next_id = 0

    def send(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float = 20) -> dict:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._out, json.dumps(message).encode("utf-8") + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" not in self._buffer:
                if time.monotonic() > deadline:
                    raise TimeoutError(method)
                chunk = os.read(self._in, 1 << 16)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe")
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def open_page(self, url: str, scripts: bool = True) -> str:
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"]
        if not scripts:
            self.send("Emulation.setScriptExecutionDisabled", {"value": True}, session)
        self.send("Page.enable", {}, session)
        self.send("Page.navigate", {"url": url}, session)
        for _ in range(200):
            if self.evaluate(session, "document.readyState") == "complete" and \
                    self.evaluate(session, "location.href") == url:
                return session
            time.sleep(0.05)
        raise TimeoutError(url)

    def evaluate(self, session: str, expression: str) -> object:
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                "userGesture": True, "returnByValue": True},
                           session)
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=5)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._out)
        os.close(self._in)
        shutil.rmtree(self.profile, ignore_errors=True)
