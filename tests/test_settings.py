"""Every environment variable is read through one settings object, validated, and documented in the README."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.settings import SettingsError, documented_variables, load_settings

README = Path(__file__).resolve().parent.parent / "README.md"


def test_every_variable_is_in_the_readme():
    readme = README.read_text(encoding="utf-8")
    missing = [name for name in documented_variables() if f"`{name}`" not in readme]
    assert not missing, f"README does not list {missing}"
    assert len(documented_variables()) >= 18


@pytest.mark.parametrize("name, value, message", [
    ("PONDER_CHROMA_PORT", "eighty", "PONDER_CHROMA_PORT='eighty'"),
    ("PONDER_CHROMA_PORT", "70000", "PONDER_CHROMA_PORT='70000'"),
    ("PONDER_CHROMA_TIMEOUT", "-1", "PONDER_CHROMA_TIMEOUT"),
    ("PONDER_THREADS", "0", "PONDER_THREADS"),
    ("PONDER_EMBED_THREADS", "many", "PONDER_EMBED_THREADS"),
    ("PONDER_WIKI", "wikiwand", "PONDER_WIKI='wikiwand'"),
    ("PONDER_BACKEND", "gpt", "PONDER_BACKEND='gpt'"),
    ("PONDER_EMBEDDER", "bert", "PONDER_EMBEDDER"),
    ("PONDER_CHROMA_SSL", "perhaps", "PONDER_CHROMA_SSL"),
    ("PONDER_LLM_TIMEOUT", "0", "PONDER_LLM_TIMEOUT='0'"),
    ("PONDER_LLM_RETRIES", "11", "PONDER_LLM_RETRIES='11'"),
])
def test_a_bad_value_names_the_variable(monkeypatch, name, value, message):
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError, match="bad environment variable") as error:
        load_settings()
    assert message in str(error.value) and "\n" not in str(error.value)


def test_values_are_read_from_the_current_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("PONDER_HOME", str(tmp_path))
    monkeypatch.setenv("PONDER_CHROMA_PORT", "8123")
    monkeypatch.setenv("PONDER_WIKI", "")  # empty counts as unset
    settings = load_settings()
    assert (settings.ponder_home, settings.chroma_port, settings.wiki) == (tmp_path, 8123, "auto")


def test_secrets_never_show_in_the_settings_repr(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-very-secret")
    monkeypatch.setenv("PONDER_CHROMA_TOKEN", "tok-very-secret")
    settings = load_settings()
    assert "very-secret" not in repr(settings) and "very-secret" not in str(settings.model_dump())
    assert settings.openai_api_key.get_secret_value() == "sk-very-secret"
