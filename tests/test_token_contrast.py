"""The number on a player's token reads on its colour: 4.5:1 or more (WCAG
1.4.3; the white 4 on the yellow token was 1.97:1). The label's ink is the
stylesheet's: white, or the colour its own rule gives on that token."""

import re
from pathlib import Path

from games.pages.base import PLAYER_COLOURS

CSS = (Path(__file__).resolve().parents[1] / "static" / "css" / "numbo.css").read_text()


def rgb(hex_colour: str) -> tuple[int, ...]:
    return tuple(int(hex_colour.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4))


def contrast(a: str, b: str) -> float:
    def luminance(colour):
        def channel(v):
            c = v / 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
        r, g, b_ = (channel(v) for v in rgb(colour))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b_

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def ink_on(colour: str) -> str:
    rule = rf'circle\[fill="{re.escape(colour)}" i\] \+ text\.token-label'
    own = re.search(rule + r" \{ fill: (#[0-9a-f]{6}); \}", CSS, re.I)
    if own:
        return own.group(1)
    return re.search(r"svg text\.token-label \{ fill: (#[0-9a-f]{3,6});", CSS).group(1)


def test_every_token_number_reads_on_its_colour():
    shown = {c: round(contrast(c, ink_on(c).replace("#fff", "#ffffff")), 2) for c in PLAYER_COLOURS}
    assert {c: ratio for c, ratio in shown.items() if ratio < 4.5} == {}


def dot_ink_on(colour: str) -> str:
    """The ink of the number on a player's dot beside their name (.dot-token)."""
    rule = rf'\.dot-token\[style\*="{re.escape(colour)}" i\]'
    own = re.search(rule + r" \{ color: (#[0-9a-f]{6}); \}", CSS, re.I)
    if own:
        return own.group(1)
    return re.search(r"\.dot-token \{[^}]*?[; ]color: (#[0-9a-f]{3,6});", CSS, re.S).group(1)


def test_every_dot_number_reads_on_its_colour():
    shown = {
        c: round(contrast(c, dot_ink_on(c).replace("#fff", "#ffffff")), 2) for c in PLAYER_COLOURS
    }
    assert {c: ratio for c, ratio in shown.items() if ratio < 4.5} == {}
