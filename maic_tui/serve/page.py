"""The pages a browser gets: the class (textual-serve's terminal client, its script, styles and font served from
this server, nothing from another site) and the page that says every class is taken."""

from __future__ import annotations

from html import escape

STYLE = """
@font-face { font-family: "Roboto Mono"; src: url("{static}fonts/RobotoMono-VariableFont_wght.ttf"); }
html, body { margin: 0; height: 100%; background: #0c181f; color: #e8eef2; font-family: "Roboto Mono", monospace; }
.textual-terminal { width: 100vw; height: 100vh; opacity: 0; transition: opacity 0.3s ease-out; }
body.-first-byte .textual-terminal { opacity: 1; }
.note { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; z-index: 10;
        text-align: center; }
.note > div { background: #12232d; padding: 32px 48px; line-height: 1.6; }
body.-first-byte .opening, .closed { display: none; }
body.-closed .closed { display: flex; }
button { margin-top: 16px; padding: 12px 28px; border: none; background: #5e0ba7; color: #fff; font: inherit;
         cursor: pointer; }
"""


def class_page(title: str, static_url: str, websocket_url: str, font_size: int) -> str:
    style = STYLE.replace("{static}", static_url)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{escape(title)}</title>
<link rel="stylesheet" href="{escape(static_url)}css/xterm.css">
<script src="{escape(static_url)}js/textual.js"></script>
<style>{style}</style>
</head>
<body>
<div class="note opening"><div>Opening {escape(title)}…</div></div>
<div class="note closed"><div>This class has ended.<br>Reload the page for a new one.<br>
<button type="button" onclick="location.reload()">New class</button></div></div>
<div id="terminal" class="textual-terminal" data-session-websocket-url="{escape(websocket_url)}"
     data-font-size="{font_size}"></div>
</body>
</html>
"""


def full_page(title: str, static_url: str, limit: int) -> str:
    style = STYLE.replace("{static}", static_url)
    return f"""<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>{escape(title)}: no free class</title><style>{style}</style>
</head>
<body class="-first-byte"><div class="note"><div>All {limit} classes on this server are in use.<br>
Try again when someone has closed theirs.<br><button type="button" onclick="location.reload()">Try again</button>
</div></div></body>
</html>
"""
