"""``maic-tui serve``: the classroom app in a web browser, for a projector or for someone without a good terminal.
Each browser tab gets its own class (its own app process, recorded like any session), at most ``--max-classes``
at once. The server listens on 127.0.0.1 unless told otherwise, and answers only requests addressed to it as it
is served (``guards``): anyone who can reach the port that way gets a class, and with an ``openai:`` model,
calls on your key."""

from __future__ import annotations

import ipaddress
import os
import socket
import sys
from collections.abc import Mapping
from typing import Any

from maic_tui.bad_input import BadInput
from maic_tui.i18n import _

ANY_ADDRESS = ("0.0.0.0", "::", "")


class ServeError(BadInput):
    """A host or port the server cannot use; one line."""


def app_command(classroom: str, flags: Mapping[str, Any]) -> list[str]:
    """The command each browser tab runs (no shell): the app with the same settings. The key is never on it
    (other users see command lines in ps); it reaches the app through the environment instead."""
    command = [sys.executable, "-m", "maic_tui", classroom]
    for flag in ("model", "base_url", "structured_output", "timeout", "theme", "pace", "data_dir"):
        value = flags.get(flag)
        if value is not None:
            command += [f"--{flag.replace('_', '-')}", str(value)]
    return command


def public_url(host: str, port: int, given: str | None) -> str:
    """The address browsers open. Bound to every interface, that is this machine's LAN address."""
    if given:
        return given.rstrip("/")
    if host in ANY_ADDRESS:
        host = _lan_address()
    try:
        if ipaddress.ip_address(host).version == 6:
            host = f"[{host}]"
    except ValueError:  # a host name
        pass
    return f"http://{host}:{port}"


def _lan_address() -> str:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))  # UDP: nothing is sent, it only picks the outgoing interface
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def check_port(host: str, port: int) -> None:
    """Fail with one line before textual-serve starts (it would print a traceback)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            raise ServeError(_("cannot listen on {host}:{port}: {reason}")
                             .format(host=host, port=port, reason=exc.strerror or exc)) from None


def serve(classroom: str, flags: dict[str, Any], host: str, port: int, url: str | None, max_classes: int = 4) -> int:
    import asyncio

    from maic_tui.llm.spec import ModelSpec
    from maic_tui.settings import requested_model

    ModelSpec.parse(requested_model(flags)).check()  # a bad model is one line here, not in every tab
    check_port(host, port)
    env = dict(os.environ)
    api_key = flags.pop("api_key", None)
    if api_key:
        env["MAIC_API_KEY"] = api_key
    from maic_tui.serve.server import ClassServer  # aiohttp loads only for this command

    address = public_url(host, port, url)
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(_("maic-tui: serving on {host}: anyone who can reach {address} gets a class")
              .format(host=host, address=address), file=sys.stderr)
    server = ClassServer(app_command(classroom, flags), env, address, port, max_classes)

    def started() -> None:
        print(_("maic-tui serve: open {address} (up to {count} classes at once; Ctrl-C stops)")
              .format(address=address, count=max_classes), flush=True)

    try:
        return asyncio.run(server.run(host or "0.0.0.0", port, started))
    except OSError as exc:  # the port was taken between the check and the start
        raise ServeError(_("cannot listen on {host}:{port}: {reason}").format(host=host, port=port,
                                                                               reason=exc.strerror or exc)) from None
