"""Bad input and a damaged PONDER_HOME through the real CLI: each is one clear line on stderr, a non-zero exit, no
traceback, and nothing already stored is damaged (a run stored before still lists and shows with `ponder memory`,
and files Ponder cannot use are left exactly as they were).

One run is stored first; every case works on its own copy of that home, and the cases run concurrently.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import sqlite3
import struct
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

from ponder.cli import MAX_QUESTION_CHARS, main
from core.paths import StorageError, writable_dir
from tests.cli_helpers import (
    PONDER,
    ROOT,
    finish,
    memory_json,
    ponder,
    ponder_env,
    run_id_of,
    step,
)
from tests.openai_server import FakeOpenAIServer, completion

QUESTION = "What is 6*7?"
STEPS = [step("Multiply.", "calculator", "6*7"), step("Done.", "Final", "6*7 is 42.")]
NOISE = (b"\x00\xffnot a database\x13\x37" * 200)[:4096]  # garbage, fixed so a failure is reproducible


@dataclass
class Case:
    """args: the command (a list of bytes is passed as raw argv); setup(home, tmp) damages the home copy and
    returns extra environment; code and message: the exit code and what the one stderr line says."""
    args: list
    code: int
    message: str
    setup: Callable[[Path, Path], dict] = lambda home, tmp: {}
    store_readable: bool = True  # afterwards the stored run still lists and shows
    rows_kept: bool = False      # the store's rows are all still there (for a store this Chroma refuses to open)
    untouched: list[str] = field(default_factory=list)  # files (relative to the home) that must keep their bytes


def replace_with_file(relative: str) -> Callable[[Path, Path], dict]:
    def setup(home: Path, tmp: Path) -> dict:
        shutil.rmtree(home / relative)
        (home / relative).write_bytes(NOISE)
        return {}
    return setup


def garbage_database(home: Path, tmp: Path) -> dict:
    (home / "chroma" / "chroma.sqlite3").write_bytes(NOISE)
    return {}


def foreign_database(home: Path, tmp: Path) -> dict:
    """Another program's SQLite file, or one whose tables have another layout than this Chroma's."""
    database = home / "chroma" / "chroma.sqlite3"
    database.unlink()
    with contextlib.closing(sqlite3.connect(database)) as db:
        db.execute("CREATE TABLE migrations (name TEXT, applied TEXT)")
        db.execute("CREATE TABLE collections (uuid TEXT, label TEXT)")
        db.execute("INSERT INTO collections VALUES ('c1', 'someone else''s data')")
        db.commit()
    return {}


def other_chroma_version(home: Path, tmp: Path) -> dict:
    """A Chroma store whose applied schema differs from what this chromadb ships (a migration's hash)."""
    with contextlib.closing(sqlite3.connect(home / "chroma" / "chroma.sqlite3")) as db:
        db.execute("UPDATE migrations SET hash = 'made-by-another-version' WHERE dir = 'sysdb' AND version = 1")
        db.commit()
    return {}


def home_under_a_file(home: Path, tmp: Path) -> dict:
    blocker = tmp / "a-file"
    blocker.write_bytes(NOISE)
    return {"PONDER_HOME": str(blocker / "home")}


def read_only_home(home: Path, tmp: Path) -> dict:
    home.chmod(0o555)
    return {}


def truncated_gguf(home: Path, tmp: Path) -> dict:
    """The start of a GGUF file: a valid header and first key, then nothing where the rest should be."""
    key, value = b"general.architecture", b"qwen2"
    header = (b"GGUF" + struct.pack("<IQQ", 3, 291, 24) + struct.pack("<Q", len(key)) + key
              + struct.pack("<IQ", 8, len(value)) + value + struct.pack("<Q", 64))  # ...cut inside the next key
    model = tmp / "truncated.gguf"
    model.write_bytes(header)
    return {"PONDER_GGUF": str(model), "PONDER_BACKEND": "local", "PONDER_MODEL": "", "PONDER_THREADS": "2"}


TRACE = "runs/{run_id}/trace.jsonl"
CASES = {
    "long-question": Case(["ask", "x" * 100_000], 2, f"the limit is {MAX_QUESTION_CHARS:,}"),
    "not-utf8": Case([b"ask", b"caf\xe9 \xff\xfe?"], 2, "the question is not valid UTF-8 text (byte 0xe9 at byte 3)"),
    "unknown-flag": Case(["ask", QUESTION, "--maxsteps", "3"], 2, "unrecognized arguments: --maxsteps 3"),
    "home-under-a-file": Case(["ask", QUESTION], 1, "is not writable: Not a directory", home_under_a_file),
    "read-only-home": Case(["ask", QUESTION], 1, "is not writable: permission denied", read_only_home),
    "chroma-is-a-file": Case(["ask", QUESTION], 1, "chroma is not a directory (a file is in its place)",
                             replace_with_file("chroma"), store_readable=False, untouched=["chroma", TRACE]),
    "runs-is-a-file": Case(["ask", QUESTION], 1, "the trace directory", replace_with_file("runs"),
                           untouched=["runs"]),
    "garbage-database": Case(["ask", QUESTION], 1, "is not a Chroma store Ponder can read (made by another version?): "
                             "file is not a database", garbage_database, store_readable=False,
                             untouched=["chroma/chroma.sqlite3", TRACE]),
    "foreign-database": Case(["memory"], 1, "is not a Chroma store Ponder can read (made by another version?): its "
                             "migrations table has no", foreign_database, store_readable=False,
                             untouched=["chroma/chroma.sqlite3"]),
    "other-chroma-version": Case(["memory", "--json"], 1, "is not a Chroma store Ponder can read (made by another "
                                 "version?): Inconsistent hash", other_chroma_version, store_readable=False,
                                 rows_kept=True, untouched=[TRACE]),
    "truncated-gguf": Case(["ask", QUESTION], 1, "Could not load the GGUF model", truncated_gguf,
                           untouched=[TRACE]),
}


@dataclass
class Outcome:
    home: Path
    env: dict
    proc: subprocess.CompletedProcess | None = None
    before: dict[str, bytes] = field(default_factory=dict)
    skipped: str = ""


class BadInputRuns:
    def __init__(self, tmp: Path):
        with FakeOpenAIServer([completion(text) for text in STEPS]) as server:
            self.base_env = ponder_env(tmp / "stored", server.url)
            asked = ponder(["ask", QUESTION], self.base_env)
        assert asked.returncode == 0, asked.stderr
        self.run_id = run_id_of(asked.stderr)
        self.original = memory_json(self.run_id, self.base_env)
        self.outcomes: dict[str, Outcome] = {}
        procs = {}
        for name, case in CASES.items():
            home = tmp / name / "home"
            shutil.copytree(tmp / "stored", home)
            env = {**self.base_env, "PONDER_HOME": str(home)}
            outcome = self.outcomes[name] = Outcome(home, env)
            if name == "read-only-home" and os.geteuid() == 0:
                outcome.skipped = "running as root: a read-only mode does not stop root writing (see home-under-a-file)"
                continue
            try:
                env.update(case.setup(home, tmp / name))
            except pytest.skip.Exception as skip:
                outcome.skipped = str(skip)
                continue
            outcome.before = {path: (home / path.format(run_id=self.run_id)).read_bytes() for path in case.untouched}
            raw = isinstance(case.args[0], bytes)  # argv as bytes, as a shell passes what it was given
            command = [*map(os.fsencode, PONDER), *case.args] if raw else [*PONDER, *case.args]
            procs[name] = subprocess.Popen(command, env={k: v for k, v in env.items() if v != ""}, cwd=ROOT,
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for name, proc in procs.items():
            self.outcomes[name].proc = finish(proc)
        for name, outcome in self.outcomes.items():
            if name == "read-only-home" and not outcome.skipped:
                outcome.home.chmod(0o755)
        # Afterwards: does the stored run still list and show? (All at once: each is a process start-up.)
        checks = {}
        for name, outcome in self.outcomes.items():
            if CASES[name].store_readable and not outcome.skipped:
                env = {**self.base_env, "PONDER_HOME": str(outcome.home)}
                checks[name] = [subprocess.Popen([*PONDER, *args], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                                                 stderr=subprocess.PIPE, text=True)
                                for args in (["memory", "--json"], ["memory", self.run_id, "--json"])]
        self.listed, self.shown = {}, {}
        for name, (listing, showing) in checks.items():
            self.listed[name], self.shown[name] = finish(listing), finish(showing)


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> BadInputRuns:
    return BadInputRuns(tmp_path_factory.mktemp("bad-input"))


def outcome_of(runs: BadInputRuns, name: str) -> Outcome:
    outcome = runs.outcomes[name]
    if outcome.skipped:
        pytest.skip(outcome.skipped)
    return outcome


def error_lines(stderr: str) -> list[str]:
    """stderr without the run's header and a model's loading progress: what is left is what went wrong."""
    return [line for line in stderr.splitlines() if line.strip() and not line.startswith(("model: ", "Loading "))]


@pytest.mark.parametrize("name", CASES)
def test_one_clear_line_and_a_non_zero_exit(runs, name):
    proc, case = outcome_of(runs, name).proc, CASES[name]
    assert proc.returncode == case.code, proc.stderr
    assert "Traceback" not in proc.stderr and "panicked" not in proc.stderr
    assert proc.stdout == ""
    lines = error_lines(proc.stderr)
    assert len(lines) == 1, proc.stderr
    assert case.message in lines[0], proc.stderr
    assert lines[0].startswith("ponder")


@pytest.mark.parametrize("name", CASES)
def test_nothing_stored_is_damaged(runs, name):
    outcome, case = outcome_of(runs, name), CASES[name]
    for path, data in outcome.before.items():
        assert (outcome.home / path.format(run_id=runs.run_id)).read_bytes() == data, f"{path} changed"
    if case.rows_kept:
        assert stored_rows(outcome.home) == stored_rows(Path(runs.base_env["PONDER_HOME"]))
    if not case.store_readable:
        return
    listed, shown = runs.listed[name], runs.shown[name]
    assert listed.returncode == 0 and shown.returncode == 0, listed.stderr + shown.stderr
    assert [run["run_id"] for run in json.loads(listed.stdout)] == [runs.run_id]  # and no half-made new run
    now = json.loads(shown.stdout)
    assert now["run"] == runs.original["run"]
    assert [s["step"] for s in now["steps"]] == [s["step"] for s in runs.original["steps"]]


def stored_rows(home: Path) -> list[str]:
    """The store's data, row by row, but for Chroma's own write-lock bookkeeping (it adds a row at each open) and
    the migration records (the case changed one)."""
    with contextlib.closing(sqlite3.connect(home / "chroma" / "chroma.sqlite3")) as db:
        return [line for line in db.iterdump() if "acquire_write" not in line and "migrations" not in line]


def test_a_one_megabyte_question_is_refused_before_any_work(tmp_path, monkeypatch):
    """1 MB cannot pass through argv on Linux (128 KiB an argument), so this one goes to main() directly."""
    monkeypatch.setenv("PONDER_HOME", str(tmp_path / "home"))
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    assert main(["ask", "Why? " * 200_000]) == 2
    assert f"the question is 999,999 characters long; the limit is {MAX_QUESTION_CHARS:,}" in stderr.getvalue()
    assert not (tmp_path / "home").exists()  # refused before anything was made
    assert len(stderr.getvalue().strip().splitlines()) == 1


def test_a_directory_without_write_permission_is_named(tmp_path, monkeypatch):
    """The read-only check itself, for when the suite runs as root (whom chmod does not stop)."""
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    with pytest.raises(StorageError, match=f"^PONDER_HOME {tmp_path} is not writable: permission denied$"):
        writable_dir(tmp_path, "PONDER_HOME")
