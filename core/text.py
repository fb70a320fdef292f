"""Shortening text to a limit, with a marker where it was cut: the one rule every place that shortens text uses.

Each place keeps its own visible form (marker, where to cut, what to trim) through the parameters, not a shared
default: the model's prompts hold these bytes, and its greedy path changes with a single one.

    clip(text, 60, marker="...", strip=False)           # at most 60 characters, the marker included
    clip(text, 1500, marker=" [...]", at="sentence", within=False)   # 1500 of text, then the marker
    clip_tokens(text, 200, counter.count, marker=" …[truncated]", at="space")
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

# Where a sentence ends: ".", "!" or "?" and a space. In a page's text, only before what opens a sentence (a capital,
# a digit, a quote or a bracket), so "e.g. the" and "approx. three" stay whole.
SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+")
PAGE_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'“(])")

Cut = Literal["char", "space", "sentence"]
_CUTS = ("char", "space", "sentence")


def clip(text: str, limit: int, *, marker: str = "…", at: Cut = "char", strip: bool | str = True,
         within: bool = True) -> str:
    """`text` unchanged when it has at most `limit` characters; otherwise its head followed by `marker`.

    within: the marker counts toward `limit`, so the result has at most `limit` characters (just the marker, cut
      to `limit`, when not even the marker fits); when False the head may fill `limit` and the marker goes after.
    at: where the head ends: "char" at the limit; "space" before the last space; "sentence" after the last
      ". " or ".\\n". A space or sentence end in the first half is passed over for the limit, so one long
      word or sentence does not leave almost nothing.
    strip: what comes off the end of the head before the marker: True whitespace, False nothing, a string
      those characters.
    """
    if limit < 0:
        raise ValueError(f"limit must be 0 or more, not {limit}")
    if at not in _CUTS:
        raise ValueError(f"at must be one of {_CUTS}, not {at!r}")
    if len(text) <= limit:
        return text
    room = limit - len(marker) if within else limit
    if room < 0:
        return marker[:limit]
    head = text[:room]
    if at != "char":
        end = head.rfind(" ") if at == "space" else max(head.rfind(". "), head.rfind(".\n"))
        if end > room // 2:
            head = head[:end + 1] if at == "sentence" else head[:end]  # a sentence keeps its full stop
    if strip is not False:
        head = head.rstrip(None if strip is True else strip)
    return head + marker


def clip_tokens(text: str, max_tokens: int, count: Callable[[str], int], *, marker: str = "…",
                at: Cut = "char", strip: bool | str = True) -> str:
    """`text` unchanged when `count(text)` is at most `max_tokens`; otherwise the longest head that fits beside
    `marker` (both counted), cut back as `clip` cuts. Empty when the marker alone takes the whole budget.

    count: a real tokenizer's count; it is called about log2(len(text)) times, so memoise it if it is slow.
    """
    if count(text) <= max_tokens:
        return text
    budget = max_tokens - count(marker)
    if budget <= 0:
        return ""
    low, high = 0, len(text)  # binary search for the longest head that fits, in characters
    while low < high:
        mid = (low + high + 1) // 2
        if count(text[:mid]) <= budget:
            low = mid
        else:
            high = mid - 1
    # low < len(text) (the whole text did not fit), so clip always cuts here; the marker was already paid for
    return clip(text, low, marker=marker, at=at, strip=strip, within=False)
