"""A small MediaWiki-API-compatible server on 127.0.0.1 for tests: answers the queries wikipedia 1.4.0 sends.

    api_url, stop = start_mediawiki_server()
    try: LiveWiki(api_url=api_url).page("Thomas Edison")
    finally: stop()

or `with MediaWikiServer() as server: server.api_url`. Besides the normal endpoint (/w/api.php) it serves
/slow/w/api.php (waits `slow_seconds` before answering), /drip/w/api.php (sends the body a byte at a time,
forever-ish, to test overall deadlines) and /broken/w/api.php (HTTP 500 with an HTML body).
"""
from __future__ import annotations

import difflib
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterable
from urllib.parse import parse_qs, urlsplit


@dataclass
class FakePage:
    title: str
    intro: str
    sections: list[tuple[str, str]] = field(default_factory=list)  # (heading, text)
    redirects: list[str] = field(default_factory=list)             # titles that redirect here
    disambiguation: list[tuple[str, str]] | None = None            # (option title, description)

    @property
    def content(self) -> str:
        parts = [self.intro] + [f"\n\n== {heading} ==\n{text}" for heading, text in self.sections]
        return "".join(parts)


DEFAULT_PAGES: list[FakePage] = [
    FakePage(
        "Python (programming language)",
        "Python is a high-level, general-purpose programming language. Its design philosophy emphasizes code "
        "readability with the use of significant indentation. Python is dynamically type-checked and "
        "garbage-collected. It supports multiple programming paradigms, including structured, object-oriented "
        "and functional programming. Guido van Rossum began working on Python in the late 1980s as a successor "
        "to the ABC programming language and first released it in 1991 as Python 0.9.0.",
        [("History", "Python was conceived in the late 1980s by Guido van Rossum at Centrum Wiskunde & "
                     "Informatica (CWI) in the Netherlands. Python 2.0 was released in 2000. Python 3.0, "
                     "released in 2008, was a major revision not completely backward-compatible with earlier "
                     "versions."),
         ("Design philosophy", "Python is a multi-paradigm programming language. Its core philosophy is "
                               "summarized in the Zen of Python, which includes aphorisms such as: Beautiful is "
                               "better than ugly. Readability counts.")],
        redirects=["Python programming language", "Python language"],
    ),
    FakePage(
        "Thomas Edison",
        "Thomas Alva Edison (February 11, 1847 – October 18, 1931) was an American inventor and businessman. "
        "He developed many devices in fields such as electric power generation, mass communication, sound "
        "recording, and motion pictures. These inventions, which include the phonograph, the motion picture "
        "camera, and early versions of the electric light bulb, have had a widespread impact on the modern "
        "industrialized world.",
        [("Early life", "Edison was born in Milan, Ohio, on February 11, 1847, and grew up in Port Huron, "
                        "Michigan. He was the seventh and last child of Samuel Ogden Edison Jr. and Nancy "
                        "Matthews Elliott."),
         ("Electric light", "In 1878, Edison began working on a system of electrical illumination. On "
                            "January 27, 1880, he was granted a patent for an electric lamp using a carbon "
                            "filament. Edison did not invent the first electric light bulb, but instead "
                            "invented the first commercially practical incandescent light."),
         ("Death", "Edison died of complications of diabetes on October 18, 1931, in his home in West Orange, "
                   "New Jersey.")],
        redirects=["Edison", "Thomas Alva Edison"],
    ),
    FakePage(
        "Incandescent light bulb",
        "An incandescent light bulb, also known as an incandescent lamp or incandescent light globe, is an "
        "electric light that produces light with a filament heated until it glows. Historians Robert Friedel "
        "and Paul Israel list inventors of incandescent lamps prior to Joseph Swan and Thomas Edison. They "
        "conclude that Edison's version was able to outstrip the others because of a combination of three "
        "factors: an effective incandescent material, a higher vacuum than others were able to achieve, and a "
        "high resistance that made power distribution from a centralized source economically viable.",
        [("History", "In 1879 Thomas Edison and his team at Menlo Park produced a carbon-filament lamp that "
                     "lasted over 13 hours. Joseph Swan independently developed a similar lamp in Britain.")],
        redirects=["Light bulb", "Lightbulb", "Incandescent lamp"],
    ),
    FakePage(
        "Mercury",
        "Mercury commonly refers to: Mercury (planet), Mercury (element), Mercury (mythology).",
        disambiguation=[("Mercury (planet)", "the smallest planet in the Solar System"),
                        ("Mercury (element)", "a chemical element with symbol Hg"),
                        ("Mercury (mythology)", "a Roman god")],
    ),
    FakePage(
        "Mercury (planet)",
        "Mercury is the first planet from the Sun and the smallest in the Solar System. It is a rocky planet "
        "with a trace atmosphere.",
    ),
    FakePage(
        "Mercury (element)",
        "Mercury is a chemical element; it has symbol Hg and atomic number 80. It is the only metallic element "
        "that is liquid at standard temperature and pressure.",
    ),
]


def _normalise_title(title: str) -> str:
    title = re.sub(r"[\s_]+", " ", title).strip()
    return title[:1].upper() + title[1:]


