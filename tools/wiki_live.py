"""The live Wikipedia backend, on the `wikipedia` package (1.4.0), with every request bounded in time.

wikipedia 1.4.0 sends all its HTTP through `wikipedia.wikipedia._wiki_request`, which calls
`requests.get(API_URL, ...)` with no timeout against a module-global URL. While a LiveWiki call is in flight,
that one function is replaced by a router: calls made inside a LiveWiki method (marked by a context variable)
go to that instance's URL with its timeout, its overall deadline and a response-size cap; any other caller gets
the original function. When the last call in flight returns, the package's own function is put back, so the
process is left as it was found.
"""
from __future__ import annotations

import contextvars
import json
import threading
import time
import warnings
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, TypeVar

import requests
import urllib3
import wikipedia
import wikipedia.wikipedia as wikipedia_module

from core.settings import load_settings
from tools.wiki_base import Disambiguation, PageMissing, WikiPage, WikiUnavailable

DEFAULT_API_URL = "https://en.wikipedia.org/w/api.php"
API_URL_ENV = "PONDER_WIKI_API_URL"
MAX_RESPONSE_BYTES = 8 * 1024 * 1024
USER_AGENT = "Ponder/0.1 (research agent; wikipedia-python 1.4.0)"

T = TypeVar("T")


@dataclass
class _RequestScope:
    api_url: str
    timeout: float
    deadline: float  # time.monotonic() by which the whole backend call must be done
    session: requests.Session


_scope: contextvars.ContextVar[_RequestScope | None] = contextvars.ContextVar("ponder_wiki_scope", default=None)
_install_lock = threading.Lock()
_original_request: Callable[[dict], dict] | None = None  # the package's own _wiki_request while replaced
_calls_in_flight = 0


def _scoped_request(params: dict[str, Any]) -> dict:
    """Drop-in for wikipedia.wikipedia._wiki_request: same params and result, bounded in time and size."""
    scope = _scope.get()
    if scope is None:
        return _original_request(params)  # type: ignore[misc]  # not ours: behave as the package ships
    params["format"] = "json"
    params.setdefault("action", "query")
    remaining = scope.deadline - time.monotonic()
    if remaining <= 0:
        raise WikiUnavailable(f"Wikipedia did not answer within {scope.timeout:g} s")
    try:
        with scope.session.get(scope.api_url, params=params, headers={"User-Agent": USER_AGENT},
                               timeout=min(scope.timeout, remaining), stream=True) as response:
            if response.status_code != 200:
                raise WikiUnavailable(f"Wikipedia answered HTTP {response.status_code}")
            body = bytearray()
            # requests' read timeout is per socket read, so a server dripping bytes never trips it: read what
            # has arrived (read1, one socket read) and check the overall deadline after each piece
            read = getattr(response.raw, "read1", response.raw.read)  # read1 from urllib3 2; 1.26 lacks it
            while chunk := read(16384, decode_content=True):
                body.extend(chunk)
                if len(body) > MAX_RESPONSE_BYTES:
                    raise WikiUnavailable("Wikipedia's answer was too large")
                if time.monotonic() > scope.deadline:
                    raise WikiUnavailable(f"Wikipedia did not answer within {scope.timeout:g} s")
    except (requests.Timeout, urllib3.exceptions.TimeoutError):
        raise WikiUnavailable(f"Wikipedia did not answer within {scope.timeout:g} s") from None
    except (requests.RequestException, urllib3.exceptions.HTTPError, OSError) as exc:
        raise WikiUnavailable(f"cannot reach Wikipedia at {scope.api_url}: {type(exc).__name__}") from None
    try:
        return json.loads(body)
    except ValueError:
        raise WikiUnavailable("Wikipedia's answer was not valid JSON") from None


@contextmanager
def _router_installed() -> Iterator[None]:
    """The router is in place for as long as any LiveWiki call (in any thread) is in flight."""
    global _original_request, _calls_in_flight
    with _install_lock:
        if _calls_in_flight == 0:
            _original_request = wikipedia_module._wiki_request
            wikipedia_module._wiki_request = _scoped_request
        _calls_in_flight += 1
    try:
        yield
    finally:
        with _install_lock:
            _calls_in_flight -= 1
            if _calls_in_flight == 0:
                wikipedia_module._wiki_request = _original_request
                _original_request = None


