"""A planted API key and Chroma token never appear in anything Ponder writes: stdout (--json), stderr (live steps,
debug logs, the error message), the trace, the Chroma store, even when the server and the model echo the key."""
from __future__ import annotations

import subprocess
from pathlib import Path

from core.secrets import REDACTED, redact
from tests.cli_helpers import RUN_TIMEOUT, ponder_command, ponder_env, step
from tests.openai_server import FakeOpenAIServer, completion, error

KEY = "sk-ponder-test-9f8e7d6c5b4a3210"
TOKEN = "chroma-token-0a1b2c3d4e5f"


def every_file_under(root: Path) -> list[Path]:
    return [path for path in root.rglob("*") if path.is_file()]


def test_a_planted_key_is_in_no_output_and_no_file(tmp_path):
    home = tmp_path / "home"
    # The model quotes the key and the Chroma token (as if a tool had shown them), even as a tool input, then the
    # server rejects the key, quoting both back: every path by which either could reach a file or a stream.
    replies = [completion(step(f"The key is {KEY} and the token {TOKEN}.", "calculator", f"6*7 # {TOKEN}")),
               error(401, f"Incorrect API key provided: {KEY} (token {TOKEN}). You can find your API key at ...")]
    with FakeOpenAIServer(replies) as server:
        env = {**ponder_env(home, server.url), "OPENAI_API_KEY": KEY, "PONDER_CHROMA_TOKEN": TOKEN}
        proc = subprocess.run(ponder_command("ask", "-v", "--json", "What is 6 times 7?"), env=env,
                              capture_output=True, text=True, timeout=RUN_TIMEOUT)
        sent = server.chat_requests()
    assert proc.returncode == 1, proc.stderr
    assert sent and sent[0].headers["authorization"] == f"Bearer {KEY}"  # it was really used
    for secret in (KEY, TOKEN):
        assert secret not in proc.stdout and secret not in proc.stderr, secret
    assert REDACTED in proc.stdout and "Incorrect API key provided: [redacted] (token [redacted])" in proc.stderr
    files = every_file_under(home)
    assert any(path.name == "trace.jsonl" for path in files) and any(path.suffix == ".sqlite3" for path in files)
    for path in files:
        data = path.read_bytes()
        for secret in (KEY, TOKEN):
            assert secret.encode() not in data, (path, secret)
    assert any(REDACTED.encode() in path.read_bytes() for path in files if path.name == "trace.jsonl")


def test_redaction_replaces_only_real_secrets(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("PONDER_CHROMA_TOKEN", "short")  # too short to redact without blanking ordinary words
    assert redact(f"a {KEY} b short") == f"a {REDACTED} b short"
    monkeypatch.delenv("OPENAI_API_KEY")
    assert redact(f"a {KEY}") == f"a {KEY}"
