"""Composite tools: a small fixed pipeline of other tools, registered and called like any tool.

The pipeline is a function that reaches the inner tools through `call`, which records every inner call; the
registry hands the record list in per run (ToolRegistry.run), so concurrent runs never share one.
"""
from __future__ import annotations

import difflib
import inspect
import re
import time
import unicodedata
from typing import Any, Callable, Sequence

from core.schema import Findings, ToolStatus
from core.text import clip
from tools.base import Tool, ToolCall, ToolError
from tools.wikipedia import CUT_MARK, sentences_with_sections, split_page_input


class Caller:
    """What a composite's function receives as `call`: call(tool_name, action_input) -> observation.

    Each call is recorded as a ToolCall, failed ones too (their observation is the "Error: ..." text the registry
    would show), and the failure is re-raised so the pipeline stops unless it catches it.
    """

    def __init__(self, tools: dict[str, Tool], calls: list[ToolCall]):
        self._tools = tools
        self.calls = calls

    def __call__(self, name: str, action_input: str) -> str:
        t = self._tools.get(name)
        if t is None:
            raise ToolError(f"composite pipeline needs the tool {name!r}, which it was not given")
        start = time.perf_counter()
        try:
            # A nested composite appends its own inner calls to the same list, before its entry (flat trace).
            observation = t.invoke(action_input, self.calls)
        except ToolError as exc:
            self._record(name, action_input, f"Error: {exc}", start)
            raise
        except Exception as exc:
            self._record(name, action_input, f"Error: {name} failed: {type(exc).__name__}: {exc}", start)
            raise
        self._record(name, action_input, observation, start)
        return observation

    def _record(self, name: str, action_input: str, observation: str, start: float) -> None:
        self.calls.append(ToolCall(name=name, input=action_input, observation=observation,
                                   seconds=time.perf_counter() - start))


class CompositeTool(Tool):
    """A tool whose function runs other tools: fn(<model arguments>, *, call: Caller) -> str.

    `call` is supplied at each run and left out of the input schema; the docstring is the prompt description.
    """

    injected = frozenset({"call"})

    def __init__(self, fn: Callable[..., Any], tools: Sequence[Tool], name: str | None = None,
                 description: str | None = None):
        if "call" not in inspect.signature(fn).parameters:
            raise TypeError(f"{fn.__name__} needs a `call` parameter to reach its inner tools")
        super().__init__(fn, name=name, description=description)
        self.tools = {t.name: t for t in tools}

    def invoke(self, action_input: str, calls: list[ToolCall] | None = None) -> str:
        args = self.arguments(action_input)
        return str(self.fn(**args, call=Caller(self.tools, calls if calls is not None else [])))


# --- wikipedia_fact -------------------------------------------------------------------------------------------

WIKI_TOOLS = ("wikipedia_search", "wikipedia_summary", "wikipedia_lookup")
MAX_FACT_SENTENCES = 3
MAX_FACT_SENTENCE_CHARS = 300
MAX_KEYWORD_VARIANTS = 2
MIN_TITLE_MATCH = 0.5

# Words a page states its facts with when the asked keyword is absent ("born" pages often say "birth").
_RELATED = {
    "born": ("birth",), "birth": ("born",), "died": ("death",), "death": ("died",), "dead": ("death", "died"),
    "population": ("inhabitants", "residents"), "inhabitants": ("population",), "residents": ("population",),
    "people": ("population",), "founded": ("established",), "established": ("founded",),
    "founding": ("founded",), "height": ("tall",), "tall": ("height",), "invented": ("invention",),
    "invention": ("invented",), "discovered": ("discovery",), "discovery": ("discovered",),
}

