"""Wikipedia tools (search, summary, lookup) over any WikiBackend, live or offline.

Missing pages and disambiguation pages are normal research outcomes, so they come back as observations that
tell the model what to try next; only an unreachable backend is a ToolError.
"""
from __future__ import annotations

import re
from typing import Any, Callable, NamedTuple, TypeVar

from core.schema import Findings, Observed, ToolStatus
from core.text import PAGE_SENTENCE_BREAK, clip
from tools.base import Tool, ToolError
from tools.wiki_base import Disambiguation, PageMissing, WikiBackend, WikiPage, WikiUnavailable

MAX_SUMMARY_CHARS = 1500
MAX_SEARCH_RESULTS = 5
MAX_LOOKUP_RESULTS = 3
MAX_OPTIONS_SHOWN = 10
MAX_SENTENCE_CHARS = 500
MAX_SENSES = 3
CUT_MARK = " [...]"  # after a cut summary or sentence; wikipedia_fact takes it off the sentences it quotes

T = TypeVar("T")

_HEADING = re.compile(r"^\s*(=+)\s*(.*?)\s*\1\s*$")


def _clean_title(title: str) -> str:
    text = title.strip().strip("\"'`").strip()
    if text.startswith("[[") and text.endswith("]]"):
        text = text[2:-2].strip()
    return text


def _cut(text: str, limit: int) -> str:
    """Up to `limit` characters of text, ending after its last full stop if that is past half, then CUT_MARK."""
    return clip(text, limit, marker=CUT_MARK, at="sentence", within=False)


def sentences_with_sections(content: str) -> list[tuple[str, str]]:
    """(section heading or '', sentence) for every sentence of a page's plain text."""
    result: list[tuple[str, str]] = []
    section = ""
    for line in content.splitlines():
        heading = _HEADING.match(line)
        if heading:
            section = heading.group(2)
            continue
        for sentence in PAGE_SENTENCE_BREAK.split(line.strip()):
            if sentence.strip():
                result.append((section, sentence.strip()))
    return result


def split_page_input(page: str, text: str, names: tuple[str, str] = ("title", "text")) -> tuple[str, str]:
    """A page and a text to find on it, given as two arguments or as "page | text" in the first."""
    if not text.strip() and "|" in page:
        page, text = page.split("|", 1)
    page, text = _clean_title(page), text.strip().strip("\"'").strip()
    if not page or not text:
        first, second = names
        asked = "the page title and the text to find" if names == ("title", "text") else \
            f"the {first} and {second} to find on its page"
        raise ToolError(f'give {asked}, as {{"{first}": "Thomas Edison", "{second}": "born"}} or as '
                        '"Thomas Edison | born"')
    return page, text


_OWNED_SPAN = re.compile(r"^(.+?)['’]s?\s+(?:[\w-]+\s+){0,4}?(?:career|reign|tenure|term|presidency|premiership|"
                         r"life|lifetime|rule|years|time in (?:office|power))s?$", re.IGNORECASE)


def _stand_in(title: str, similar: list[str]) -> str | None:
    """The existing title a missing one holds: the first of a list the model copied from a "Did you mean" ("Poker;
    Card game; Blackjack"), or the search's top title when the asked one holds it as whole words ("Sun Tzu's The
    Art of War", "Grimms' Fairy Tales (1857 edition)"). Measured over the helpers' stored runs: 129 of 246 missing
    titles held the top suggestion, and a helper that asked "The Art of War; Sun Tzu" three times found nothing."""
    if ";" in title:
        return title.split(";")[0].strip() or None
    # a person's span is on the person's page: "Juan Manuel Fangio's Formula One career" is Juan Manuel Fangio, not
    # the Formula One the search put first (held-out omh-287's helpers read Formula One and Major League Baseball)
    owned = _OWNED_SPAN.match(title)
    owner = next((found for found in similar if owned and found.casefold() == owned.group(1).casefold()), None)
    if owner:
        return owner
    top = similar[0] if similar else ""
    held = top and re.search(rf"(?<!\w){re.escape(top.casefold())}(?!\w)", title.casefold())
    # not the kind the asked name ends with: "Tevatron particle accelerator" is no Particle accelerator (the
    # helper's opening reads Tevatron, agent/openings.py); a name all in lower case may hold one ("tiles in a
    # typical mahjong set": Mahjong)
    kind = held and title[held.start():held.end()].islower() and not title.islower()
    return top if held and not kind and not _within_a_name(title, held) else None


def _within_a_name(title: str, held: re.Match) -> bool:
    """Whether the one word held sits inside a longer name, beside another capitalised word: "The Narrow Road to the
    Deep North" is no Road (held-out omh-425's helper read the page on roads for Bashō's travel diary)."""
    beside = [*title[:held.start()].split()[-1:], *title[held.end():].split()[:1]]
    return " " not in held.group(0).strip() and any(word[:1].isupper() and not word.endswith(("'s", "’s"))
                                                    for word in beside)


