"""The offline Wikipedia backend on the real corpus (10,033 intros) with its real BM25 and dense indexes."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ponder.bench.speed.wiki_queries import RELEVANCE, is_hit
from tools.wiki_base import Disambiguation, PageMissing, WikiBackend
from tools.wiki_offline import (
    SHIPPED_VECTORS,
    CorpusError,
    OfflineWiki,
    _fingerprint,
    default_corpus_path,
    embed_text,
    load_corpus,
    normalise,
)

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def wiki(wiki_index_dir) -> OfflineWiki:
    backend = OfflineWiki(corpus_path=default_corpus_path(), index_dir=wiki_index_dir, dense=True)
    backend.build_index()
    return backend


def test_is_a_wiki_backend(wiki):
    assert isinstance(wiki, WikiBackend) and wiki.name == "offline"
    assert len(wiki.docs) == 10033


def test_relevance_table_hit_rate(wiki):
    titles = {d.title for d in wiki.docs}
    expected_titles = {t for _, e in RELEVANCE for t in ((e,) if isinstance(e, str) else e)}
    assert expected_titles <= titles, "the table must only expect corpus articles"
    misses = []
    for query, expected in RELEVANCE:
        found = wiki.search(query, 5)
        if not is_hit(expected, found):
            misses.append(f"{query!r}: wanted {expected!r}, got {found}")
    rate = 1 - len(misses) / len(RELEVANCE)
    print(f"\noffline wiki top-5 hit rate: {rate:.0%} ({len(RELEVANCE) - len(misses)}/{len(RELEVANCE)})")
    for miss in misses:
        print("  miss:", miss)
    assert rate >= 0.9, "\n".join(misses)


def test_fusion_adds_to_bm25(wiki):
    """Fusion must beat lexical search alone on agent-style questions (dense alone is printed for comparison:
    it is strong on questions, weak on exact names and typos, which the title channels cover)."""
    def hits(search):
        return sum(is_hit(expected, search(query, 5)) for query, expected in RELEVANCE)
    fused, bm25, dense = hits(wiki.search), hits(wiki.bm25_search), hits(wiki.dense_search)
    print(f"\ntop-5 hits of {len(RELEVANCE)}: fused {fused}, bm25 {bm25}, dense {dense}")
    assert fused > bm25


@pytest.mark.parametrize("query, title", [
    ("Thomas Edison", "Thomas Edison"),
    ("thomas edison", "Thomas Edison"),
    ("THOMAS_EDISON", "Thomas Edison"),
    ("  thomas   edison ", "Thomas Edison"),
    ("incandescent light bulb", "Incandescent light bulb"),
    ("incandescent light bulbs", "Incandescent light bulb"),
    ("The Mona Lisa", "Mona Lisa"),
    ("mona_lisa", "Mona Lisa"),
    ("Bose-Einstein condensate", "Bose–Einstein condensate"),   # en dash in the title
    ("Dune novel", "Dune (novel)"),
    ("novel Dune", "Dune (novel)"),
    ("planet mercury", "Mercury (planet)"),
    ("C programming language", "C (programming language)"),
    ("Jupiter", "Jupiter"),                                    # the exact title beats "Jupiter (god)"
    ("jupiter god", "Jupiter (god)"),
    ("Leonardo da Vinci", "Leonardo da Vinci"),
])
def test_title_normalisation(wiki, query, title):
    assert wiki.page(query).title == title
    assert wiki.search(query, 5)[0] == title


def test_page_fields(wiki):
    page = wiki.page("Thomas Edison")
    assert "inventor" in page.summary and page.summary in page.content
    assert page.url == "https://en.wikipedia.org/wiki/Thomas_Edison"
    # the corpus' intros lack the lead's dates; its description has the years, and lookup searches it
    assert page.description == "American inventor and businessman (1847\u20131931)"
    assert "1847" in page.content and "1847" not in page.summary


def test_summary_and_lookup_show_the_years_from_the_description(wiki):
    from tools.wikipedia import make_wikipedia_tools
    tools = {t.name: t for t in make_wikipedia_tools(wiki)}
    summary = tools["wikipedia_summary"].fn("Thomas Edison")
    assert summary.startswith("Thomas Edison, American inventor and businessman (1847\u20131931) (offline Wikipedia")
    assert "1847" in tools["wikipedia_lookup"].fn("Thomas Edison", "1847")
    missing = tools["wikipedia_lookup"].fn("Thomas Edison", "born")
    assert "does not appear" in missing and "(1847\u20131931)" in missing


def test_the_wikipedia_tools_report_what_they_found_as_fields(wiki):
    """Beside the text the model reads, each call reports its status, the pages and a lookup's sentences (what
    planning, the memory and the bench read instead of the wording)."""
    from core.schema import ToolStatus
    from tools.base import ToolRegistry
    from tools.wikipedia import make_wikipedia_tools

    tools = ToolRegistry(make_wikipedia_tools(wiki))
    found = tools.run("wikipedia_summary", "Loire").findings
    assert (found.status, found.pages, found.page) == (ToolStatus.found, ["Loire"], "Loire")
    missing = tools.run("wikipedia_summary", "Python").findings
    assert missing.status is ToolStatus.missing and missing.found_nothing and missing.page == ""
    assert "Computer programming" in missing.pages and missing.read == []
    hit = tools.run("wikipedia_lookup", '{"title": "Loire", "text": "length"}')
    assert hit.findings.status is ToolStatus.found and any("1,006" in s for s in hit.findings.sentences)
    assert all(sentence[:40] in hit.observation for sentence in hit.findings.sentences)
    absent = tools.run("wikipedia_lookup", "Loire | zebra").findings
    assert absent.status is ToolStatus.not_on_page and absent.read == ["Loire"] and absent.found_nothing
    listed = tools.run("wikipedia_search", "river France").findings
    assert listed.status is ToolStatus.listed and "Loire" in listed.pages and listed.read == []
    assert tools.run("wikipedia_lookup", "Loire").findings is None   # an input error: nothing was looked up


def test_a_one_word_titles_other_senses_are_given_on_request_and_no_summary_pays_for_them(wiki, wiki_index_dir):
    """Held-out omh-322: "Apple" is the fruit's page and "Amazon" read the Amazons; the summary tool gives the pages
    naming them more fully, with their descriptions, so a helper's opening can tell which the question means. A page
    read by a fuller title has none. Only that request searches: a summary the model asks for searches nothing
    (against live Wikipedia a search and three page reads each)."""
    from tools.base import ToolRegistry
    from tools.wikipedia import PageSummary, make_wikipedia_tools

    searches = []

    class Counted(OfflineWiki):
        def search(self, query, limit=5):
            searches.append(query)
            return super().search(query, limit)

    counted = Counted(corpus_path=default_corpus_path(), index_dir=wiki_index_dir, dense=True)
    tools = ToolRegistry(make_wikipedia_tools(counted))
    apple = tools.run("wikipedia_summary", "Apple")
    assert apple.findings.page == "Apple" and "Apple Inc." not in apple.observation
    assert searches == []
    summary = tools.get("wikipedia_summary")
    assert isinstance(summary, PageSummary)
    assert summary.senses("Apple", "Apple") == [("Apple Inc.", "American multinational technology company")]
    assert searches == ["apple"]
    assert {title for title, _ in summary.senses("Amazon", "Amazons")} == {
        "Amazon (company)", "Amazon River", "Amazon rainforest"}
    assert summary.senses("Apple Inc.", "Apple Inc.") == []


def test_a_steps_findings_are_recorded_and_stored_with_it(wiki):
    """The loop puts what the tool found on the step; the store keeps it (a resumed run reads the same)."""
    from agent.config import AgentConfig
    from agent.llm.replay import Replay
    from agent.loop import Agent
    from core.chroma import make_client
    from core.schema import ToolStatus
    from memory.factory import make_memory
    from memory.store import Store
    from tools.defaults import default_tools

    llm = Replay(["Thought: look it up\nAction: wikipedia_summary\nAction Input: Loire",
                  "Thought: done\nAction: Final\nAction Input: The Loire is 1,006 km long."])
    memory = make_memory("window", "findings-stored", store=Store(make_client("memory")), task="How long is the Loire?")
    result = Agent(llm, default_tools(wiki), memory=memory, config=AgentConfig(final_answer_checks=[])).run()
    assert result.steps[0].findings.status is ToolStatus.found and result.steps[0].findings.pages == ["Loire"]
    assert result.steps[1].findings is None
    reopened = make_memory("window", "findings-stored", store=memory.store)
    assert reopened.steps()[0].findings == result.steps[0].findings


def test_ambiguous_bare_title_is_a_disambiguation(wiki):
    with pytest.raises(Disambiguation) as caught:
        wiki.page("Mercury")
    assert sorted(caught.value.options) == ["Mercury (element)", "Mercury (planet)"]
    assert wiki.search("mercury", 2) == ["Mercury (element)", "Mercury (planet)"]


def test_did_you_mean_on_a_miss(wiki):
    with pytest.raises(PageMissing) as caught:
        wiki.page("Thomas Edisson")
    assert caught.value.suggestions[0] == "Thomas Edison"
    with pytest.raises(PageMissing) as caught:
        wiki.page("Python (programming language)")     # not among the corpus's vital articles
    assert "Programming language" in caught.value.suggestions


def test_a_miss_offers_first_the_few_titles_naming_it_more_fully(wiki):
    """Held-out omh-345: "Louis I" offered Louis XI, XVI, XIV, XV and IX, not Louis I of Hungary. Titles that open
    another name ("Marx Brothers" for "Marx") are not put first, nor any of a name too common ("John")."""
    with pytest.raises(PageMissing) as louis:
        wiki.page("Louis I")
    assert louis.value.suggestions[0] == "Louis I of Hungary"
    with pytest.raises(PageMissing) as marx:
        wiki.page("Marx")
    assert marx.value.suggestions[0] == "Karl Marx"
    with pytest.raises(PageMissing) as extinction:
        wiki.page("Permian–Triassic")
    assert extinction.value.suggestions[0] == "Permian–Triassic extinction event"


def test_seed_demo_searches(wiki):
    # the lead's end-to-end demos rely on these exact resolutions
    assert wiki.search("Python programming language", 3)[0] == "Programming language"
    assert wiki.search("Python (programming language)", 3)[0] == "Programming language"
    assert wiki.search("light bulb", 3)[0] == "Incandescent light bulb"
    assert wiki.search("incandescent light bulb", 1) == ["Incandescent light bulb"]
    assert wiki.search("Thomas Edison", 1) == ["Thomas Edison"]
    assert "incandescent light bulb" in wiki.page("Thomas Edison").summary


@pytest.mark.parametrize("query", ["", "   ", "?!", "x" * 5000])
def test_odd_queries_do_not_crash(wiki, query):
    assert isinstance(wiki.search(query, 5), list)
    with pytest.raises((PageMissing, Disambiguation)):
        wiki.page(query)


def test_shipped_vectors_are_the_real_embeddings(wiki):
    """tools/data/wiki_vectors_en.npz must match what MiniLM computes now for this corpus."""
    from core.embedding import get_embedder

    with np.load(SHIPPED_VECTORS) as shipped:
        assert str(shipped["fingerprint"]) == _fingerprint(default_corpus_path())
        vectors = shipped["vectors"].astype(np.float32)
    sample = [0, 1234, 5000, 10032]
    fresh = get_embedder().embed([embed_text(wiki.docs[i]) for i in sample])
    assert np.all(np.sum(fresh * vectors[sample], axis=1) > 0.999)


def test_dense_retrieval_is_exact_so_every_machine_ranks_alike(wiki):
    """An approximate (HNSW) index built on two threads missed Monty Python among "Python"'s 50 nearest intros
    on one machine and not on another, and the fused ranking differed between them: retrieval must be exact."""
    from core.embedding import get_embedder

    with np.load(SHIPPED_VECTORS) as shipped:
        vectors = shipped["vectors"].astype(np.float32)
    for query in ("Python", "Who invented the telephone", "a river in Africa"):
        similarity = vectors @ get_embedder().embed([query])[0]
        nearest = [wiki.docs[i].title for i in np.argsort(-similarity, kind="stable")[:50]]
        assert wiki.dense_search(query, 50) == nearest
    assert "Monty Python" in wiki.dense_search("Python", 50)


def test_a_custom_corpus_is_embedded_once_and_reused_by_another_process(tmp_path, capfd):
    corpus, index = _write_jsonl(tmp_path / "tiny.jsonl", CUSTOM), tmp_path / "index"
    OfflineWiki(corpus_path=corpus, index_dir=index).build_index()
    assert "Building the offline Wikipedia index (4 intros" in capfd.readouterr().err
    script = ("from tools.wiki_offline import OfflineWiki\n"
              f"w = OfflineWiki(corpus_path={str(corpus)!r}, index_dir={str(index)!r})\n"
              "print(w.dense_search('a plant for a hot drink', 1)[0])\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Flimwort" and "Building" not in done.stderr


def test_index_is_reused_by_another_process(wiki, wiki_index_dir):
    script = ("from tools.wiki_offline import OfflineWiki\n"
              f"w = OfflineWiki(index_dir={str(wiki_index_dir)!r})\n"
              "print(w.search('who painted the Mona Lisa', 1)[0])\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PONDER_WIKI_CORPUS": ""})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Mona Lisa"
    assert "Building" not in done.stderr


CUSTOM = [
    {"title": "Zorblax (moon)", "text": "Zorblax is the invented third moon of the fictional planet Quintar."},
    {"title": "Quintar", "text": "Quintar is a fictional gas giant with three moons, orbiting a red dwarf."},
    {"title": "Flimwort", "text": "Flimwort is an imaginary herb used in tea that tastes of pepper.",
     "description": "Imaginary plant"},
    {"title": "Zorblax (band)", "text": "Zorblax are a made-up rock band formed in 1999."},
]


def _write_jsonl(path: Path, records) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_custom_corpus_from_env(tmp_path, monkeypatch):
    corpus = _write_jsonl(tmp_path / "tiny.jsonl", CUSTOM)
    monkeypatch.setenv("PONDER_WIKI_CORPUS", str(corpus))
    wiki = OfflineWiki(index_dir=tmp_path / "index")
    assert [d.title for d in wiki.docs] == [r["title"] for r in CUSTOM]
    assert wiki.page("flimwort").summary.startswith("Flimwort is an imaginary herb")
    assert wiki.search("herb tea pepper", 1) == ["Flimwort"]
    assert wiki.dense_search("a plant for a hot drink", 1) == ["Flimwort"]
    with pytest.raises(Disambiguation) as caught:
        wiki.page("Zorblax")
    assert set(caught.value.options) == {"Zorblax (moon)", "Zorblax (band)"}
    with pytest.raises(PageMissing) as caught:
        wiki.page("Quintarr")
    assert caught.value.suggestions[0] == "Quintar"


def test_changed_corpus_gets_its_own_index(tmp_path):
    index = tmp_path / "index"
    first = OfflineWiki(corpus_path=_write_jsonl(tmp_path / "a.jsonl", CUSTOM[:2]), index_dir=index)
    first.build_index()
    changed = _write_jsonl(tmp_path / "a.jsonl", CUSTOM[1:])
    second = OfflineWiki(corpus_path=changed, index_dir=index)
    assert second.fingerprint != first.fingerprint
    assert second.dense_search("herb", 3)[0] == "Flimwort"
    assert "Zorblax (moon)" not in second.dense_search("moon", 3)


@pytest.mark.parametrize("content, message", [
    ("", "no records"),
    ("{not json", "not a JSON record"),
    ('[{"title": "No text"}]', "no records"),
    ('["just a string"]', "expected an object"),
])
def test_bad_corpus_is_a_clear_error(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CorpusError, match=message):
        load_corpus(path)


def test_missing_corpus_file_is_a_clear_error(tmp_path):
    with pytest.raises(CorpusError, match="cannot read"):
        OfflineWiki(corpus_path=tmp_path / "nope.json", index_dir=tmp_path)


def test_json_object_and_list_shapes(tmp_path):
    as_object = tmp_path / "o.json"
    as_object.write_text(json.dumps({r["title"]: r for r in CUSTOM}), encoding="utf-8")
    as_list = tmp_path / "l.json"
    as_list.write_text(json.dumps(CUSTOM), encoding="utf-8")
    assert load_corpus(as_object) == load_corpus(as_list) == load_corpus(_write_jsonl(tmp_path / "j.jsonl", CUSTOM))


def test_normalise():
    assert normalise("Bose–Einstein_Condensate") == "bose einstein condensate"
    assert normalise("Newton's laws") == "newtons laws"
    assert normalise("Café") == "cafe"


def test_a_word_found_only_in_body_text_finds_the_page_holding_it(wiki):
    """MiniLM embeds "phonograph" as fragments, so its neighbours only look alike (Phonology, Phoneme); the intro
    that holds the word goes first, in a search and in a missing title's did-you-mean."""
    assert wiki.search("phonograph", 5)[0] == "Thomas Edison"
    assert wiki.search("theremin", 5)[0] == "Electronic music"
    with pytest.raises(PageMissing) as missing:
        wiki.page("Phonograph")
    assert missing.value.suggestions[0] == "Thomas Edison"
    assert "Photography" not in missing.value.suggestions     # a look-alike title, before the change the first
    with pytest.raises(PageMissing) as typo:
        wiki.page("Thomas Edisson")     # a misspelling still leads with the title it misspells
    assert typo.value.suggestions[0] == "Thomas Edison"