# The observation formats of tools/wikipedia.py this pipeline reads (its tests run on the real corpus).
_PAGE_HEADER = re.compile(r"^(?P<described>.+) \((?P<source>[^()]*Wikipedia)(?:, (?P<url>\S+))?\):$")
_NUMBERED = re.compile(r"^\d+\. (.+)$")
_LOOKUP_FOUND = re.compile(r'^\d+ sentences? containing .* in "(?P<title>.+)" \(')
_SECTION_SUFFIX = re.compile(r" \(section: [^()]*\)$")
# A person's Wikidata description ends with the life years, "(1847–1931)"; offline intros drop the dates.
_LIFE_YEARS = re.compile(r"\(([^()–-]*\d[^()–-]*?)\s*[–-]\s*([^()–-]*\d[^()–-]*)\)$")
_LIFE_WORDS = {"born", "birth", "died", "death", "dead", "lifespan", "life", "age"}


def _words(text: str) -> list[str]:
    folded = "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))
    return re.findall(r"[0-9a-z]+", folded)


def _title_match(entity: str, title: str) -> float:
    """How well a page title names the entity, 0..1; "(qualifier)" suffixes are ignored."""
    e, t = _words(entity), _words(re.sub(r"\s*\([^()]*\)\s*$", "", title))
    if not e or not t:
        return 0.0
    ratio = difflib.SequenceMatcher(None, " ".join(e), " ".join(t), autojunk=False).ratio()
    overlap = len(set(e) & set(t)) / len(set(e) | set(t))
    return max(ratio, overlap)


def _keyword_variants(what: str) -> list[str]:
    """Related words and singulars, one word of the keyword changed at a time."""
    words = what.casefold().split()
    out: list[str] = []
    for i, word in enumerate(words):
        swaps = list(_RELATED.get(word, ()))
        if len(word) > 4 and word.endswith("ies"):
            swaps.append(word[:-3] + "y")
        elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            swaps.append(word[:-1])
        for swap in swaps:
            variant = " ".join(words[:i] + [swap] + words[i + 1:])
            if variant != what.casefold() and variant not in out:
                out.append(variant)
    return out[:MAX_KEYWORD_VARIANTS]


def _shorten(sentence: str) -> str:
    """Cut at a space, never inside a number or word; wikipedia_lookup's own cut mark is dropped first."""
    return clip(sentence.removesuffix(CUT_MARK).strip(), MAX_FACT_SENTENCE_CHARS, marker=" …", at="space",
                strip=" ,;:", within=False)


def _listed(sentences: list[str]) -> str:
    shown = sorted(sentences, key=lambda s: not re.search(r"\d", s))[:MAX_FACT_SENTENCES]  # numbers first
    return "\n".join(f"{i}. {_shorten(s)}" for i, s in enumerate(shown, start=1))


def _page_header(summary: str) -> re.Match | None:
    """The first line of a wikipedia_summary observation that found a page: "Title, description (source, url):"."""
    findings = _findings(summary)
    if findings is not None and findings.status is not ToolStatus.found:
        return None
    return _PAGE_HEADER.match((summary.splitlines() or [""])[0])


def _findings(observation: str) -> Findings | None:
    """What the inner tool reported as fields (core.schema.Observed); None from a tool that reports only text."""
    return getattr(observation, "findings", None)


def _resolve(call: Caller, entity: str, what: str, summary: str) -> tuple[str, str, str] | str:
    """(note, title, summary of that title) for an entity whose summary was missing or ambiguous, or the
    observation to give when no search result is titled like the entity."""
    reported = _findings(summary)
    ambiguous = reported.status is ToolStatus.ambiguous if reported else \
        '" is ambiguous;' in (summary.splitlines() or [""])[0]
    # An ambiguous name is ranked with the keyword: "Mercury orbit" finds the planet first, not the element.
    found = call("wikipedia_search", f"{entity} {what}" if ambiguous else entity)
    listed = _findings(found)
    titles = list(listed.pages) if listed else [m.group(1).strip() for m in map(_NUMBERED.match, found.splitlines())
                                                  if m]
    if ambiguous:  # the disambiguation page itself is no answer
        titles = [t for t in titles if _words(t) != _words(entity)]
    scored = [(_title_match(entity, t), -rank, t) for rank, t in enumerate(titles)]
    best, _, title = max(scored, default=(0.0, 0, ""))
    if best < MIN_TITLE_MATCH:
        shown = f" (it found: {'; '.join(titles)})" if titles else ""
        return (f'There is no Wikipedia page for "{entity}", and a search found no page titled like it{shown}. '
                "This Wikipedia may lack the article; try wikipedia_search with other keywords.")
    if ambiguous:
        others = [t for score, _, t in scored if t != title and score >= best]
        note = f'"{entity}" is ambiguous; showing "{title}"' + (f" (also: {'; '.join(others)})" if others else "")
    else:
        note = f'No page is titled "{entity}"; the closest is "{title}"'
    return note + ".\n", title, call("wikipedia_summary", title)


