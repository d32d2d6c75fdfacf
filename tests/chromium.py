"""Headless Chromium for the tests and the docs' screenshots: a page to PNG over the DevTools pipe, PNG to pixels.

`chromium --screenshot` gives a blank image in some containers; the DevTools protocol's
`Page.captureScreenshot` does not. Standard library only.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path


def chromium() -> str | None:
    """The Chromium binary, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def screenshot(url: str, width: int = 1000, height: int = 800, full_page: bool = False,
               env: dict[str, str] | None = None, timeout: float = 60) -> bytes:
    """A PNG of the page at `url`.

    Args:
        url: What to open (`file://...`).
        width: Viewport width in CSS pixels.
        height: Viewport height (the least height with `full_page`).
        full_page: Capture the whole page, not only the viewport.
        env: Environment of the browser (e.g. `FONTCONFIG_FILE`).
        timeout: Seconds before the browser is killed.

    Returns:
        The PNG bytes.
    """
    profile = tempfile.mkdtemp(prefix="fc-chromium-")
    to_browser, from_browser = os.pipe(), os.pipe()

    def pipes() -> None:  # the DevTools pipe is fd 3 (commands in) and fd 4 (replies out)
        inp, out = os.dup(to_browser[0]), os.dup(from_browser[1])
        os.dup2(inp, 3)
        os.dup2(out, 4)

    proc = subprocess.Popen(
        [chromium(), "--headless", "--no-sandbox", "--no-first-run", "--hide-scrollbars", "--disable-gpu",
         "--disable-background-networking", f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"],
        preexec_fn=pipes, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, **(env or {})})
    os.close(to_browser[0])
    os.close(from_browser[1])
    talk = _Pipe(to_browser[1], from_browser[0])
    try:
        target = talk.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = talk.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        talk.call("Page.enable", session=session)
        talk.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session)
        talk.call("Page.navigate", {"url": url}, session)
        talk.wait_event("Page.loadEventFired")
        if full_page:
            size = talk.call("Page.getLayoutMetrics", session=session)["cssContentSize"]
            talk.call("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": max(height, int(size["height"])), "deviceScaleFactor": 1,
                       "mobile": False}, session)
        data = talk.call("Page.captureScreenshot", {"format": "png"}, session)["data"]
        talk.send("Browser.close")
        proc.wait(timeout=timeout)
        return base64.b64decode(data)
    finally:
        if proc.poll() is None:
            proc.kill()
        talk.close()
        shutil.rmtree(profile, ignore_errors=True)


class _Pipe:
    """The DevTools protocol over a pipe: JSON messages ended by NUL."""

    def __init__(self, out: int, inp: int) -> None:
        self.out, self.inp, self.buf, self.next_id = out, inp, b"", 0

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> int:
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.out, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def _read(self) -> dict:
        while b"\0" not in self.buf:
            chunk = os.read(self.inp, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        wanted = self.send(method, params, session)
        while True:
            msg = self._read()
            if msg.get("id") == wanted:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg["result"]

    def wait_event(self, method: str) -> dict:
        while True:
            msg = self._read()
            if msg.get("method") == method:
                return msg

    def close(self) -> None:
        for fd in (self.out, self.inp):
            try:
                os.close(fd)
            except OSError:
                pass


def pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and rows of RGB(A) bytes of an 8-bit, non-interlaced PNG (what Chromium writes)."""
    pos, idat, width, height, channels = 8, b"", 0, 0, 3
    while pos < len(png):
        (size,) = struct.unpack(">I", png[pos:pos + 4])
        kind, body = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + size]
        pos += 12 + size
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and interlace == 0 and color in (2, 6), (depth, color, interlace)
            channels = 4 if color == 6 else 3
        elif kind == b"IDAT":
            idat += body
    raw, stride, rows, prev = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b, c = prev[x], prev[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows


def ink(png: bytes) -> list[tuple[int, int]]:
    """The dark pixels `(x, y)` of a screenshot (text)."""
    width, _, rows = pixels(png)
    channels = len(rows[0]) // width
    return [(x, y) for y, row in enumerate(rows) for x in range(width)
            if sum(row[x * channels:x * channels + 3]) < 3 * 128]


def no_cjk_fonts(tmp: Path) -> dict[str, str]:
    """An environment whose fontconfig knows only DejaVu (no CJK glyph): what a machine without a CJK font shows."""
    conf = tmp / "fonts.conf"
    conf.write_text('<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
                    "<dir>/usr/share/fonts/truetype/dejavu</dir>"
                    f"<cachedir>{tmp / 'fc-cache'}</cachedir></fontconfig>", encoding="utf-8")
    return {"FONTCONFIG_FILE": str(conf)}
