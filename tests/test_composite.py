"""Composite tools: inner calls recorded per run, and wikipedia_fact on the real offline corpus."""
from __future__ import annotations

import re
import threading

import pytest

from tools.base import Tool, ToolCall, ToolError, ToolRegistry, ToolRun
from tools.composite import Caller, CompositeTool, _keyword_variants, make_wikipedia_fact
from tools.defaults import OPTIONAL_TOOLS, default_tools
from tools.wikipedia import make_wikipedia_tools


def upper(text: str) -> str:
    """Upper-case text."""
    return text.upper()


def reverse(text: str) -> str:
    """Reverse text."""
    return text[::-1]


def refuse(text: str) -> str:
    raise ToolError(f"cannot take {text}")


def shout_backwards(text: str, *, call: Caller) -> str:
    """Upper-case, then reverse. Input: some text."""
    return call("reverse", call("upper", text))


@pytest.fixture
def toy():
    inner = [Tool(upper), Tool(reverse), Tool(refuse)]
    return ToolRegistry([*inner, CompositeTool(shout_backwards, inner)])


def test_a_composite_records_its_inner_calls_in_order(toy):
    run = toy.run("shout_backwards", "abc")
    assert isinstance(run, ToolRun) and run.observation == "CBA" and run.seconds >= 0
    assert [(c.name, c.input, c.observation) for c in run.calls] == [("upper", "abc", "ABC"), ("reverse", "ABC", "CBA")]
    assert set(run.calls[0].model_dump()) == {"name", "input", "observation", "seconds"}   # what traces store


def test_plain_tools_are_unchanged(toy):
    plain = toy.run("upper", "x")
    assert plain.observation == "X" and plain.calls == []
    result = toy.run("shout_backwards", "abc")
    assert result.observation == "CBA" and isinstance(result.seconds, float)
    assert toy.get("shout_backwards")("abc") == "CBA"                                  # callable like any Tool


def test_call_is_not_part_of_the_input_schema(toy):
    t = toy.get("shout_backwards")
    assert t.params == ["text"] and list(t.input_schema["properties"]) == ["text"]
    assert t.summary_line() == "shout_backwards: Upper-case, then reverse. Input: some text."
    with pytest.raises(TypeError, match="call"):
        CompositeTool(upper, [])


def test_a_failing_inner_call_is_recorded_and_becomes_the_observation():
    def via_refuse(text: str, *, call: Caller) -> str:
        return call("reverse", call("refuse", text))

    inner = [Tool(reverse), Tool(refuse)]
    run = ToolRegistry([CompositeTool(via_refuse, inner)]).run("via_refuse", "x")
    assert run.observation == "Error: cannot take x"
    assert [(c.name, c.observation) for c in run.calls] == [("refuse", "Error: cannot take x")]


