"""One factory for the Chroma client: embedded on disk (default), a server by configuration, or in memory.

Chroma's default embedding function downloads a model, so every collection here is created with
embedding_function=None and callers always pass their own embeddings.

A PersistentClient directory must have one writing process at a time (Chroma is not process-safe there);
concurrent runs in one process share a client safely, and concurrent processes should use a Chroma server
(PONDER_CHROMA_HOST / PONDER_CHROMA_PORT / PONDER_CHROMA_TOKEN).
"""
from __future__ import annotations

import fcntl
from pathlib import Path

import chromadb
from chromadb.config import Settings

from core.paths import ponder_home
from core.settings import load_settings

_SETTINGS = dict(anonymized_telemetry=False, allow_reset=False)


def make_client(mode: str | None = None, path: str | Path | None = None):
    """mode: "persistent" (default), "http" (default when PONDER_CHROMA_HOST is set) or "memory" (tests).

    "memory" is one shared in-process instance: callers keep apart by run id / collection name.
    """
    settings = load_settings()
    mode = mode or ("http" if settings.chroma_host else "persistent")
    if mode == "memory":
        return chromadb.EphemeralClient(settings=Settings(**_SETTINGS))
    if mode == "http":
        return _http_client(settings)
    if mode == "persistent":
        return _persistent_client(Path(path) if path else ponder_home() / "chroma")
    raise ValueError(f"unknown Chroma mode {mode!r}: use persistent, http or memory")


def _persistent_client(target: Path):
    """Opening a client runs Chroma's schema migrations; two processes opening a new directory at once race
    ("table collections already exists", measured 3 of 32 opens). A file lock makes them take turns."""
    target.mkdir(parents=True, exist_ok=True)
    with open(target / ".ponder-open.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or by the OS if the process dies
        return chromadb.PersistentClient(path=str(target), settings=Settings(**_SETTINGS))


def _http_client(settings):
    token = settings.chroma_token.get_secret_value() if settings.chroma_token else None
    headers = {"Authorization": f"Bearer {token}"} if token else None
    client = chromadb.HttpClient(host=settings.chroma_host or "localhost", port=settings.chroma_port,
                                 ssl=settings.chroma_ssl, headers=headers, settings=Settings(**_SETTINGS))
    # Chroma's HTTP session has no timeout at all; every network call of ours must have one.
    session = getattr(getattr(client, "_server", None), "_session", None)
    if session is not None:
        import httpx
        session.timeout = httpx.Timeout(settings.chroma_timeout)
    return client


def get_collection(client, name: str, **metadata):
    """A cosine collection that never embeds by itself (we always pass embeddings).

    metadata is set only when the collection is created; use collection.modify to change it later.
    """
    return client.get_or_create_collection(name=name, embedding_function=None,
                                           configuration={"hnsw": {"space": "cosine"}},
                                           metadata=metadata or None)
