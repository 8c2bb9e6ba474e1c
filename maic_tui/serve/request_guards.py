"""Who may open a class: requests are answered only for the address the server is served at.

Browsers let any web page open a WebSocket to 127.0.0.1, and a page on another site can make its name resolve to
this machine (DNS rebinding). So a request whose ``Host`` is not this server's, or that carries an ``Origin`` of
another site, is refused: a hostile page can neither drive a class nor read what it shows. A request without an
``Origin`` (a top-level page load, a program rather than a page) is allowed: it is not another site acting
through a learner's browser. There is no login: anyone who can reach the port and names it as it is served gets a
class (README: put a proxy with a password in front for that).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


@dataclass(frozen=True)
class Served:
    """The addresses this server answers as: ``host:port`` pairs, and the origins pages may come from."""

    hosts: frozenset[str]
    origins: frozenset[str]

    @classmethod
    def at(cls, public_url: str, port: int) -> Served:
        """The public address (as printed, or ``--public-url``) and this machine's own loopback names on the port
        it listens on (a reverse proxy on this machine forwards with those)."""
        public = urlsplit(public_url)
        scheme = public.scheme or "http"
        default = {"http": 80, "https": 443}.get(scheme)
        netloc = public.netloc.lower()
        hosts = {netloc, *(f"{name}:{port}" for name in LOOPBACK_NAMES)}
        if public.port is None and default is not None:  # "https://class.example" is also class.example:443
            hosts.add(f"{netloc}:{default}")
        elif public.port == default:
            hosts.add(netloc.rsplit(":", 1)[0])
        origins = {f"{scheme}://{netloc}", *(f"http://{name}:{port}" for name in LOOPBACK_NAMES)}
        if public.port == default:
            origins.add(f"{scheme}://{netloc.rsplit(':', 1)[0]}")
        return cls(frozenset(hosts), frozenset(origins))

    def refusal(self, host: str | None, origin: str | None) -> str | None:
        """Why a request with these headers is refused, or None when it may go on."""
        if host is None or host.lower() not in self.hosts:
            return f"the address {host!r} is not this server's"
        if origin is not None and origin.lower().rstrip("/") not in self.origins:
            return f"a page from {origin!r} may not open this server's classes"
        return None
