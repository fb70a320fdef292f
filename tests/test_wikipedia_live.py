"""LiveWiki and the Wikipedia tools, running the real `wikipedia` package against a loopback MediaWiki server."""
from __future__ import annotations

import socket
import time

import pytest
import wikipedia
import wikipedia.wikipedia as wikipedia_module

from tests.mediawiki_server import FakePage, MediaWikiServer
from tools.base import ToolRegistry
from tools.defaults import default_tools
from tools.wiki_base import Disambiguation, PageMissing, WikiBackend, WikiUnavailable
from tools.wiki_live import API_URL_ENV, LiveWiki
from tools.wikipedia import make_wikipedia_tools


@pytest.fixture(scope="module")
def server():
    with MediaWikiServer(slow_seconds=5.0) as srv:
        yield srv


@pytest.fixture
def wiki(server):
    return LiveWiki(api_url=server.api_url, timeout=5.0)


@pytest.fixture
def tools(wiki):
    return ToolRegistry(make_wikipedia_tools(wiki))


def _requests_since(server, mark):
    return server.requests[mark:]


def test_is_a_wiki_backend(wiki):
    assert isinstance(wiki, WikiBackend) and wiki.name == "live"


def test_search_returns_titles_best_first(wiki, server):
    mark = len(server.requests)
    assert wiki.search("Python programming language")[0] == "Python (programming language)"
    assert "Thomas Edison" in wiki.search("light bulb inventor Edison")
    assert wiki.search("zzzz nothing matches") == []
    sent = _requests_since(server, mark)
    assert sent and all(r["path"] == "/w/api.php" and r["format"] == "json" and r["list"] == "search"
                        for r in sent)


def test_page_has_intro_content_and_url(wiki):
    page = wiki.page("Thomas Edison")
    assert page.title == "Thomas Edison"
    assert "February 11, 1847" in page.summary and "== Early life ==" not in page.summary
    assert page.summary in page.content and "Milan, Ohio" in page.content
    assert page.url.endswith("/wiki/Thomas_Edison")


def test_no_auto_suggest_the_title_is_loaded_as_given(wiki, server):
    mark = len(server.requests)
    wiki.page("Python (programming language)")
    sent = _requests_since(server, mark)
    assert sent[0]["titles"] == "Python (programming language)" and "list" not in sent[0]
    assert not any(r.get("list") == "search" for r in sent)


def test_redirects_and_case_are_followed(wiki):
    assert wiki.page("Light bulb").title == "Incandescent light bulb"
    assert wiki.page("light_bulb").title == "Incandescent light bulb"   # normalised, then redirected
    assert wiki.page("thomas edison").title == "Thomas Edison"          # case past the first letter: via search


def test_disambiguation_lists_the_options(wiki):
    with pytest.raises(Disambiguation) as amb:
        wiki.page("Mercury")
    assert amb.value.options == ["Mercury (planet)", "Mercury (element)", "Mercury (mythology)"]


def test_missing_page_suggests_similar_titles(wiki):
    with pytest.raises(PageMissing) as missing:
        wiki.page("Thomas Edisson")
    assert missing.value.suggestions[0] == "Thomas Edison"
    with pytest.raises(PageMissing) as nothing:
        wiki.page("Qwxyz Plorb")
    assert nothing.value.suggestions == []


def test_api_url_comes_from_the_environment(server, monkeypatch):
    monkeypatch.setenv(API_URL_ENV, server.api_url)
    assert LiveWiki().api_url == server.api_url
    assert LiveWiki().page("Thomas Edison").title == "Thomas Edison"


def test_endpoints_do_not_share_the_packages_global_cache(server):
    with MediaWikiServer(pages=[FakePage("Zebra", "The zebra is an African equine.")]) as other:
        assert LiveWiki(api_url=other.api_url).search("zebra") == ["Zebra"]
        assert LiveWiki(api_url=server.api_url).search("zebra") == []   # not the other server's answer


def test_package_globals_are_left_alone_for_other_callers(server, wiki, monkeypatch):
    shipped = wikipedia_module._wiki_request
    wiki.page("Thomas Edison")
    wiki.search("Edison")
    assert wikipedia_module.API_URL == "http://en.wikipedia.org/w/api.php"
    assert wikipedia_module._wiki_request is shipped  # the router is in place only while a call is in flight
    # outside a LiveWiki call the package behaves as shipped (our router hands over to the original)
    monkeypatch.setattr(wikipedia_module, "API_URL", server.api_url)
    assert wikipedia.search.fn("Edison", results=3)[0] == "Thomas Edison"


def _timed(fn):
    start = time.perf_counter()
    with pytest.raises(WikiUnavailable) as err:
        fn()
    return time.perf_counter() - start, str(err.value)


def test_slow_server_times_out_quickly(server):
    elapsed, message = _timed(lambda: LiveWiki(api_url=server.slow_url, timeout=0.5).page("Thomas Edison"))
    print(f"slow endpoint: WikiUnavailable after {elapsed:.2f} s (timeout 0.5 s, server delay 5 s)")
    assert elapsed < 3.0 and "did not answer" in message
    elapsed, _ = _timed(lambda: LiveWiki(api_url=server.slow_url, timeout=0.5).search("Edison"))
    assert elapsed < 3.0


