"""The contract every Wikipedia backend (live API, offline corpus) fulfils, so the tools don't care which."""
from __future__ import annotations

from typing import Protocol, runtime_checkable

from pydantic import BaseModel


class WikiPage(BaseModel):
    title: str
    summary: str           # the intro / first section
    content: str           # the full text available (offline: same as summary)
    url: str = ""
    description: str = ""  # Wikidata's short description, e.g. "American inventor and businessman (1847–1931)"


class PageMissing(Exception):
    """No page with that title. suggestions: similar titles ("did you mean")."""

    def __init__(self, title: str, suggestions: list[str] | None = None):
        self.title = title
        self.suggestions = suggestions or []
        super().__init__(title)


class Disambiguation(Exception):
    """The title names several pages. options: the candidate titles."""

    def __init__(self, title: str, options: list[str]):
        self.title = title
        self.options = options
        super().__init__(title)


class WikiUnavailable(Exception):
    """The backend cannot be reached (network down, timeout)."""


@runtime_checkable
class WikiBackend(Protocol):
    name: str  # "live" or "offline", shown in observations/logs

    def search(self, query: str, limit: int = 5) -> list[str]:
        """Best-matching page titles, best first."""
        ...

    def page(self, title: str) -> WikiPage:
        """The page with that title. Raises PageMissing, Disambiguation or WikiUnavailable."""
        ...