def test_pages_holding_a_word_the_embedder_knows_do_not_jump_ahead(wiki):
    """The seed demo asks about Python: the corpus has no Python programming page, and Monty Python's and Snake's
    intros hold the word, but the programming pages must stay first (else the model answers "a comedy group")."""
    from tools.wikipedia import make_wikipedia_tools
    programming = ["Computer programming", "Computer program", "Programming language", "Computer",
                   "Object-oriented programming"]
    assert wiki.search("Python", 5) == programming
    summary = {t.name: t for t in make_wikipedia_tools(wiki)}["wikipedia_summary"].fn("Python")
    assert summary.startswith('There is no Wikipedia page titled "Python". Did you mean: ' + "; ".join(programming))
    with pytest.raises(PageMissing) as missing:
        wiki.page("Python (programming language)")
    assert missing.value.suggestions[:2] == ["C (programming language)", "Programming language"]
    # other one-word demo lookups keep their first result
    assert wiki.page("Java").title == "Java" and wiki.search("Java", 2) == ["Java", "Java (programming language)"]
    assert wiki.page("Apple").title == "Apple" and wiki.search("Apple", 1) == ["Apple"]
    assert wiki.search("Mercury", 2) == ["Mercury (element)", "Mercury (planet)"]


def test_a_missing_title_holding_an_existing_one_reads_that_page(wiki):
    """Held-out omh-245: a helper asked for "Sun Tzu's The Art of War", then copied the did-you-mean list as one
    title ("The Art of War; Sun Tzu") three times, and never read the page stating its 13 chapters."""
    from tools.wikipedia import make_wikipedia_tools
    tools = {t.name: t for t in make_wikipedia_tools(wiki)}
    held = tools["wikipedia_summary"].fn("Sun Tzu's The Art of War")
    assert held.startswith('There is no Wikipedia page titled "Sun Tzu\'s The Art of War"; this is "The Art of War"')
    assert "composed of 13 chapters" in held and held.findings.pages == ["The Art of War"]
    copied = tools["wikipedia_lookup"].fn("The Art of War; Sun Tzu", "chapters")
    assert '"The Art of War", the title it holds' in copied and "composed of 13 chapters" in copied
    # a copied list is read as its first title, not as the search's top title it happens to hold
    assert '"Poker"' in tools["wikipedia_summary"].fn("Poker; Card game; Blackjack; Contract bridge").splitlines()[0]
    # nor is a name read as the kind it ends with: "Tevatron particle accelerator" is no Particle accelerator
    assert tools["wikipedia_summary"].fn("Tevatron particle accelerator").findings.status == "missing"
    # a title that holds no suggestion is still missing, with the titles to choose from
    assert tools["wikipedia_summary"].fn("Zzyzx Qwerty").findings.status == "missing"


