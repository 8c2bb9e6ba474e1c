"""``maic-tui serve``'s web server: an aiohttp app of our own around textual-serve's browser client.

textual-serve's own server checks neither the ``Origin`` nor the ``Host`` of a request, starts each tab's app
through a shell that nothing ends, and sets no limits, so it is replaced, not wrapped; its client (script,
styles, font) is served as it ships. Every request passes the address guard (``guards``); each tab is one
``TabApp``, at most ``max_classes`` at once; a tab's app ends when its connection closes, and every app ends
before the server does, whatever stops it (Ctrl-C, SIGTERM, SIGHUP).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from maic_tui.serve.page import class_page, full_page
from maic_tui.serve.request_guards import Served
from maic_tui.serve.tab import TabApp, clamp_size
from maic_tui.text_safety import one_line

MAX_MESSAGE = 64 * 1024  # a browser sends keys, sizes and pings: small JSON arrays
HEADERS = {
    # No other site may frame a class (and trick a learner into clicks on it), nor learn where it came from.
    "Content-Security-Policy": "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


def client_folder() -> Path:
    """textual-serve's browser client, as installed."""
    import textual_serve

    return Path(textual_serve.__file__).parent / "static"


class ClassServer:
    def __init__(self, argv: Sequence[str], env: dict[str, str], public_url: str, port: int, max_classes: int,
                 title: str = "maic-tui", log: Callable[[str], None] | None = None) -> None:
        self.argv, self.env = list(argv), env | _driver_environment()
        self.public_url = public_url.rstrip("/")
        self.served = Served.at(self.public_url, port)
        self.max_classes, self.title = max_classes, title
        self.tabs: set[TabApp] = set()
        self.log = log or (lambda line: print(f"maic-tui serve: {line}", file=sys.stderr, flush=True))
        self._stopping = False

    # --- the web app ----------------------------------------------------------------------------------

    def make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=MAX_MESSAGE)
        app.add_routes([web.get("/", self.page), web.get("/ws", self.websocket),
                        web.static("/static", client_folder(), show_index=False)])
        app.on_response_prepare.append(self._headers)
        app.on_shutdown.append(self._shutdown)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                     ) -> web.StreamResponse:
        refusal = self.served.refusal(request.headers.get("Host"), request.headers.get("Origin"))
        if refusal is not None:
            self.log(one_line(f"refused {request.method} {request.path}: {refusal}", 300))
            return web.Response(status=403, text=f"Forbidden: {refusal}.\n")
        return await handler(request)

    @staticmethod
    async def _headers(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(HEADERS)

    async def page(self, request: web.Request) -> web.Response:
        static = f"{self.public_url}/static/"
        if len(self.tabs) >= self.max_classes:
            return web.Response(status=503, text=full_page(self.title, static, self.max_classes),
                                content_type="text/html", headers={"Retry-After": "30"})
        scheme, _, rest = self.public_url.partition("://")
        socket = f"{'wss' if scheme == 'https' else 'ws'}://{rest}/ws"
        size = max(8, min(32, _number(request.query.get("fontsize"), 16)))
        return web.Response(text=class_page(self.title, static, socket, size), content_type="text/html")

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        if self._stopping or len(self.tabs) >= self.max_classes:
            return web.Response(status=503, text="All classes on this server are in use.\n")
        socket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        width, height = clamp_size(request.query.get("width"), request.query.get("height"))

        async def on_exit() -> None:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await socket.close()

        tab = TabApp(self.argv, self.env, socket.send_bytes, on_exit)
        self.tabs.add(tab)  # before any await: two tabs opening at once cannot both take the last place
        self.log(f"a class opened ({len(self.tabs)} of at most {self.max_classes})")
        try:
            await socket.prepare(request)
            if await tab.start(width, height):
                await self._listen(socket, tab)
            else:
                self.log(one_line("a class failed to start: " + tab.errors.decode("utf-8", "replace")[-300:], 400))
        finally:
            status = await tab.stop()
            self.tabs.discard(tab)
            self.log(f"a class closed (exit {status}; {len(self.tabs)} open)")
            with contextlib.suppress(ConnectionError, RuntimeError):
                await socket.close()
        return socket

    async def _listen(self, socket: web.WebSocketResponse, tab: TabApp) -> None:
        """What the browser sends, as textual-serve's client sends it: ``[type, data]`` arrays."""
        async for message in socket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                kind, *rest = json.loads(message.data)
            except (ValueError, TypeError):
                continue  # not what the client sends: ignored, never a crash
            data = rest[0] if rest else None
            if kind == "stdin" and isinstance(data, str):
                await tab.send_keys(data)
            elif kind == "resize" and isinstance(data, dict):
                await tab.resize(data.get("width"), data.get("height"))
            elif kind == "ping" and isinstance(data, str):
                with contextlib.suppress(ConnectionError):  # the tab closed meanwhile
                    await socket.send_json(["pong", data[:64]])
            elif kind in ("blur", "focus"):
                await tab.meta({"type": kind})

    async def _shutdown(self, app: web.Application) -> None:
        """Before the server goes: every class's app ends (at once, all together)."""
        self._stopping = True
        await asyncio.gather(*(tab.stop() for tab in list(self.tabs)), return_exceptions=True)

    # --- running ----------------------------------------------------------------------------------------

    async def run(self, host: str, port: int, started: Callable[[], None]) -> int:
        """Serve until SIGINT, SIGTERM or SIGHUP; 128 + the signal's number."""
        runner = web.AppRunner(self.make_app(), access_log=None, handle_signals=False)
        await runner.setup()
        loop = asyncio.get_running_loop()
        stopped: asyncio.Future[int] = loop.create_future()

        def stop(number: int) -> None:
            if not stopped.done():
                stopped.set_result(number)

        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(number, stop, int(number))
        try:
            await web.TCPSite(runner, host, port, shutdown_timeout=5).start()
            started()
            return 128 + await stopped
        finally:
            await runner.cleanup()  # runs _shutdown: the apps end before this returns


def _driver_environment() -> dict[str, str]:
    """What a tab's app needs to draw for a browser: our web driver (which notices a closed tab) and colours."""
    return {"TEXTUAL_DRIVER": "maic_tui.tui.terminal:ServedTerminal", "TEXTUAL_FPS": "30",
            "TEXTUAL_COLOR_SYSTEM": "truecolor", "TERM_PROGRAM": "textual",
            "TERM_PROGRAM_VERSION": version("textual-serve")}


def _number(value: Any, default: int) -> int:
    try:
        return int(str(value))
    except ValueError:
        return default
