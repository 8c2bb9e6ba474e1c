"""Just enough PNG reading for browser screenshots (8-bit RGB or RGBA, not interlaced): pixel colours."""

from __future__ import annotations

import struct
import zlib
from collections import Counter


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def read_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and one bytes row of RGB triples per line."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks, header = 8, [], b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and color in (2, 6) and not interlace, (depth, color, interlace)
    channels = 3 if color == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            line[x] = (line[x] + (0, left, up, (left + up) // 2, _paeth(left, up, corner))[kind]) & 0xFF
        previous = line
        rgb = bytes(line) if channels == 3 else bytes(b for i, b in enumerate(line) if i % 4 != 3)
        rows.append(rgb)
    return width, height, rows


def colours_in(rows: list[bytes], width: int, box: tuple[float, float, float, float]) -> Counter[str]:
    """How often each colour (``#rrggbb``) occurs in a box given as fractions (left, top, right, bottom)."""
    height = len(rows)
    left, top, right, bottom = (int(box[0] * width), int(box[1] * height), int(box[2] * width), int(box[3] * height))
    found: Counter[str] = Counter()
    for row in rows[top:bottom]:
        for x in range(left, right):
            found[f"#{row[3 * x]:02x}{row[3 * x + 1]:02x}{row[3 * x + 2]:02x}"] += 1
    return found