def test_dripping_server_is_cut_off_by_the_overall_deadline(server):
    # each byte comes well within the read timeout, so only the whole-call deadline can stop this
    elapsed, message = _timed(lambda: LiveWiki(api_url=server.drip_url, timeout=0.5).page("Thomas Edison"))
    print(f"drip endpoint: WikiUnavailable after {elapsed:.2f} s (timeout 0.5 s)")
    assert elapsed < 3.0 and "did not answer" in message


def test_server_errors_and_closed_ports_are_unavailable(server):
    _, message = _timed(lambda: LiveWiki(api_url=server.broken_url).search("Edison"))
    assert "HTTP 500" in message
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed_port = s.getsockname()[1]
    elapsed, message = _timed(lambda: LiveWiki(api_url=f"http://127.0.0.1:{closed_port}/w/api.php").page("X"))
    assert "cannot reach" in message and elapsed < 3.0


# --- the tools over the live backend ---

def test_tool_names_and_descriptions(tools):
    assert tools.names == ["wikipedia_search", "wikipedia_summary", "wikipedia_lookup"]
    described = tools.describe()
    assert "Input:" in described and "Thomas Edison | born" in described


def test_search_tool(tools):
    observation = tools.run("wikipedia_search", "light bulb inventor").observation
    assert "1. Incandescent light bulb" in observation and "Thomas Edison" in observation
    assert "No Wikipedia pages match" in tools.run("wikipedia_search", "qwxyz plorb").observation


def test_summary_tool_names_title_and_source(tools):
    observation = tools.run("wikipedia_summary", "Light bulb").observation
    assert observation.startswith("Incandescent light bulb (live Wikipedia, https://")
    assert "Thomas Edison" in observation
    assert "general-purpose programming language" in tools.run("wikipedia_summary",
                                                               '"Python (programming language)"').observation


def test_summary_tool_turns_ambiguity_and_absence_into_advice(tools):
    ambiguous = tools.run("wikipedia_summary", "Mercury").observation
    assert "ambiguous" in ambiguous and "Mercury (planet); Mercury (element)" in ambiguous
    missing = tools.run("wikipedia_summary", "Thomas Edisson").observation
    assert "no Wikipedia page titled" in missing and "Did you mean: Thomas Edison" in missing
    nothing = tools.run("wikipedia_summary", "Qwxyz Plorb").observation
    assert "wikipedia_search" in nothing
    assert not ambiguous.startswith("Error") and not missing.startswith("Error")


@pytest.mark.parametrize("action_input", ['{"title": "Thomas Edison", "text": "born"}', "Thomas Edison | born",
                                          "Thomas Edison|BORN"])
def test_lookup_tool_finds_the_sentence(tools, action_input):
    observation = tools.run("wikipedia_lookup", action_input).observation
    assert 'in "Thomas Edison"' in observation
    assert "Edison was born in Milan, Ohio, on February 11, 1847" in observation
    assert "(section: Early life)" in observation


def test_lookup_tool_edge_cases(tools):
    several = tools.run("wikipedia_lookup", "Thomas Edison | Edison").observation
    assert "showing the first 3" in several and several.count("\n") == 3
    absent = tools.run("wikipedia_lookup", "Thomas Edison | quantum").observation
    assert "does not appear" in absent
    words = tools.run("wikipedia_lookup", "Thomas Edison | patent lamp").observation
    assert "containing all the words" in words and "January 27, 1880" in words
    assert tools.run("wikipedia_lookup", "Thomas Edison").observation.startswith("Error: give the page title and")
    assert "ambiguous" in tools.run("wikipedia_lookup", "Mercury | planet").observation


def test_unavailable_backend_is_a_clear_error_observation(server):
    tools = ToolRegistry(make_wikipedia_tools(LiveWiki(api_url=server.slow_url, timeout=0.3)))
    run = tools.run("wikipedia_summary", "Thomas Edison")
    assert run.observation.startswith("Error: Wikipedia is unavailable (live backend")
    assert run.seconds < 3.0


def test_default_tools_with_a_given_backend(wiki):
    registry = default_tools(wiki)
    assert registry.names == ["calculator", "current_time", "date_diff",
                              "wikipedia_search", "wikipedia_summary", "wikipedia_lookup"]
    assert registry.run("calculator", "15^2").observation == "225"
    assert registry.run("wikipedia_summary", "Thomas Edison").observation.startswith("Thomas Edison (live Wikipedia")


def test_default_tools_selects_a_backend_from_the_environment(server, monkeypatch):
    monkeypatch.setenv("PONDER_WIKI", "live")
    monkeypatch.setenv(API_URL_ENV, server.api_url)
    registry = default_tools()
    assert registry.run("wikipedia_summary", "Thomas Edison").observation.startswith("Thomas Edison (live Wikipedia")
