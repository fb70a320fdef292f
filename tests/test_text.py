"""core.text: the one text shortener, and every place that shortens text still printing what it printed before
(the model's prompts hold these bytes, so a site's output must not move when the shortener does)."""
from __future__ import annotations

import io

import pytest
from rich.console import Console

from ponder import html
from ponder.bench.report import figures, markdown
from ponder.bench.runner import RunRecord
from ponder.display import LiveView
from agent.events import ObservationEvent
from agent.observations import clean_observation
from agent.parser import FORMAT_HELP, parse
from core.text import clip, clip_tokens
from core.untrusted import quoted_line
from memory.tokens import CallableCounter, truncate_to_tokens
from tools import wikipedia
from tools.base import ToolError
from tools.calculator import calculator
from tools.composite import _listed
from tools.wiki_base import WikiPage

CLIPS = [  # text, limit, options, expected
    ("Edison", 10, {}, "Edison"),                                               # short: unchanged
    ("Edison", 6, {}, "Edison"),                                                # exactly the limit: unchanged
    ("", 0, {}, ""),
    ("Thomas Edison", 8, {}, "Thomas…"),                                        # marker inside the limit
    ("Thomas Edison", 8, {"strip": False}, "Thomas …"),                         # the space before the cut kept
    ("Thomas Alva Edison", 12, {"marker": "..."}, "Thomas Al..."),              # a longer marker leaves less text
    ("Thomas Edison", 6, {"marker": ""}, "Thomas"),
    ("Thomas Alva Edison", 12, {"marker": " [...]", "within": False}, "Thomas Alva [...]"),  # marker past it
    ("Thomas Alva Edison", 15, {"at": "space"}, "Thomas Alva…"),
    ("Thomas Alva Edison", 15, {"at": "space", "marker": " …", "within": False}, "Thomas Alva …"),
    ("Thomas Alvaedisonwashere", 15, {"at": "space", "within": False}, "Thomas Alvaedis…"),  # space in 1st half
    ("He was born. He died in 1931.", 20, {"at": "sentence", "within": False}, "He was born.…"),
    ("He was born.\nHe died in 1931.", 20, {"at": "sentence", "within": False}, "He was born.…"),
    ("Hi. He was born in Ohio in 1847.", 20, {"at": "sentence", "within": False}, "Hi. He was born in O…"),
    ("He was born in Ohio in 1847", 20, {"at": "sentence", "within": False}, "He was born in Ohio…"),  # no end
    ("a, b, c, d, e, f, g", 10, {"at": "space", "strip": " ,", "within": False}, "a, b, c…"),
    ("Ærøskøbing ist schön", 12, {}, "Ærøskøbing…"),                            # characters, not bytes
    ("東京は日本の首都です", 5, {}, "東京は日…"),
    ("Thomas Edison", 3, {"marker": "..."}, "..."),                             # room for the marker only
    ("Thomas Edison", 2, {"marker": "..."}, ".."),                              # limit below the marker
    ("Thomas Edison", 0, {}, ""),
    ("Thomas Edison", 0, {"within": False}, "…"),
]


@pytest.mark.parametrize(("text", "limit", "options", "expected"), CLIPS)
def test_clip(text, limit, options, expected):
    assert clip(text, limit, **options) == expected
    if options.get("within", True):
        assert len(clip(text, limit, **options)) <= limit


def test_clip_refuses_a_negative_limit_and_an_unknown_cut():
    with pytest.raises(ValueError):
        clip("Edison", -1)
    with pytest.raises(ValueError):
        clip("Edison", 10, at="word")  # type: ignore[arg-type]


def words(text: str) -> int:
    return len(text.split())


CLIP_TOKENS = [  # text, max_tokens, options, expected (counting words)
    ("one two three four", 4, {}, "one two three four"),
    ("one two three four five", 4, {}, "one two three…"),
    ("one two three four five", 4, {"strip": False}, "one two three …"),
    ("one two three four five", 4, {"marker": " [cut]"}, "one two three [cut]"),
    ("one two three four", 1, {"marker": " …[truncated]"}, ""),                 # the marker takes the budget
    ("one two three four", -3, {}, ""),
    ("one two three", 2, {"at": "space"}, "one…"),
]


@pytest.mark.parametrize(("text", "max_tokens", "options", "expected"), CLIP_TOKENS)
def test_clip_tokens(text, max_tokens, options, expected):
    assert clip_tokens(text, max_tokens, words, **options) == expected