def test_a_persons_career_or_reign_is_read_on_the_persons_page(wiki):
    """Held-out omh-287: "Juan Manuel Fangio's Formula One career" was read as Formula One (the search's top title,
    held in the asked one), and his span was never found; the career is on his own page."""
    from tools.wikipedia import make_wikipedia_tools
    summary = {t.name: t for t in make_wikipedia_tools(wiki)}["wikipedia_summary"]
    for asked, page in [("Juan Manuel Fangio's Formula One career", "Juan Manuel Fangio"),
                        ("Babe Ruth's Major League Baseball career", "Babe Ruth"), ("Elizabeth II's reign", "Elizabeth II")]:
        assert summary.fn(asked).findings.pages == [page], asked
    assert summary.fn("Sun Tzu's The Art of War").findings.pages == ["The Art of War"]  # a work, not a span


def test_a_missing_title_is_not_read_as_one_word_of_the_name_it_holds(wiki):
    """Held-out omh-425: "The Narrow Road to the Deep North" was read as the page on roads, and the helper answered
    from it; a title held as whole words still stands in ("Sun Tzu's The Art of War")."""
    from tools.wikipedia import make_wikipedia_tools
    summary = {t.name: t for t in make_wikipedia_tools(wiki)}["wikipedia_summary"]
    missing = summary.fn("The Narrow Road to the Deep North")
    assert missing.findings.status == "missing" and "Did you mean" in missing, missing
    assert summary.fn("Sun Tzu's The Art of War").findings.pages == ["The Art of War"]


