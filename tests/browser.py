"""Headless Chromium (Debian's ``chromium``) driven over the DevTools protocol: open a page, take screenshots."""

from __future__ import annotations

import asyncio
import base64
import shutil
import socket
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp

CALL_SECONDS = 30.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Page:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self._ws = ws
        self._next = 0

    async def call(self, method: str, seconds: float = CALL_SECONDS, **params: Any) -> dict[str, Any]:
        """Chromium's answer, or TimeoutError: a test must fail, never hang, when it does not answer."""
        self._next += 1
        number = self._next
        await self._ws.send_json({"id": number, "method": method, "params": params})

        async def answer() -> dict[str, Any]:
            while True:
                message = await self._ws.receive_json()
                if message.get("id") == number:  # a late answer to an earlier call is skipped
                    return dict(message.get("result") or {})

        return await asyncio.wait_for(answer(), seconds)

    async def screenshot(self) -> bytes:
        """A PNG of the page as it is now (asked again while the page is still loading, or busy)."""
        for _ in range(100):
            try:
                result = await self.call("Page.captureScreenshot", seconds=10, format="png")
            except TimeoutError:
                continue
            if "data" in result:
                return base64.b64decode(result["data"])
            await asyncio.sleep(0.2)
        raise AssertionError("chromium gave no screenshot")


@asynccontextmanager
async def chromium_page(url: str, size: tuple[int, int] = (1400, 900)) -> AsyncIterator[Page]:
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    assert binary, "chromium is not installed (.ci/run installs Debian's chromium)"
    port = free_port()
    process = subprocess.Popen([binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                f"--remote-debugging-port={port}", f"--window-size={size[0]},{size[1]}",
                                "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        async with aiohttp.ClientSession() as http:
            pages: list[dict[str, Any]] = []
            for _ in range(150):
                try:
                    async with http.get(f"http://127.0.0.1:{port}/json") as response:
                        pages = [p for p in await response.json() if p["type"] == "page"]
                except aiohttp.ClientError:
                    pages = []
                if pages:
                    break
                await asyncio.sleep(0.2)
            assert pages, "chromium did not open its debugging port"
            async with http.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                page = Page(ws)
                await page.call("Page.navigate", url=url)
                yield page
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
