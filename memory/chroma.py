"""One factory for the Chroma client: embedded on disk (default), a server by configuration, or in memory.

Chroma's default embedding function downloads a model, so every collection here is created with
embedding_function=None and callers always pass their own embeddings.
"""
from __future__ import annotations

import os
from pathlib import Path

import chromadb
from chromadb.config import Settings

from memory.paths import ponder_home

_SETTINGS = dict(anonymized_telemetry=False, allow_reset=False)


def make_client(mode: str | None = None, path: str | Path | None = None):
    """mode: "persistent" (default), "http" (PONDER_CHROMA_HOST set) or "memory" (tests)."""
    host = os.environ.get("PONDER_CHROMA_HOST")
    mode = mode or ("http" if host else "persistent")
    if mode == "memory":
        return chromadb.EphemeralClient(settings=Settings(**_SETTINGS))
    if mode == "http":
        token = os.environ.get("PONDER_CHROMA_TOKEN")
        headers = {"Authorization": f"Bearer {token}"} if token else None
        return chromadb.HttpClient(host=host or "localhost", port=int(os.environ.get("PONDER_CHROMA_PORT", "8000")),
                                   headers=headers, settings=Settings(**_SETTINGS))
    if mode == "persistent":
        target = Path(path) if path else ponder_home() / "chroma"
        target.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(target), settings=Settings(**_SETTINGS))
    raise ValueError(f"unknown Chroma mode {mode!r}: use persistent, http or memory")


def get_collection(client, name: str, **metadata):
    """A collection that never embeds by itself (we always pass embeddings)."""
    return client.get_or_create_collection(name=name, embedding_function=None,
                                           metadata={"hnsw:space": "cosine", **metadata})
