"""Secrets (API keys, the Chroma token) never leave the process in anything Ponder writes: traces, logs, --json,
error messages. Everything written passes through `redact`, which replaces the secrets' current values.

A value shorter than MIN_SECRET_CHARS is not redacted: it would blank out ordinary words ("test", "x").
"""
from __future__ import annotations

import io
import logging
import os

SECRET_VARIABLES = ("OPENAI_API_KEY", "PONDER_CHROMA_TOKEN")
MIN_SECRET_CHARS = 8
REDACTED = "[redacted]"


def secret_values() -> list[str]:
    values = {os.environ.get(name, "").strip() for name in SECRET_VARIABLES}
    return sorted((value for value in values if len(value) >= MIN_SECRET_CHARS), key=len, reverse=True)


def redact(text: str) -> str:
    for value in secret_values():
        if value in text:
            text = text.replace(value, REDACTED)
    return text


def redact_model(model):
    """A pydantic model with every secret in its strings redacted (the same object when it holds none)."""
    text = model.model_dump_json()
    cleaned = redact(text)
    return model if cleaned == text else type(model).model_validate_json(cleaned)


class RedactingFilter(logging.Filter):
    """Redacts a log record's message (its arguments merged in first)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return True


class RedactingStream(io.TextIOBase):
    """A text stream that redacts what it passes on (the CLI's stdout and stderr)."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(redact(text))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    @property
    def encoding(self):
        return getattr(self.stream, "encoding", "utf-8")
