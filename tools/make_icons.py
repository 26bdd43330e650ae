#!/usr/bin/env python3
"""Draw the app icons as PNG files with the standard library only (zlib + struct).

    python3 tools/make_icons.py            # writes static/icons/icon-{192,512}.png
                                           # and static/icons/maskable-{192,512}.png

The icon is a die showing five: white pips on a green rounded square ("any"
purpose, transparent corners). The maskable variant fills the whole square with
the green and keeps the die face inside the central safe zone (a circle of 80 %
of the size), as the maskable icon spec asks. Anti-aliased by 4x4 supersampling.
The output is deterministic; the files are committed, rerun after a design change.
"""
from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "static" / "icons"

GREEN = (0x1F, 0x6F, 0x43)
WHITE = (0xFF, 0xFF, 0xFF)
DARK = (0x15, 0x4D, 0x2E)


def png(width: int, height: int, rows: list[bytes]) -> bytes:
    """RGBA rows -> PNG bytes."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + row for row in rows)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def in_rounded_rect(x: float, y: float, x0: float, y0: float, x1: float, y1: float, r: float) -> bool:
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def draw(size: int, maskable: bool) -> bytes:
    """The die in unit coordinates (0..1), sampled 4x4 per pixel."""
    if maskable:
        face = (0.22, 0.22, 0.78, 0.78, 0.10)  # inside the 80 % safe circle
    else:
        face = (0.04, 0.04, 0.96, 0.96, 0.18)
    x0, y0, x1, y1, r = face
    w = x1 - x0
    pip_r = 0.09 * w
    pips = [(x0 + fx * w, y0 + fy * w) for fx, fy in [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)]]
    n = 4
    rows = []
    for py in range(size):
        row = bytearray()
        for px in range(size):
            acc = [0, 0, 0, 0]
            for sy in range(n):
                for sx in range(n):
                    x = (px + (sx + 0.5) / n) / size
                    y = (py + (sy + 0.5) / n) / size
                    if any((x - cx) ** 2 + (y - cy) ** 2 <= pip_r * pip_r for cx, cy in pips):
                        color, alpha = WHITE, 255
                    elif in_rounded_rect(x, y, x0, y0, x1, y1, r):
                        color, alpha = GREEN, 255
                    elif maskable:
                        color, alpha = DARK, 255
                    else:
                        color, alpha = (0, 0, 0), 0
                    for i in range(3):
                        acc[i] += color[i] * alpha
                    acc[3] += alpha
            a = acc[3]
            if a:
                row += bytes(round(acc[i] / a) for i in range(3)) + bytes([round(a / (n * n))])
            else:
                row += b"\x00\x00\x00\x00"
        rows.append(bytes(row))
    return png(size, size, rows)


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        for maskable in (False, True):
            name = f"{'maskable' if maskable else 'icon'}-{size}.png"
            (OUT / name).write_bytes(draw(size, maskable))
            print(f"wrote {(OUT / name).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