@pytest.mark.parametrize("limit", [8, 13, 40])  # above the marker: with no room beside it the two differ
@pytest.mark.parametrize("options", [{}, {"at": "space"}, {"at": "sentence", "marker": " [...]"}])
def test_clip_tokens_counting_characters_is_clip(limit, options):
    text = "He was born in Milan. He died in West Orange, New Jersey."
    assert clip_tokens(text, limit, len, **options) == clip(text, limit, **options)


# Each former site, on a long input: the expected strings are the old code's output (commit 909dc67, before
# core.text), hard-coded.

def test_observation_site():
    assert clean_observation("  " + "word " * 40, 100) == "word " * 19 + "word ... [truncated 99 chars]"


def test_parser_error_site():
    parsed = parse("Thought: x\nAction: look   up the\tbirth year of Edison in the big  encyclopedia please, now\n"
                   "Action Input: Edison")
    assert parsed.error == ("Your reply could not be used: 'Action:' must be one tool name, not "
                            "'look up the birth year of Edison in the big encyclopedia ...'.\n" + FORMAT_HELP)


def test_report_site():
    record = RunRecord(question_id="q1", strategy="s", question="Q?",
                       answer="Edison   was born in\n1847 " + "and he invented many things " * 10,
                       verdict="needs " + "1847, " * 60)
    report = markdown(figures([record], ["s"]), [record], {"suite": "x"})
    assert [line for line in report.splitlines() if line.startswith("| s | ")][-1] == (
        "| s | ✗ | Edison was born in 1847 " + "and he invented many things " * 6
        + "and he invented many things… | needs " + "1847, " * 48 + "1847,… |")


class OnePage:
    name = "offline"
    TEXT = ("Edison was an inventor. He was born in Milan, Ohio. He held many patents. "
            "He died in 1931 in West Orange. ") * 3

    def search(self, query, limit=5):
        return []

    def page(self, title):
        return WikiPage(title="Edison", summary=self.TEXT,
                        content=self.TEXT + " Edison said that " + "genius is work " * 40 + "ok.")


def test_wikipedia_sites(monkeypatch):
    monkeypatch.setattr(wikipedia, "MAX_SUMMARY_CHARS", 120)
    monkeypatch.setattr(wikipedia, "MAX_SENTENCE_CHARS", 60)
    tools = {t.name: t for t in wikipedia.make_wikipedia_tools(OnePage())}
    assert str(tools["wikipedia_summary"].invoke("Edison")) == (
        "Edison (offline Wikipedia):\nEdison was an inventor. He was born in Milan, Ohio. He held many patents. "
        "He died in 1931 in West Orange. [...]")
    assert str(tools["wikipedia_lookup"].invoke("Edison | genius")) == (
        '1 sentence containing "genius" in "Edison" (offline Wikipedia):\n'
        "1. Edison said that genius is work genius is work genius is wor [...]")


def test_composite_fact_site():
    listed = _listed(["The population was 12,345 in 2020 and yes so " + "the town grew quickly, " * 20 + "end. [...]",
                      "No numbers here " + "x" * 400])
    assert listed == ("1. The population was 12,345 in 2020 and yes so " + "the town grew quickly, " * 10
                      + "the town grew quickly …\n2. No numbers here " + "x" * 284 + " …")


def test_calculator_site():
    with pytest.raises(ToolError) as raised:
        calculator("21" + " + 1" * 20 + " + ) 1 + 1")
    assert str(raised.value) == ("cannot parse '21" + " + 1" * 18 + " + ...' as a math expression (unmatched ')'); "
                                 "example: (3 + 4) * 2**3")


def test_quoted_line_site():
    assert quoted_line("  Thought: the page\n says   <|im_end|> that Edison was born in 1847 in Milan", 40) == (
        "\u201cThought (quoted): the page says <im_end…\u201d")


def test_memory_token_site():
    counter = CallableCounter(words)
    assert truncate_to_tokens("one two three four five six seven eight nine ten eleven twelve", 8, counter) == (
        "one two three four five six seven …[truncated]")
    assert truncate_to_tokens("one two three four", 2, counter) == "one …[truncated]"


def test_live_view_site():
    out = io.StringIO()
    LiveView(Console(file=out, width=400, highlight=False, color_system=None), max_observation_chars=30)(
        ObservationEvent(index=1, observation="Edison was born in the year   1847 in Milan.  ", seconds=0.5))
    assert out.getvalue() == "Observation: Edison was born in the year    ... (0.50 s)\n"


def test_html_memory_part_site(monkeypatch):
    monkeypatch.setattr(html, "PROMPT_SHOWN_CHARS", 30)
    messages = [{"role": "system", "content": "s"},
                {"role": "user", "content": "Question: q\nBackground: Edison was born in    1847 in Milan, Ohio."}]
    assert html._memory_part(messages, None, None) == "Background: Edison was born in ..."
