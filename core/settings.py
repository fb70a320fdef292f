"""Every environment variable Ponder reads, in one place, validated once (pydantic-settings).

`load_settings()` reads the environment as it is now (cheap: a few microseconds), so a process that changes
its environment, as tests do, is seen. A bad value is a SettingsError naming the variable, which the CLI prints
as one line.
"""
from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict


class SettingsError(ValueError):
    """An environment variable with a value Ponder cannot use."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_ignore_empty=True, extra="ignore", populate_by_name=True)

    home: Path | None = Field(None, alias="PONDER_HOME", description="data directory; default ~/.ponder")
    backend: Literal["local", "openai"] | None = Field(None, alias="PONDER_BACKEND")
    model: str | None = Field(None, alias="PONDER_MODEL")
    gguf: Path | None = Field(None, alias="PONDER_GGUF")
    openai_api_key: SecretStr | None = Field(None, alias="OPENAI_API_KEY")
    openai_base_url: str | None = Field(None, alias="OPENAI_BASE_URL")
    llm_timeout: float = Field(60.0, gt=0, le=3600, alias="PONDER_LLM_TIMEOUT")
    llm_retries: int = Field(3, ge=0, le=10, alias="PONDER_LLM_RETRIES")
    threads: int | None = Field(None, ge=1, le=512, alias="PONDER_THREADS")
    wiki: Literal["offline", "live", "auto"] = Field("auto", alias="PONDER_WIKI")
    wiki_api_url: str | None = Field(None, alias="PONDER_WIKI_API_URL")
    wiki_corpus: Path | None = Field(None, alias="PONDER_WIKI_CORPUS")
    chroma_host: str | None = Field(None, alias="PONDER_CHROMA_HOST")
    chroma_port: int = Field(8000, ge=1, le=65535, alias="PONDER_CHROMA_PORT")
    chroma_token: SecretStr | None = Field(None, alias="PONDER_CHROMA_TOKEN")
    chroma_ssl: bool = Field(False, alias="PONDER_CHROMA_SSL")
    chroma_timeout: float = Field(30.0, gt=0, le=3600, alias="PONDER_CHROMA_TIMEOUT")
    embedder: Literal["minilm", "minilm-onnx-int8"] = Field("minilm", alias="PONDER_EMBEDDER")
    embed_threads: int = Field(1, ge=1, le=512, alias="PONDER_EMBED_THREADS")
    debug: bool = Field(False, alias="PONDER_DEBUG")
    today: date | None = Field(None, alias="PONDER_TODAY", description="pin today's date (YYYY-MM-DD)")
    research: bool = Field(True, alias="PONDER_RESEARCH",
                           description="ponder ask's default: sub-agents and a facts ledger (0 for plain ReAct)")

    @property
    def ponder_home(self) -> Path:
        return (self.home or Path.home() / ".ponder").expanduser()


def load_settings() -> Settings:
    try:
        return Settings()
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            name = error["loc"][0] if error["loc"] else "?"
            value = error.get("input")
            problems.append(f"{name}={value!r}: {error['msg'].lower()}")
        raise SettingsError("bad environment variable " + "; ".join(problems)) from None


def documented_variables() -> list[str]:
    """The names of every variable Ponder reads (the README lists each; a test checks it)."""
    return [field.alias for field in Settings.model_fields.values() if field.alias]