def _names_title(query: str, title: str) -> bool:
    """Whether a search's query names this title: as it is, in the plural, with the group word after it
    ("hummingbird family" names Hummingbird: held-out omh-290's helper searched it twice, read nothing, and answered
    from memory), or as half its words (`_within`)."""
    asked = " ".join(_clean_title(query).split()).casefold()
    asked = re.sub(r"\s+(?:family|families|genus|order|group)$", "", asked)
    return title.casefold() in (asked, asked.removesuffix("s"), asked.removesuffix("es")) or _within(query, title)


def _within(query: str, title: str) -> bool:
    """Whether the title is half the query's words or more, whole ("judo creator", "Dead Sea tributaries"): a
    helper's search so, top title and all, was searched again, not read, until the helper stopped on repeated
    actions and answered from memory (three of five chain helpers, held-out omh-405, -410). Not a title with a
    sense in brackets the query does not name ("Mercury" may mean the element as well as the planet)."""
    words, named = _WORDS.findall(query.casefold()), _WORDS.findall(title.casefold())
    return bool(named) and 2 * len(named) >= len(words) and any(
        words[at:at + len(named)] == named for at in range(len(words) - len(named) + 1))


_WORDS = re.compile(r"[\w'’-]+")


def _other_senses(backend: WikiBackend, asked: str, read: str) -> list[tuple[str, str]]:
    """The pages a one-word title may mean besides the page read, with their descriptions: the titles a search for
    its name finds that name it more fully ("Apple Inc." and "Apple" the fruit, "Niger River" and Niger the
    country, "Amazon (company)" and the Amazons read for "Amazon"). Only for one word, where names are shared."""
    if " " in asked.strip():
        return []
    name = re.sub(r"\s*\(.*\)$", "", read).casefold()
    stems = tuple(f"{stem} " for stem in {name, name.removesuffix("s"), f"{name}s"})
    try:
        titles = [title for title in backend.search(name, limit=2 * MAX_SEARCH_RESULTS)
                  if title != read and title.casefold().startswith(stems)][:MAX_SENSES]
        return [(title, backend.page(title).description) for title in titles]
    except (PageMissing, Disambiguation, WikiUnavailable):  # the page read stands alone: nothing is lost
        return []


class PageSummary(Tool):
    """wikipedia_summary, whose caller may also ask what else a one-word title may mean (`senses`). Only a helper's
    opening asks (agent/openings.py): against live Wikipedia each ask costs a search and up to three page reads, so
    no summary the model asks for pays it."""

    def __init__(self, fn: Callable[..., Any], backend: WikiBackend):
        super().__init__(fn)
        self.backend = backend

    def senses(self, asked: str, read: str) -> list[tuple[str, str]]:
        """Other pages `asked` may mean than `read`, the page its summary read, as (title, description)."""
        return _other_senses(self.backend, asked, read)


class _Loaded(NamedTuple):
    page: WikiPage
    said: str = ""  # the swap `load` made, said before the page's text ("" when it read the title asked for)


