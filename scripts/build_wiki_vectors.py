"""Precompute the MiniLM vectors of the default offline Wikipedia corpus into tools/data/wiki_vectors_en.npz.

Run once whenever the corpus package, the model or tools.wiki_offline.INDEX_VERSION changes:
    .venv/bin/python scripts/build_wiki_vectors.py
Shipping the vectors turns a first-use dense index build of several minutes (1 CPU thread) into seconds.
Stored as float16: retrieval rankings are unchanged at that precision and the file is half the size.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tools.wiki_offline import SHIPPED_VECTORS, _fingerprint, default_corpus_path, embed_docs, load_corpus  # noqa: E402


def main() -> None:
    path = default_corpus_path()
    docs = load_corpus(path)
    started = time.perf_counter()
    vectors = embed_docs(docs)
    elapsed = time.perf_counter() - started
    SHIPPED_VECTORS.parent.mkdir(parents=True, exist_ok=True)
    np.savez(SHIPPED_VECTORS, vectors=vectors.astype(np.float16), fingerprint=np.array(_fingerprint(path)))
    print(f"{len(docs)} intros embedded in {elapsed:.0f} s ({len(docs) / elapsed:.1f}/s, 1 thread) "
          f"-> {SHIPPED_VECTORS}")


if __name__ == "__main__":
    main()
