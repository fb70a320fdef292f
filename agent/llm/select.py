"""Pick the LLM backend: explicit choice first, then a configured remote server, else the embedded model."""
from __future__ import annotations

from core.llm import LLM, LLMError
from core.settings import load_settings

BACKENDS = ("local", "openai")


def _looks_like_gguf(model: str | None) -> bool:
    return bool(model) and model.lower().endswith(".gguf")


def select_llm(model: str | None = None, base_url: str | None = None, backend: str | None = None,
               n_ctx: int | None = None, prompt_cache: bool = False) -> LLM:
    """The backend to run, from arguments (CLI flags) or else the environment.

    backend / PONDER_BACKEND: "local" or "openai". Without one: a GGUF path as model means local;
    OPENAI_API_KEY, OPENAI_BASE_URL or a base_url means the OpenAI-compatible client; otherwise the
    embedded local model, which needs no key and no network.
    model / PONDER_MODEL: the remote model name, or for local a GGUF path (else PONDER_GGUF / default).
    """
    settings = load_settings()
    backend = (backend or settings.backend or "").strip().lower()
    model = model or settings.model or None
    if backend and backend not in BACKENDS:
        raise LLMError(f"Unknown backend {backend!r} (PONDER_BACKEND / --backend): use one of {', '.join(BACKENDS)}.")
    if not backend:
        remote = base_url or settings.openai_api_key or settings.openai_base_url
        backend = "openai" if remote and not _looks_like_gguf(model) else "local"
    if backend == "openai":
        from agent.llm.openai_chat import OpenAIChat
        return OpenAIChat(model=model, base_url=base_url)
    from agent.llm.local_llama import DEFAULT_CTX, LocalLlama
    if model and not _looks_like_gguf(model):
        raise LLMError(f"The local backend runs a GGUF file; {model!r} is not one. Pass a .gguf path, or unset "
                       "PONDER_MODEL / --model to use the embedded default model.")
    from core.paths import ponder_home
    return LocalLlama(model_path=model, n_ctx=n_ctx or DEFAULT_CTX,
                      prompt_cache_dir=ponder_home() / "kv-cache" if prompt_cache else None)