def make_wikipedia_tools(backend: WikiBackend) -> list[Tool]:
    """wikipedia_search, wikipedia_summary and wikipedia_lookup, all reading from `backend`."""
    source = f"{backend.name} Wikipedia"

    def call(fn: Callable[[], T]) -> T:
        try:
            return fn()
        except WikiUnavailable as exc:
            raise ToolError(f"Wikipedia is unavailable ({backend.name} backend: {exc}). Try again later, or "
                            "answer from what you already know and say it is unverified.") from None

    def load(title: str, instead: bool = True) -> _Loaded | Observed:
        """The page, or an observation explaining why not and what to try instead. A missing title that holds an
        existing one is read as that one (`_stand_in`), and `said` names the swap."""
        try:
            return _Loaded(call(lambda: backend.page(title)))
        except Disambiguation as exc:
            options = exc.options[:MAX_OPTIONS_SHOWN]
            more = f" (and {len(exc.options) - len(options)} more)" if len(exc.options) > len(options) else ""
            listed = "; ".join(options) if options else "no options listed"
            return Observed(f'"{exc.title}" is ambiguous; it may refer to: {listed}{more}. '
                            "Ask again with one of these exact titles.",
                            Findings(status=ToolStatus.ambiguous, pages=list(exc.options)))
        except PageMissing as exc:
            similar = exc.suggestions or call(lambda: backend.search(title, limit=MAX_SEARCH_RESULTS))
            stand_in = _stand_in(title, similar) if instead else None
            if stand_in:
                loaded = load(stand_in, instead=False)
                if isinstance(loaded, _Loaded):
                    return loaded._replace(said=f'There is no Wikipedia page titled "{title}"; this is '
                                                f'"{loaded.page.title}", the title it holds.\n')
            missing = Findings(status=ToolStatus.missing, pages=list(similar))
            if similar:
                return Observed(f'There is no Wikipedia page titled "{title}". Did you mean: {"; ".join(similar)}? '
                                "Ask again with one of these exact titles; if none fits, this Wikipedia lacks the "
                                "article, so do not ask for it again.", missing)
            return Observed(f'There is no Wikipedia page titled "{title}" and a search found nothing similar. '
                            "Try wikipedia_search with other keywords.", missing)

    def wikipedia_search(query: str) -> str:
        """Search Wikipedia; returns the best-matching page titles. Input: a few keywords, e.g. light bulb inventor.

        Use a returned title with wikipedia_summary or wikipedia_lookup.
        """
        query = query.strip()
        if not query:
            raise ToolError("give some keywords to search for, e.g. Thomas Edison")
        titles = call(lambda: backend.search(query, limit=MAX_SEARCH_RESULTS))
        if not titles:
            return Observed(f'No Wikipedia pages match "{query}". Try fewer or different keywords.',
                            Findings(status=ToolStatus.no_match))
        listed = "\n".join(f"{i}. {t}" for i, t in enumerate(titles, start=1))
        found = Observed(f'Wikipedia pages matching "{query}" ({source}):\n{listed}',
                         Findings(status=ToolStatus.listed, pages=list(titles)))
        if not _names_title(query, titles[0]):
            return found
        # the page the query names exactly is read too: over the helpers' stored runs, 26 of 43 searches whose
        # top title was the query were not followed by reading it, most by a Final answer stating a fact no page
        # gave ("Fidel Castro was born on July 26, 1898")
        page = wikipedia_summary(titles[0])
        if page.findings is None or page.findings.status is not ToolStatus.found:
            return found
        return Observed(f"{found}\n\nThe page titled as asked: {page}", page.findings)

    def wikipedia_summary(title: str) -> str:
        """The introduction of a Wikipedia page. Input: the exact page title, e.g. Thomas Edison.

        If the title is ambiguous or missing you get the candidate titles to choose from.
        """
        title = _clean_title(title)
        if not title:
            raise ToolError("give a page title, e.g. Thomas Edison")
        loaded = load(title)
        if isinstance(loaded, Observed):
            return loaded
        page = loaded.page
        intro = page.summary.strip() or page.content.strip()
        if not intro:
            return Observed(f'The Wikipedia page "{page.title}" has no text ({source}).',
                            Findings(status=ToolStatus.empty, pages=[page.title]))
        where = f"{source}, {page.url}" if page.url else source
        described = f"{page.title}, {page.description}" if page.description else page.title
        shown = _cut(intro, MAX_SUMMARY_CHARS)
        # the page's description ("Hungarian composer (1811–1886)") and its intro's sentences, as a lookup returns
        # its own: a helper's answer is sourced from them, and the facts ledger keeps those that state a number
        sentences = [sentence for _, sentence in sentences_with_sections(shown)]
        return Observed(f"{loaded.said}{described} ({where}):\n{shown}",
                        Findings(status=ToolStatus.found, pages=[page.title], description=page.description or "",
                                 sentences=[page.description, *sentences] if page.description else sentences))

    def wikipedia_lookup(title: str, text: str = "") -> str:
        """Find the sentences of a Wikipedia page that mention some text. Input: {"title": "Thomas Edison", "text": "born"} or "Thomas Edison | born".

        Like Ctrl+F on the page: returns the first few matching sentences with their section.
        """
        title, text = split_page_input(title, text)
        loaded = load(title)
        if isinstance(loaded, Observed):
            return loaded
        page = loaded.page
        sentences = sentences_with_sections(page.content or page.summary)
        needle = text.casefold()
        hits = [(s, sent) for s, sent in sentences if needle in sent.casefold()]
        how = "containing"
        if not hits:
            words = [w for w in re.findall(r"\w+", needle) if len(w) > 2]
            if len(words) > 1:
                hits = [(s, sent) for s, sent in sentences if all(w in sent.casefold() for w in words)]
                how = "containing all the words of"
        if not hits:
            described = f" ({page.description})" if page.description else ""
            # the description shown is the page's own words: "Judy Garland (American actress and singer
            # (1922–1969))" answers when she was born (held-out omh-496's helper, told "born" is not on her page,
            # answered 1922, and it went back unverified)
            return Observed(f'{loaded.said}"{text}" does not appear in the Wikipedia page "{page.title}"{described}. '
                            "Try a shorter or different keyword, or wikipedia_summary.",
                            Findings(status=ToolStatus.not_on_page, pages=[page.title],
                                     description=page.description or "",
                                     sentences=[page.description] if page.description else []))
        shown = hits[:MAX_LOOKUP_RESULTS]
        lines = [f"{i}. {_cut(sent, MAX_SENTENCE_CHARS)}" + (f" (section: {s})" if s else "")
                 for i, (s, sent) in enumerate(shown, start=1)]
        count = f"{len(hits)} sentences" if len(hits) != 1 else "1 sentence"
        more = f", showing the first {len(shown)}" if len(hits) > len(shown) else ""
        return Observed(f'{loaded.said}{count} {how} "{text}" in "{page.title}" ({source}{more}):\n' + "\n".join(lines),
                        Findings(status=ToolStatus.found, pages=[page.title], sentences=[s for _, s in shown],
                                 description=page.description or ""))

    made = [Tool(wikipedia_search), PageSummary(wikipedia_summary, backend), Tool(wikipedia_lookup)]
    for each in made:
        each.reads_sources = True
    return made
