"""The shared offline MiniLM embedder and its int8 ONNX alternative."""
from __future__ import annotations

import numpy as np
import pytest

from core.embedding import get_embedder
from memory.tokens import minilm_token_counter, truncate_to_tokens

TEXTS = ["The Peace of Westphalia was signed in 1648 in Osnabrück and Münster.",
         "Two treaties signed in Westphalia in 1648 ended the Thirty Years' War.",
         "Tardigrades are eight-legged micro-animals that survive cryptobiosis."]


def test_embedder_is_shared_offline_and_normalised():
    embedder = get_embedder()
    assert get_embedder() is embedder
    vectors = embedder.embed(TEXTS)
    assert vectors.shape == (3, embedder.dim) == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.3  # related beats unrelated
    assert embedder.embed([]).shape == (0, 384)


def test_unknown_embedder_is_a_clear_error():
    with pytest.raises(ValueError, match="minilm"):
        get_embedder("word2vec")


def test_onnx_int8_embedder_matches_the_torch_model():
    onnx = get_embedder("minilm-onnx-int8").embed(TEXTS + ["short"])
    torch = get_embedder("minilm").embed(TEXTS + ["short"])
    assert onnx.shape == torch.shape
    assert np.all(np.sum(onnx * torch, axis=1) > 0.99)


def test_truncation_fits_the_token_bound_at_a_word_boundary():
    counter = minilm_token_counter()
    text = " ".join(TEXTS * 20)
    cut = truncate_to_tokens(text, 50, counter)
    assert counter.count(cut) <= 50 < counter.count(text)
    assert text.startswith(cut.rsplit(" …", 1)[0])
    assert truncate_to_tokens("short text", 50, counter) == "short text"