class LiveWiki:
    """WikiBackend over the live MediaWiki API (or any compatible one, e.g. a loopback test server).

    api_url: the api.php endpoint; default $PONDER_WIKI_API_URL or English Wikipedia.
    timeout: seconds for each HTTP request and for each whole search()/page() call (which may need several).
    """

    name = "live"

    def __init__(self, api_url: str | None = None, timeout: float = 10.0, cache_size: int = 64):
        self.api_url = api_url or load_settings().wiki_api_url or DEFAULT_API_URL
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        self.timeout = timeout
        self._session = requests.Session()
        self._pages: OrderedDict[str, WikiPage] = OrderedDict()  # small LRU: summary then lookup reuse a page
        self._cache_size = cache_size

    @contextmanager
    def _requests(self) -> Iterator[None]:
        """Route the package's requests to this instance; nested use shares the outer call's deadline."""
        current = _scope.get()
        if current is not None and current.session is self._session:
            yield
            return
        token = _scope.set(_RequestScope(self.api_url, self.timeout, time.monotonic() + self.timeout,
                                         self._session))
        try:
            with _router_installed():
                yield
        finally:
            _scope.reset(token)

    def _call(self, fn: Callable[[], T]) -> T:
        """Run package code in our request scope; package-level failures become WikiUnavailable."""
        with self._requests(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # bs4's "no parser specified" warning inside the package
            try:
                return fn()
            except (WikiUnavailable, wikipedia.PageError, wikipedia.DisambiguationError):
                raise
            except wikipedia.WikipediaException as exc:
                raise WikiUnavailable(f"Wikipedia error: {exc}") from None
            except (KeyError, IndexError, TypeError, AssertionError, AttributeError, RecursionError) as exc:
                raise WikiUnavailable(f"unexpected answer from Wikipedia ({type(exc).__name__})") from None

    def search(self, query: str, limit: int = 5) -> list[str]:
        if not query.strip():
            return []
        # the package's search() is memoised forever in a global cache keyed without the URL: call the
        # undecorated function so results from different endpoints never mix
        return self._call(lambda: list(wikipedia.search.fn(query, results=limit)))[:limit]

    def page(self, title: str) -> WikiPage:
        title = title.strip()
        if not title:
            raise PageMissing(title)
        cached = self._pages.get(title)
        if cached is not None:
            self._pages.move_to_end(title)
            return cached
        with self._requests():  # one deadline for the whole lookup, retries included
            try:
                page = self._load(title)
            except PageMissing:
                # titles are case-sensitive after the first letter; "thomas edison" should still find the page
                suggestions = self._suggestions(title)
                exact = [s for s in suggestions if s.casefold() == title.casefold()]
                if not exact:
                    raise PageMissing(title, suggestions) from None
                page = self._load(exact[0])
        self._pages[title] = page
        while len(self._pages) > self._cache_size:
            self._pages.popitem(last=False)
        return page

    def _suggestions(self, title: str) -> list[str]:
        """Search hits for a missing title, led by the API's spelling suggestion when it has one."""
        hits, spelling = self._call(lambda: wikipedia.search.fn(title, results=5, suggestion=True))
        return list(dict.fromkeys(([spelling] if spelling else []) + list(hits)))

    def _load(self, title: str) -> WikiPage:
        def fetch() -> WikiPage:
            p = wikipedia.page(title, auto_suggest=False, redirect=True)
            return WikiPage(title=p.title, summary=p.summary.strip(), content=p.content.strip(), url=p.url)
        try:
            return self._call(fetch)
        except wikipedia.PageError:
            raise PageMissing(title) from None
        except wikipedia.DisambiguationError as exc:
            raise Disambiguation(exc.title, list(dict.fromkeys(o for o in exc.options if o.strip()))) from None
