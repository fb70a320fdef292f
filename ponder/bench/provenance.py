"""Where a bench's figures came from, written by code into summary.json: the exact command line, the commit and
whether the tree had uncommitted changes, the model file's SHA-256, the corpus fingerprint and the machine."""
from __future__ import annotations

import os
import platform
import shlex
import subprocess
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def _git(*args: str, root: Path = REPO_ROOT) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


# Bench output lives here: results being written (or re-scored) change no code that runs.
RESULTS_DIR = "benchmarks/results"


def git_state(root: Path = REPO_ROOT, output: Path | None = None) -> dict:
    """{"commit": full hash or None, "dirty": True if tracked code differs from it}. Untracked files, the bench
    results folder and the output directory being written do not count: they change no code that ran."""
    commit = _git("rev-parse", "HEAD", root=root)
    if not commit:
        return {"commit": None, "dirty": None}
    excluded = [f":(exclude){RESULTS_DIR}"]
    if output is not None:
        try:
            excluded.append(f":(exclude){Path(output).resolve().relative_to(Path(root).resolve())}")
        except ValueError:
            pass    # written outside the checkout: nothing to exclude
    status = _git("status", "--porcelain", "--untracked-files=no", "--", ".", *excluded, root=root)
    return {"commit": commit, "dirty": bool(status) if status is not None else None}


def command_line(args: list[str]) -> str:
    """The command as typed: `ponder` and its arguments, quoted where the shell needs it."""
    return shlex.join(["ponder", *args])


def machine() -> dict:
    return {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(),
            "processor": platform.processor() or platform.machine()}


def model_identity(llm) -> dict:
    """The model by name, and for a local GGUF by file and SHA-256 (a server's model has no file here)."""
    identity = {"name": getattr(llm, "name", type(llm).__name__)}
    path = getattr(llm, "model_path", None)
    if path is not None:
        from agent.llm.local_llama import model_sha256
        identity.update(file=str(path), sha256=model_sha256(Path(path)))
    return identity


def corpus_identity(wiki) -> dict | None:
    """The offline corpus the Wikipedia tools searched (path, fingerprint, pages); None for live Wikipedia."""
    if getattr(wiki, "corpus_path", None) is None:
        return {"backend": getattr(wiki, "name", type(wiki).__name__)} if wiki is not None else None
    return {"backend": wiki.name, "path": str(wiki.corpus_path), "fingerprint": wiki.fingerprint,
            "pages": len(wiki.docs)}


def dirty_warning(header: dict) -> str | None:
    """The report's first line when a run cannot be reproduced from its commit."""
    if header.get("dirty"):
        return (f"> **Measured on uncommitted changes** to {str(header.get('commit'))[:12]}: these figures cannot "
                "be reproduced from a commit.")
    if header.get("dirty") is None and "commit" in header and not header.get("provenance_missing"):
        return "> Commit state unknown (not run from a git checkout)."
    return None