def test_concurrent_runs_keep_their_own_calls():
    gate = threading.Barrier(2, timeout=10)

    def wait(text: str) -> str:
        gate.wait()                     # both runs are inside their pipelines at once
        return text

    def echo_twice(text: str, *, call: Caller) -> str:
        return call("wait", call("wait", text))

    inner = [Tool(wait)]
    registries = [ToolRegistry([CompositeTool(echo_twice, inner)]) for _ in range(2)]
    runs: dict[str, ToolRun] = {}
    threads = [threading.Thread(target=lambda r=r, x=x: runs.__setitem__(x, r.run("echo_twice", x)))
               for r, x in zip(registries, ["a", "b"])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for x in "ab":
        assert [c.input for c in runs[x].calls] == [x, x]


def test_keyword_variants():
    assert _keyword_variants("born") == ["birth"]
    assert _keyword_variants("patents") == ["patent"]
    assert _keyword_variants("largest cities") == ["largest city"]
    assert _keyword_variants("population") == ["inhabitants", "residents"]


# --- wikipedia_fact on the real offline corpus ---------------------------------------------------------------

@pytest.fixture(scope="module")
def wiki_registry(offline_wiki):
    return default_tools(offline_wiki, extra=["wikipedia_fact"])


def test_default_tools_are_unchanged_and_extras_opt_in(offline_wiki, wiki_registry):
    defaults = ["calculator", "current_time", "date_diff", "wikipedia_search", "wikipedia_summary",
                "wikipedia_lookup"]
    assert default_tools(offline_wiki).names == defaults
    assert wiki_registry.names == defaults + ["wikipedia_fact"]
    assert "wikipedia_fact" in OPTIONAL_TOOLS
    with pytest.raises(ValueError, match="valid: wikipedia_fact"):
        default_tools(offline_wiki, extra=["wikipedia_facts"])
    with pytest.raises(ValueError, match="wikipedia_lookup"):
        make_wikipedia_fact([t for t in make_wikipedia_tools(offline_wiki) if t.name != "wikipedia_lookup"])


@pytest.mark.parametrize("action_input", ["Thomas Edison | born", '{"entity": "Thomas Edison", "what": "born"}'])
def test_birth_year_of_thomas_edison(offline_wiki, wiki_registry, action_input):
    page = offline_wiki.page("Thomas Edison")
    born = re.search(r"\((\d{4})\s*[–-]\s*\d{4}\)", page.content).group(1)   # the year the page states
    assert born == "1847"
    run = wiki_registry.run("wikipedia_fact", action_input)
    assert run.observation.startswith("Thomas Edison, American inventor")
    assert f"born {born}" in run.observation
    # the corpus intro lacks "born" and "birth": both were looked up, in that order, after the summary
    assert [(c.name, c.input) for c in run.calls] == [("wikipedia_summary", "Thomas Edison"),
                                                      ("wikipedia_lookup", "Thomas Edison | born"),
                                                      ("wikipedia_lookup", "Thomas Edison | birth")]
    assert all(isinstance(c, ToolCall) and c.observation for c in run.calls)
    assert run.calls[0].observation == wiki_registry.run("wikipedia_summary", "Thomas Edison").observation


def test_a_found_keyword_gives_its_sentence_with_the_number_verbatim(offline_wiki, wiki_registry):
    page = offline_wiki.page("Tokyo")
    stated = next(s for s in re.split(r"(?<=\.)\s+", page.summary) if "population" in s)
    run = wiki_registry.run("wikipedia_fact", "Tokyo | population")
    assert 'Sentences with "population":' in run.observation and stated in run.observation
    assert [c.name for c in run.calls] == ["wikipedia_summary", "wikipedia_lookup"]


def test_a_misspelt_entity_resolves_through_search(offline_wiki, wiki_registry):
    stated = next(s for s in re.split(r"(?<=\.)\s+", offline_wiki.page("Thomas Edison").summary) if "patents" in s)
    run = wiki_registry.run("wikipedia_fact", "Thomas Edisson | patents")
    assert run.observation.startswith('No page is titled "Thomas Edisson"; the closest is "Thomas Edison".')
    assert stated in run.observation
    assert [(c.name, c.input) for c in run.calls] == [("wikipedia_summary", "Thomas Edisson"),
                                                      ("wikipedia_search", "Thomas Edisson"),
                                                      ("wikipedia_summary", "Thomas Edison"),
                                                      ("wikipedia_lookup", "Thomas Edison | patents")]


def test_an_ambiguous_entity_is_ranked_with_the_keyword(wiki_registry):
    run = wiki_registry.run("wikipedia_fact", "Mercury | orbit")
    assert run.observation.startswith('"Mercury" is ambiguous; showing "Mercury (planet)" (also: Mercury (element))')
    assert ("wikipedia_search", "Mercury orbit") in [(c.name, c.input) for c in run.calls]


def test_an_absent_entity_gives_a_clear_observation(wiki_registry):
    run = wiki_registry.run("wikipedia_fact", "Qwxyz Plorb | born")
    assert run.observation.startswith('There is no Wikipedia page for "Qwxyz Plorb"')
    assert [c.name for c in run.calls] == ["wikipedia_summary", "wikipedia_search"]


@pytest.mark.parametrize("action_input, message", [
    ("Thomas Edison", "Error: give the entity and what to find"),
    ('{"entity": "Thomas Edison"}', "Error: give the entity and what to find"),
    (" | born", "Error: give the entity and what to find"),
    ('{"name": "Thomas Edison", "what": "born"}', "Error: unknown argument(s) name for wikipedia_fact"),
])
def test_bad_input_is_an_error_observation(wiki_registry, action_input, message):
    run = wiki_registry.run("wikipedia_fact", action_input)
    assert run.observation.startswith(message) and run.calls == []
    assert run.seconds >= 0


def test_on_the_live_backend_and_when_it_is_down():
    from tests.mediawiki_server import MediaWikiServer
    from tools.wiki_live import LiveWiki

    with MediaWikiServer(slow_seconds=5.0) as server:
        live = default_tools(LiveWiki(api_url=server.api_url, timeout=5), extra=["wikipedia_fact"])
        run = live.run("wikipedia_fact", "Thomas Edison | born")
        assert "February 11, 1847" in run.observation and len(run.calls) == 2
        down = default_tools(LiveWiki(api_url=server.slow_url, timeout=0.3), extra=["wikipedia_fact"])
        run = down.run("wikipedia_fact", "Thomas Edison | born")
    assert run.observation.startswith("Error: Wikipedia is unavailable")
    assert [(c.name, c.observation) for c in run.calls] == [("wikipedia_summary", run.observation)]


def test_the_loop_stores_a_composite_tools_inner_calls_on_its_step_and_in_the_trace(wiki_registry, tmp_path):
    from agent.config import AgentConfig
    from agent.llm.replay import Replay
    from agent.loop import Agent
    from agent.trace import read_trace

    llm = Replay(["Thought: One call.\nAction: wikipedia_fact\nAction Input: Thomas Edison | patents",
                  "Thought: Done.\nAction: Final\nAction Input: He registered 1,093 patents in the United States."])
    result = Agent(llm, wiki_registry, config=AgentConfig(trace_dir=tmp_path)).run("How many patents had Edison?")
    inner = result.steps[0].tool_calls
    assert [(call["name"], call["input"]) for call in inner] == [
        ("wikipedia_summary", "Thomas Edison"), ("wikipedia_lookup", "Thomas Edison | patents")]
    assert "1,093 patents" in inner[-1]["observation"] and "1,093 patents" in result.steps[0].observation
    recorded = [event["step"] for event in read_trace(result.trace_path) if event["type"] == "step_recorded"]
    assert recorded[0]["tool_calls"] == inner


def test_wikipedia_fact_reads_what_its_inner_tools_found_not_their_wording():
    """Inner Wikipedia tools that report Findings are read by those fields: a reworded "ambiguous" reply, a search
    listing and a lookup in no format the wording parser knows still lead to the right page and sentences."""
    from core.schema import Findings, Observed, ToolStatus

    def wikipedia_summary(title: str) -> str:
        """Intro."""
        if title == "Mercury (planet)":
            return Observed("Mercury (planet), Smallest planet (offline Wikipedia):\nMercury is the closest planet.",
                            Findings(status=ToolStatus.found, pages=[title], description="Smallest planet"))
        return Observed("That name has several pages.", Findings(status=ToolStatus.ambiguous, pages=["x", "y"]))

    def wikipedia_search(query: str) -> str:
        """Search."""
        return Observed("(a listing in some other format)",
                        Findings(status=ToolStatus.listed, pages=["Mercury (planet)", "Mercury (element)"]))

    def wikipedia_lookup(title: str, text: str = "") -> str:
        """Lookup."""
        return Observed("(reworded hits)", Findings(status=ToolStatus.found, pages=["Mercury (planet)"],
                                                    sentences=["Its orbit takes 88 days."]))

    fact = make_wikipedia_fact([Tool(wikipedia_search), Tool(wikipedia_summary), Tool(wikipedia_lookup)])
    answer = ToolRegistry([fact]).run("wikipedia_fact", "Mercury | orbit").observation
    assert '"Mercury" is ambiguous; showing "Mercury (planet)"' in answer, answer
    assert 'Sentences with "orbit":\n1. Its orbit takes 88 days.' in answer, answer
