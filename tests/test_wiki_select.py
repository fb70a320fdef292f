"""Backend selection: PONDER_WIKI=offline|live|auto, with auto probing a real (loopback) HTTP endpoint."""
from __future__ import annotations

import logging
import socket
import time

import pytest

from tests.mediawiki_server import MediaWikiServer
from tools import wiki_select
from tools.wiki_live import LiveWiki
from tools.wiki_offline import OfflineWiki
from tools.wiki_select import make_backend


@pytest.fixture(autouse=True)
def isolated(monkeypatch, test_data_dir):
    # PONDER_HOME in the shared test data: the offline BM25 index is saved there once, not rebuilt per test
    home = test_data_dir / "wiki-select-home"
    home.mkdir(exist_ok=True)
    monkeypatch.setenv("PONDER_HOME", str(home))
    for var in ("PONDER_WIKI", "PONDER_WIKI_CORPUS", "PONDER_WIKI_API_URL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(wiki_select, "_fallback_told", False)


@pytest.fixture
def closed_port_url() -> str:
    with socket.socket() as sock:   # bind then close: nothing listens there any more
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/w/api.php"


def test_unknown_mode_is_a_clear_error(monkeypatch):
    with pytest.raises(ValueError, match="offline, live, auto"):
        make_backend("wikipedia")
    monkeypatch.setenv("PONDER_WIKI", "online")
    with pytest.raises(ValueError, match="'online'"):
        make_backend()


def test_offline_mode_never_probes(monkeypatch, closed_port_url, caplog):
    monkeypatch.setenv("PONDER_WIKI", "offline")
    monkeypatch.setenv("PONDER_WIKI_API_URL", closed_port_url)
    with caplog.at_level(logging.WARNING, logger="ponder.wiki"):
        backend = make_backend()
    assert isinstance(backend, OfflineWiki)
    assert backend.page("Thomas Edison").title == "Thomas Edison"
    assert not caplog.records


def test_live_mode(monkeypatch):
    with MediaWikiServer() as server:
        monkeypatch.setenv("PONDER_WIKI_API_URL", server.api_url)
        backend = make_backend("LIVE")
        assert isinstance(backend, LiveWiki)
        assert backend.page("Thomas Edison").title == "Thomas Edison"


def test_auto_picks_live_when_it_answers(monkeypatch):
    with MediaWikiServer() as server:
        monkeypatch.setenv("PONDER_WIKI_API_URL", server.api_url)
        backend = make_backend()
        assert isinstance(backend, LiveWiki) and backend.api_url == server.api_url
        assert backend.search("Python programming language", 1) == ["Python (programming language)"]


def test_auto_falls_back_to_offline_and_says_so_once(monkeypatch, closed_port_url, caplog):
    monkeypatch.setenv("PONDER_WIKI_API_URL", closed_port_url)
    with caplog.at_level(logging.WARNING, logger="ponder.wiki"):
        first = make_backend("auto")
        second = make_backend(api_url=closed_port_url)
    assert isinstance(first, OfflineWiki) and isinstance(second, OfflineWiki)
    told = [r.getMessage() for r in caplog.records if r.name == "ponder.wiki"]
    assert len(told) == 1 and "offline" in told[0]


def test_auto_probe_is_bounded_by_its_timeout():
    with MediaWikiServer(slow_seconds=10) as server:
        slow_url = server.api_url.replace("/w/api.php", "/slow/w/api.php")
        started = time.monotonic()
        assert wiki_select.live_answers(slow_url, timeout=0.5) is False
        assert time.monotonic() - started < 3
