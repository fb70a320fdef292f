"""Which Wikipedia backend Ponder uses: PONDER_WIKI=offline|live|auto (default auto).

auto asks the live API one cheap question with a short timeout; if it does not answer, Ponder uses the offline
corpus and says so once per process on stderr (through logging).
"""
from __future__ import annotations

import logging
import threading

from core.settings import load_settings
from tools.wiki_base import WikiBackend, WikiUnavailable

MODES = ("offline", "live", "auto")
PROBE_TIMEOUT = 2.0
LIVE_TIMEOUT = 10.0

log = logging.getLogger("ponder.wiki")
_fallback_told = False
_told_lock = threading.Lock()


def _say_once(message: str) -> None:
    global _fallback_told
    with _told_lock:
        if _fallback_told:
            return
        _fallback_told = True
    log.warning(message)  # without any logging set up, Python's last-resort handler still prints it on stderr


def live_answers(api_url: str | None = None, timeout: float = PROBE_TIMEOUT) -> bool:
    """True if the live MediaWiki API answers one small search within timeout seconds."""
    from tools.wiki_live import LiveWiki

    try:
        LiveWiki(api_url=api_url, timeout=timeout).search("Wikipedia", limit=1)
    except WikiUnavailable:
        return False
    return True


def make_backend(mode: str | None = None, api_url: str | None = None) -> WikiBackend:
    """The backend for mode (default $PONDER_WIKI, else "auto"). api_url: the live endpoint (default
    $PONDER_WIKI_API_URL or English Wikipedia)."""
    chosen = (mode or load_settings().wiki).strip().lower()
    if chosen not in MODES:
        raise ValueError(f"unknown Wikipedia backend {chosen!r}: PONDER_WIKI must be one of {', '.join(MODES)}")
    if chosen == "live" or (chosen == "auto" and live_answers(api_url)):
        from tools.wiki_live import LiveWiki
        return LiveWiki(api_url=api_url, timeout=LIVE_TIMEOUT)
    from tools.wiki_offline import OfflineWiki
    backend = OfflineWiki()
    if chosen == "auto":
        _say_once(f"Wikipedia is not reachable; using the offline corpus ({len(backend.docs)} article intros). "
                  "Set PONDER_WIKI=offline to skip this check.")
    return backend