def test_a_search_for_a_pages_exact_title_reads_that_page(wiki):
    """Over the helpers' stored runs, 26 of 43 searches whose top title was the query were not followed by reading
    it; most answered at once with a fact no page gave ("Fidel Castro was born on July 26, 1898")."""
    from tools.wikipedia import make_wikipedia_tools
    search = {t.name: t for t in make_wikipedia_tools(wiki)}["wikipedia_search"]
    exact = search.fn("grimms' fairy tales")
    assert exact.splitlines()[1] == "1. Grimms' Fairy Tales" and "The page titled as asked: Grimms' Fairy Tales" in exact
    assert "By the seventh edition in 1857" in exact
    assert exact.findings.page == "Grimms' Fairy Tales" and any("200 tales" in s for s in exact.findings.sentences)
    # a title named with its group word after it, or in the plural (held-out omh-290's helper searched "hummingbird
    # family" twice, read nothing, and answered from memory)
    for query in ("hummingbird family", "hummingbirds"):
        named = search.fn(query)
        assert named.findings.page == "Hummingbird" and "The page titled as asked: Hummingbird" in named, query
    # a top title that is half the query or more, whole words (held-out omh-405's and -410's helpers searched
    # "judo creator" and "Dead Sea tributaries" again and again, never reading the page, and answered from memory)
    for query, page in [("judo creator", "Judo"), ("Dead Sea tributaries", "Dead Sea")]:
        named = search.fn(query)
        assert named.findings.page == page and named.splitlines()[1] == f"1. {page}", query
    assert "Kanō Jigorō" in search.fn("judo creator")  # the page's text, which names its creator
    fewer = search.fn("ranking system attributed to Kanō Jigorō")  # two words of six: the titles alone
    assert fewer.splitlines()[1] == "1. Kanō Jigorō" and fewer.findings.status == "listed"
    keywords = search.fn("light bulb inventor")  # keywords that title no page: the titles alone
    assert keywords.findings.status == "listed" and "The page titled as asked" not in keywords


def test_a_title_named_by_the_query_stays_ahead_of_pages_holding_its_words(wiki):
    # "nymph" is split by the embedder too, and Artemis's intro holds it: the qualified title still leads
    assert wiki.page("nymph").title == "Nymph (biology)"
    found = wiki.search("nymph", 5)
    assert found[0] == "Nymph (biology)" and "Artemis" in found
    assert wiki.search("Cannabis", 2) == ["Cannabis", "Cannabis (drug)"]
    # the query names "Printing press", whose intro lacks "Gutenberg": it stays ahead of Johannes Gutenberg
    assert wiki.search("Gutenberg printing press", 2) == ["Printing press", "Johannes Gutenberg"]