class _Wiki:
    """The data and the answers, separated from HTTP so the shapes are easy to read."""

    def __init__(self, pages: Iterable[FakePage]):
        self.pages: dict[str, FakePage] = {}
        self.ids: dict[str, int] = {}
        self.redirects: dict[str, str] = {}
        for i, page in enumerate(pages, start=1000):
            self.pages[page.title] = page
            self.ids[page.title] = i
            for alias in page.redirects:
                self.redirects[_normalise_title(alias)] = page.title

    def answer(self, params: dict[str, str]) -> dict:
        if params.get("action", "query") != "query":
            return {"error": {"code": "unsupported", "info": f"action {params.get('action')!r} not served"}}
        if params.get("list") == "search":
            return self._search(params)
        return self._pages(params)

    def _search(self, params: dict[str, str]) -> dict:
        query = params.get("srsearch", "")
        limit = int(params.get("srlimit", "10") or 10)
        words = set(re.findall(r"\w+", query.lower()))
        scored = []
        for title, page in self.pages.items():
            title_words = set(re.findall(r"\w+", title.lower()))
            alias_words = set(re.findall(r"\w+", " ".join(page.redirects).lower()))
            text_words = set(re.findall(r"\w+", page.content.lower()))
            score = 3 * len(words & title_words) + 2 * len(words & alias_words) + len(words & text_words)
            if score:
                scored.append((-score, title))
        results = [{"ns": 0, "title": t, "pageid": self.ids[t]} for _, t in sorted(scored)[:limit]]
        # like MediaWiki: searchinfo holds what srinfo asks for (default totalhits|suggestion), a suggestion
        # only when there is one; wikipedia 1.4.0 reads searchinfo['suggestion'] whenever searchinfo is non-empty
        wanted = params.get("srinfo", "totalhits|suggestion").split("|")
        info: dict = {"totalhits": len(scored)} if "totalhits" in wanted else {}
        if "suggestion" in wanted and not results:
            close = difflib.get_close_matches(_normalise_title(query), list(self.pages), n=1, cutoff=0.6)
            if close:
                info["suggestion"] = close[0]
        query_body: dict = {"search": results}
        if info:
            query_body["searchinfo"] = info
        return {"batchcomplete": "", "query": query_body}

    def _pages(self, params: dict[str, str]) -> dict:
        requested = params.get("titles", "")
        query: dict = {}
        title = _normalise_title(requested)
        if title != requested:
            query["normalized"] = [{"from": requested, "to": title}]
        if "redirects" in params and title in self.redirects:
            query["redirects"] = [{"from": title, "to": self.redirects[title]}]
            title = self.redirects[title]
        page = self.pages.get(title)
        if page is None:
            query["pages"] = {"-1": {"ns": 0, "title": title, "missing": ""}}
            return {"batchcomplete": "", "query": query}
        pageid = self.ids[title]
        record: dict = {"pageid": pageid, "ns": 0, "title": title}
        props = set(params.get("prop", "").split("|"))
        if "info" in props:
            record.update(contentmodel="wikitext", pagelanguage="en", lastrevid=pageid * 10,
                          fullurl=f"https://en.wikipedia.org/wiki/{title.replace(' ', '_')}")
        if "pageprops" in props and page.disambiguation is not None:
            record["pageprops"] = {"disambiguation": ""}
        if "extracts" in props:
            record["extract"] = page.intro if "exintro" in params else page.content
        if "revisions" in props:
            revision: dict = {"revid": pageid * 10, "parentid": pageid * 10 - 1}
            if "content" in params.get("rvprop", ""):
                items = "".join(f'<li><a href="/wiki/{t.replace(" ", "_")}" title="{t}">{t}</a>, {d}</li>'
                                for t, d in page.disambiguation or [])
                revision["*"] = f"<div><p><b>{title}</b> may refer to:</p><ul>{items}</ul></div>"
            record["revisions"] = [revision]
        query["pages"] = {str(pageid): record}
        return {"batchcomplete": "", "query": query}


class MediaWikiServer:
    """The server in a daemon thread on a free loopback port. Use as a context manager or call stop()."""

    def __init__(self, pages: Iterable[FakePage] | None = None, slow_seconds: float = 5.0):
        self.wiki = _Wiki(DEFAULT_PAGES if pages is None else pages)
        self.slow_seconds = slow_seconds
        self.requests: list[dict[str, str]] = []  # every query received, for assertions
        self._stopping = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        host, port = self._httpd.server_address[:2]
        self.base_url = f"http://{host}:{port}"
        self.api_url = f"{self.base_url}/w/api.php"
        self.slow_url = f"{self.base_url}/slow/w/api.php"
        self.drip_url = f"{self.base_url}/drip/w/api.php"
        self.broken_url = f"{self.base_url}/broken/w/api.php"
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="mediawiki-test-server", daemon=True)
        self._thread.start()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                url = urlsplit(self.path)
                params = {k: v[0] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
                server.requests.append({"path": url.path, **params})
                if url.path.startswith("/broken/"):
                    self._send(500, b"<html><body>Internal error</body></html>", "text/html")
                    return
                if url.path.startswith("/slow/") and server._stopping.wait(server.slow_seconds):
                    return  # stopping: drop the request
                body = json.dumps(server.wiki.answer(params)).encode()
                if url.path.startswith("/drip/"):
                    self._drip(body)
                    return
                self._send(200, body, "application/json; charset=utf-8")

            def _send(self, status: int, body: bytes, content_type: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except OSError:
                    pass  # the client gave up (a timeout test): nothing to report

            def _drip(self, body: bytes) -> None:
                """Headers at once, then one byte every 0.2 s: each read is quick, the whole is slow."""
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                for byte in body:
                    if server._stopping.wait(0.2):
                        return
                    try:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                    except OSError:
                        return

            def log_message(self, format: str, *args: object) -> None:  # keep test output quiet
                pass

        return Handler

    def stop(self) -> None:
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> "MediaWikiServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_mediawiki_server(pages: Iterable[FakePage] | None = None, slow_seconds: float = 5.0):
    """Start a server; return (api_url, stop). api_url is what LiveWiki(api_url=...) / PONDER_WIKI_API_URL take."""
    server = MediaWikiServer(pages, slow_seconds=slow_seconds)
    return server.api_url, server.stop
