"""``maic-tui serve`` under attack: another origin or a foreign Host is refused (a raw WebSocket client, and a page of
another origin in headless Chromium), classes are capped, a tab's terminal size is bounded, a tab that goes at
once leaves no process, SIGTERM to the server ends every app, and a tab cannot touch the server's settings."""

from __future__ import annotations

import asyncio
import json
import signal
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import aiohttp
import pytest

from maic_tui.serve.request_guards import Served
from maic_tui.serve.tab import MAX_COLUMNS, MAX_ROWS, clamp_size
from tests.browser import chromium_page
from tests.serving import alive, serving


def test_only_the_served_address_and_its_pages_are_let_in() -> None:
    served = Served.at("http://127.0.0.1:8000", 8000)
    assert served.refusal("127.0.0.1:8000", None) is None
    assert served.refusal("localhost:8000", "http://localhost:8000") is None
    assert served.refusal("127.0.0.1:8000", "http://127.0.0.1:8000/") is None
    assert "not this server's" in (served.refusal("evil.example:8000", None) or "")  # DNS rebinding
    assert "not this server's" in (served.refusal(None, None) or "")
    for origin in ("http://127.0.0.1:9000", "https://127.0.0.1:8000", "http://evil.example", "null"):
        assert "may not open" in (served.refusal("127.0.0.1:8000", origin) or ""), origin
    proxied = Served.at("https://class.example", 8000)
    assert proxied.refusal("class.example", "https://class.example") is None
    assert proxied.refusal("127.0.0.1:8000", "https://class.example") is None  # a proxy on this machine
    assert proxied.refusal("class.example", "http://class.example") is not None


def test_a_tab_cannot_ask_for_a_huge_terminal() -> None:
    assert clamp_size(20_000, 20_000) == (MAX_COLUMNS, MAX_ROWS)
    assert clamp_size("-5", "x") == (20, 24) and clamp_size(None, 0) == (80, 8) and clamp_size(150, 40) == (150, 40)


async def _refused(url: str, **headers: str) -> int:
    async with aiohttp.ClientSession() as http:
        with pytest.raises(aiohttp.WSServerHandshakeError) as caught:
            await http.ws_connect(url, headers=headers)
    return caught.value.status


async def test_a_websocket_from_another_origin_or_host_is_refused_and_starts_nothing(tmp_path: Path) -> None:
    with serving(tmp_path, "water-cycle") as server:
        ws = f"{server.url}/ws?width=80&height=24"
        assert await _refused(ws, Origin="http://evil.example") == 403
        assert await _refused(ws, Origin=f"http://127.0.0.1:{server.port + 1}") == 403
        assert await _refused(ws, Host=f"evil.example:{server.port}") == 403
        async with aiohttp.ClientSession() as http:
            async with http.get(server.url + "/", headers={"Host": "rebound.example"}) as page:
                assert page.status == 403
            async with http.get(server.url + "/") as page:
                assert page.status == 200 and page.headers["X-Frame-Options"] == "DENY"
                assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
        assert server.tabs() == []


async def _screen_bytes(url: str, seconds: float) -> int:
    """Connect as the browser client does, with a huge size, ask for a bigger one, and count what comes back."""
    received = 0
    async with aiohttp.ClientSession() as http, http.ws_connect(url, origin=url.replace("ws:", "http:")
                                                                 .split("/ws")[0], max_msg_size=0) as ws:
        await ws.send_str(json.dumps(["resize", {"width": 50_000, "height": 50_000}]))
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = await ws.receive(timeout=left)
            except TimeoutError:
                break
            if message.type == aiohttp.WSMsgType.BINARY:
                received += len(message.data)
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                break
    return received


async def test_classes_are_capped_and_a_huge_window_is_drawn_at_the_capped_size(tmp_path: Path) -> None:
    with serving(tmp_path, "water-cycle", "--max-classes", "1") as server:
        ws = f"ws://127.0.0.1:{server.port}/ws?width=20000&height=20000"
        async with aiohttp.ClientSession() as http, http.ws_connect(ws, origin=server.url) as first:
            server.wait_for_tabs(1)
            async with http.get(server.url + "/") as page:
                text = await page.text()
                assert page.status == 503 and "All 1 classes on this server are in use" in text
            assert await _refused(ws, Origin=server.url) == 503
            await first.close()
        server.wait_for_tabs(0, seconds=15)
        sent = await _screen_bytes(ws, 8)
        # A 20000 x 20000 screen is 400 million cells; the capped one draws in well under 4 MB.
        assert 10_000 < sent < 4_000_000, sent


async def test_a_tab_that_goes_at_once_leaves_no_app_running(tmp_path: Path) -> None:
    with serving(tmp_path, "water-cycle") as server:
        async with aiohttp.ClientSession() as http:
            for _ in range(3):
                ws = await http.ws_connect(f"ws://127.0.0.1:{server.port}/ws", origin=server.url)
                await ws.close()
        apps = server.tabs()
        deadline = time.monotonic() + 20
        while any(alive(pid) for pid in apps) or server.tabs():
            assert time.monotonic() < deadline, "an app outlived its tab"
            await asyncio.sleep(0.2)


async def test_sigterm_to_the_server_ends_every_app_and_the_server(tmp_path: Path) -> None:
    with serving(tmp_path, "water-cycle") as server:
        async with aiohttp.ClientSession() as http:
            sockets = [await http.ws_connect(f"ws://127.0.0.1:{server.port}/ws", origin=server.url) for _ in range(2)]
            apps = server.wait_for_tabs(2)
            await asyncio.sleep(3)  # both classes are drawing
            server.process.send_signal(signal.SIGTERM)
            code = await asyncio.to_thread(server.process.wait, 30)
            for socket in sockets:
                await socket.close()
        assert code == 143 and not [pid for pid in apps if alive(pid)]


class _HostilePage(BaseHTTPRequestHandler):
    """Another origin's page: it tries to open a class on the server and says in its title what happened."""

    target = ""

    def do_GET(self) -> None:
        body = (f"<script>const s = new WebSocket('{self.target}');"
                "s.onopen = () => document.title = 'open'; s.onerror = () => document.title = 'refused';"
                "</script>").encode()
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


async def test_a_page_of_another_origin_cannot_connect_in_a_real_browser(tmp_path: Path) -> None:
    with serving(tmp_path, "water-cycle") as server:
        _HostilePage.target = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        hostile = ThreadingHTTPServer(("127.0.0.1", 0), _HostilePage)
        threading.Thread(target=hostile.serve_forever, daemon=True).start()
        try:
            async with chromium_page(f"http://127.0.0.1:{hostile.server_address[1]}/") as page:
                deadline = time.monotonic() + 30
                title = ""
                while title not in ("open", "refused"):
                    assert time.monotonic() < deadline, "the hostile page never finished trying"
                    await asyncio.sleep(0.3)
                    result = await page.call("Runtime.evaluate", expression="document.title")
                    title = result.get("result", {}).get("value", "")
        finally:
            hostile.shutdown()
        assert title == "refused" and server.tabs() == []
