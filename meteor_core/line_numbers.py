"""Line numbers in messages ("line 16", "lines 3, 7, 12…"). A module of its own so that batch,
which names lines in its notes, does not import the corpus modules (26 ms of its start)."""
from __future__ import annotations

from typing import Sequence

#: Most line numbers a message lists; "…" says there are more.
LISTED_LINES = 20


def listed_lines(lines: Sequence[int]) -> str:
    """"3, 7, 12" for a message: the first LISTED_LINES line numbers, then "…" if there are more."""
    return ", ".join(map(str, lines[:LISTED_LINES])) + ("…" if len(lines) > LISTED_LINES else "")


def named_lines(lines: Sequence[int]) -> str:
    """"line 16" or "lines 3, 7, 12" (listed_lines): "lines 16" read wrong (a tester)."""
    return f"line{'s' if len(lines) > 1 else ''} {listed_lines(lines)}"
