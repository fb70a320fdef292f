"""Fixtures shared across the suite.

Shared test data (the assembled 1 GB model, the offline wiki's index) lives in one fixture-managed directory,
$PONDER_TEST_DATA or .test-data/ at the repository root, so nothing depends on pytest's cache plugin and a
second run reuses what the first one built.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Real-model tests use a fixed thread count: llama.cpp's greedy path changes with the thread count (it splits
# the matrix work differently), so "the idle cores at start" made the same test pass or fail run to run.
LOCAL_MODEL_THREADS = 2
# `ponder ask` runs with sub-agents by default (PONDER_RESEARCH). The CLI tests script a model's replies for plain
# ReAct, so they run it plain; the tests of research mode (tests/test_research.py) and of the README's command as
# a new user runs it (tests/test_local_llama.py) say so themselves.
os.environ.setdefault("PONDER_RESEARCH", "0")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing test shows the logs of the real servers its fixtures started (tests/server_process.py)."""
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        for node in item.listchain():  # a module- or session-scoped server is registered on its own node
            for server in getattr(node, "real_servers", ()):
                report.sections.append((f"{server.name} log ({server.log_path})", server.log_tail()))


@pytest.fixture(scope="session")
def test_data_dir() -> Path:
    path = Path(os.environ.get("PONDER_TEST_DATA") or ROOT / ".test-data")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def model_path(test_data_dir):
    """The embedded default GGUF, assembled and verified once into the test data directory."""
    from agent.llm.local_llama import ensure_default_model
    return ensure_default_model(test_data_dir / "models")


@pytest.fixture(scope="session")
def shared_local_llm(model_path):
    from agent.llm.local_llama import LocalLlama
    llm = LocalLlama(model_path, n_threads=LOCAL_MODEL_THREADS)
    yield llm
    llm.close()


@pytest.fixture
def local_llm(shared_local_llm):
    """The real local model with an empty prompt cache: what an earlier test left in the KV cache changes
    which prefix is reused, and with it the floating-point path of the next greedy decode."""
    shared_local_llm.forget_prompt_cache()
    return shared_local_llm


@pytest.fixture(scope="session")
def wiki_index_dir(test_data_dir) -> Path:
    path = test_data_dir / "wiki-index"
    path.mkdir(exist_ok=True)
    return path


@pytest.fixture(scope="session")
def offline_wiki(wiki_index_dir):
    """The real offline Wikipedia corpus with its dense index, built once per test data directory."""
    from tools.wiki_offline import OfflineWiki, default_corpus_path
    return OfflineWiki(corpus_path=default_corpus_path(), index_dir=wiki_index_dir)