def _life_years(described: str, what: str) -> str:
    """A line with the birth and death years when the keyword asks for them and the description has them."""
    life = _LIFE_YEARS.search(described)
    if not life or not _LIFE_WORDS & set(_words(what)):
        return ""
    born, died = life.group(1).strip(), life.group(2).strip()
    era = re.search(r"\s(BCE?)$", died)
    if era and not re.search(r"\b(BCE?|AD|CE)\b", born):
        born += f" {era.group(1)}"  # "(100–44 BC)": both years are BC
    return f"Life years from the description: born {born}, died {died}.\n"


def make_wikipedia_fact(wiki_tools: Sequence[Tool]) -> CompositeTool:
    """wikipedia_fact over the given wikipedia_search, wikipedia_summary and wikipedia_lookup tools."""
    missing = [name for name in WIKI_TOOLS if name not in {t.name for t in wiki_tools}]
    if missing:
        raise ValueError(f"wikipedia_fact needs the tools {', '.join(missing)}")

    def wikipedia_fact(entity: str, what: str = "", *, call: Caller) -> str:
        """Look up one fact on an entity's Wikipedia page. Input: {"entity": "Thomas Edison", "what": "born"} or "Thomas Edison | born".

        Finds the page (searching when the name is not an exact title), then the sentences that mention the
        keyword or a variant of it, else the introduction's sentences with numbers.
        """
        entity, what = split_page_input(entity, what, names=("entity", "what"))
        note, title, summary = "", entity, call("wikipedia_summary", entity)
        if _page_header(summary) is None:
            resolved = _resolve(call, entity, what, summary)
            if isinstance(resolved, str):
                return resolved
            note, title, summary = resolved
        header = _page_header(summary)
        if header is None:
            return note + summary
        head = f"{note}{header.group(0)[:-1]}\n{_life_years(header.group('described'), what)}"

        tried = []
        for keyword in [what, *_keyword_variants(what)]:
            tried.append(keyword)
            looked = call("wikipedia_lookup", f"{title} | {keyword}")
            reported, lines = _findings(looked), looked.splitlines()
            if reported is not None and reported.status is ToolStatus.found:
                return f'{head}Sentences with "{keyword}":\n{_listed(reported.sentences)}'
            if reported is None and lines and _LOOKUP_FOUND.match(lines[0]):
                hits = [_SECTION_SUFFIX.sub("", m.group(1)) for m in map(_NUMBERED.match, lines[1:]) if m]
                return f'{head}Sentences with "{keyword}":\n{_listed(hits)}'

        quoted = [f'"{k}"' for k in tried]
        absent = quoted[0] if len(quoted) == 1 else "any of " + ", ".join(quoted)
        intro = "\n".join(summary.splitlines()[1:])
        numbered = [s for _, s in sentences_with_sections(intro) if re.search(r"\d", s)]
        if not numbered:
            return f"{head}The page does not mention {absent}, and its introduction states no numbers."
        return (f"{head}The page does not mention {absent}; its introduction's sentences with numbers:\n"
                f"{_listed(numbered)}")

    made = CompositeTool(wikipedia_fact, wiki_tools)
    made.reads_sources = True
    return made
