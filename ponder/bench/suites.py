"""Question suites for `ponder bench`: a user's JSONL file, and the named suites in SUITES.

A suite is a list of BenchQuestion. Each answer alternative is a FanOutQA answer shape (see ponder/bench/metrics.py):
a string, a number, a list (all of its strings must appear) or a dict (its keys and its values must appear).

Named suites:
- offline-multihop: ponder/bench/data/offline_multihop.jsonl, multi-hop questions over the offline corpus.
- long-horizon: ponder/bench/data/long_horizon.jsonl, questions that each need 10 to 30 lookups in the offline corpus
  (rivers' lengths, summits' elevations, people's years, cities' populations, areas), then a selection and arithmetic
  over the facts found. Each question's facts quote the number on every page, and its `compute` says how the gold
  answer follows from them (tests/test_bench_long_horizon.py recomputes it).
- short-tasks: six short research tasks (a lookup with the calculator or the date tools; two ask an age today,
  counted from core.clock's today when the suite is loaded, so PONDER_TODAY pins them).
- fanoutqa-dev: the 310 dev questions of FanOutQA (PyPI fanoutqa==1.1.1, CC BY-SA 4.0). Only the package's data
  file is read, found through its install record. The package itself is never imported: on import it makes cache
  folders and an HTTP client for live Wikipedia.
- fanoutqa-dev-offline: the fanoutqa-dev questions whose evidence pages are all in the offline Wikipedia corpus
  (PONDER_WIKI_CORPUS, or the default one), with titles matched the way the offline wiki resolves them.

To add a suite, put a function returning list[BenchQuestion] in SUITES.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from core.clock import SYSTEM_CLOCK
from ponder.bench.verdict import parse_tolerance

DATA_DIR = Path(__file__).parent / "data"
OFFLINE_MULTIHOP_FILE = DATA_DIR / "offline_multihop.jsonl"
LONG_HORIZON_FILE = DATA_DIR / "long_horizon.jsonl"
SHIPPED_FANOUTQA_DEV = DATA_DIR / "fanoutqa-dev.json"


class SuiteError(ValueError):
    """A suite file that can't be used. The message is one line: where (file:line) and what is wrong."""


def _check_shape(answer: Any, where: str) -> None:
    """An answer shape: a string, a number, a list of shapes or an object of shapes, with some text in it (an empty
    string inside a list or object is allowed: FanOutQA has one, and scoring drops it)."""
    def check(value: Any, at: str) -> bool:     # True if it holds a non-empty string
        if isinstance(value, (bool, int, float)):
            return True
        if isinstance(value, str):
            return bool(value.strip())
        if isinstance(value, list):
            if not value:
                raise ValueError(f"{at} is an empty list")
            return any([check(item, f"{at}, item {i},") for i, item in enumerate(value, 1)])
        if isinstance(value, dict):
            if not value:
                raise ValueError(f"{at} is an empty object")
            return any([check(item, f"{at}, value of {key!r},") for key, item in value.items()]) or \
                any(str(key).strip() for key in value)
        raise ValueError(f"{at} is {type(value).__name__}; use a string, a number, a list or an object")

    if not check(answer, where):
        raise ValueError(f"{where} is an empty string" if isinstance(answer, str) else f"{where} holds no text")


class BenchQuestion(BaseModel):
    """One benchmark question with its acceptable answers. Suite files may carry more fields (facts, compute...)."""
    model_config = ConfigDict(extra="allow")

    id: str
    question: str
    answers: list[Any]              # acceptable alternatives, each a FanOutQA answer shape
    evidence: list[str] = []        # Wikipedia page titles that hold the facts
    kind: str = ""
    lookups: int | None = None
    # the candidates a choice question names; None: read from the question; []: none, the answer is not one pick
    # among the names the question lists (several picks, or a number), so every part is looked for as it is
    options: list[str] | None = None
    tolerance: Any = None              # how far a number may be off: 0.5, "1%", {"absolute"|"relative": x}

    @field_validator("tolerance")
    @classmethod
    def _tolerance_readable(cls, value: Any) -> Any:
        parse_tolerance(value)
        return value

    @field_validator("options")
    @classmethod
    def _options_are_names(cls, value: list[str] | None) -> list[str] | None:
        if value and (len(value) < 2 or not all(isinstance(o, str) and o.strip() for o in value)):
            raise ValueError("options must list at least two non-empty names, or be [] for none")
        return value

    @field_validator("question")
    @classmethod
    def _question_not_empty(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the question is empty")
        return value

    @field_validator("answers")
    @classmethod
    def _answers_are_shapes(cls, value: list[Any]) -> list[Any]:
        if not value:
            raise ValueError("no answers given")
        for i, answer in enumerate(value, 1):
            _check_shape(answer, f"answer {i}")
        return value


# --- a user's JSONL suite ------------------------------------------------------------------------------------------

def one_line_error(error: ValidationError) -> str:
    problems = []
    for e in error.errors():
        field = ".".join(str(p) for p in e["loc"])
        message = str(e["msg"]).removeprefix("Value error, ")
        problems.append(f"{field}: {message}" if field else message)
    return "; ".join(problems)


def read_text_file(path: Path, what: str, error: type[Exception]) -> str:
    """A JSONL file's text; `error` names the file (and the line of a byte that is not UTF-8) when it can't be read."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise error(f"{path}: cannot read {what} ({exc.strerror or exc})") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise error(f"{path}:{line}: not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the file as UTF-8") from None


def json_lines(text: str, path: Path) -> Iterator[tuple[int, str, Any, str]]:
    """Each non-blank line of a JSONL text: (line number, "file:line", its value, "" or why it is not JSON)."""
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield number, f"{path}:{number}", json.loads(line), ""
        except json.JSONDecodeError as exc:
            yield number, f"{path}:{number}", None, f"not valid JSON ({exc.msg} at column {exc.colno})"


def load_questions(path: str | Path) -> list[BenchQuestion]:
    """Read a JSONL suite: one JSON object a line with "question" and "answers" (a list of acceptable answers, or a
    single answer), and optionally "evidence" (page titles), "id" (default "q-<line>") and any other fields.
    Blank lines are skipped. Problems raise SuiteError naming the file and line."""
    path = Path(path)
    text = read_text_file(path, "the question file", SuiteError)
    questions: list[BenchQuestion] = []
    first_line: dict[str, int] = {}
    for number, where, record, problem in json_lines(text, path):
        if problem:
            raise SuiteError(f"{where}: {problem}")
        if not isinstance(record, dict):
            raise SuiteError(f'{where}: expected a JSON object like {{"question": ..., "answers": [...]}}, '
                             f"got {type(record).__name__}")
        if _is_suite_header(record):
            continue
        if "answers" not in record and "answer" in record:
            record["answers"] = [record.pop("answer")]
        for field in ("question", "answers"):
            if field not in record:
                raise SuiteError(f'{where}: missing "{field}"')
        if not isinstance(record["answers"], list):
            record["answers"] = [record["answers"]]     # one answer given alone
        if isinstance(record.get("evidence"), str):
            record["evidence"] = [record["evidence"]]
        record.setdefault("id", f"q-{number}")
        if isinstance(record["id"], int) and not isinstance(record["id"], bool):
            record["id"] = str(record["id"])
        try:
            question = BenchQuestion(**record)
        except ValidationError as exc:
            raise SuiteError(f"{where}: {one_line_error(exc)}") from None
        if question.id in first_line:
            raise SuiteError(f"{where}: duplicate id {question.id!r} (first used on line {first_line[question.id]})")
        first_line[question.id] = number
        questions.append(question)
    if not questions:
        raise SuiteError(f"{path}: no questions (the file is empty)")
    return questions


def _is_suite_header(record: dict) -> bool:
    """A line that describes the suite rather than a question: {"corpus": "docs.jsonl"}."""
    return "corpus" in record and "question" not in record


def suite_corpus(path: str | Path) -> Path | None:
    """The documents a suite file names for its questions (a {"corpus": FILE} line; a relative path is read from
    the suite file's folder), or None: the suite uses the default corpus."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None     # load_questions reports an unreadable file with its line
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line) if line.strip() else None
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and _is_suite_header(record):
            if not isinstance(record["corpus"], str) or not record["corpus"].strip():
                raise SuiteError(f'{path}:{number}: "corpus" must be the path of a JSONL file of title and text')
            corpus = Path(record["corpus"]).expanduser()
            return corpus if corpus.is_absolute() else path.parent / corpus
    return None


# --- FanOutQA ------------------------------------------------------------------------------------------------------

def fanoutqa_dev_path() -> Path:
    """FanOutQA's dev set, shipped in ponder/bench/data (copied unchanged from the fanoutqa 1.1.1 package, whose
    install would pull in spaCy for a 1.2 MB file; CC BY-SA 4.0, see NOTICE-fanoutqa.md)."""
    if not SHIPPED_FANOUTQA_DEV.is_file():
        raise SuiteError(f"{SHIPPED_FANOUTQA_DEV}: the FanOutQA dev set is missing from this install")
    return SHIPPED_FANOUTQA_DEV


def _necessary_evidence(subquestions: list[dict]) -> Iterable[str]:
    """Evidence titles of a question's decomposition, depth first: fanoutqa.models.DevQuestion.necessary_evidence."""
    for sub in subquestions:
        if sub.get("evidence"):
            yield sub["evidence"]["title"]
        yield from _necessary_evidence(sub.get("decomposition") or [])


def load_fanoutqa_dev(path: str | Path | None = None) -> list[BenchQuestion]:
    """FanOutQA's dev questions: answers=[the reference answer], evidence = the titles of its necessary evidence
    pages (each once, in the dataset's order), lookups = how many pages that is, categories kept as an extra."""
    path = Path(path) if path else fanoutqa_dev_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SuiteError(f"{path}: cannot read the FanOutQA dev set ({exc})") from None
    questions = []
    for index, item in enumerate(data, 1):
        try:
            evidence = list(dict.fromkeys(_necessary_evidence(item["decomposition"])))
            questions.append(BenchQuestion(id=item["id"], question=item["question"], answers=[item["answer"]],
                                           evidence=evidence, kind="fanoutqa", lookups=len(evidence),
                                           categories=item.get("categories", [])))
        except (KeyError, TypeError) as exc:
            raise SuiteError(f"{path}: question {index} is not a FanOutQA dev question "
                             f"({type(exc).__name__}: {exc})") from None
        except ValidationError as exc:
            raise SuiteError(f"{path}: question {index}: {one_line_error(exc)}") from None
    return questions


class Coverage(BaseModel):
    """How much of a suite's evidence an offline corpus holds."""
    questions: int = 0              # questions with evidence
    questions_covered: int = 0      # ... all of whose evidence pages the corpus holds
    pages: int = 0                  # distinct evidence pages over the suite (titles compared normalised)
    pages_covered: int = 0          # ... that the corpus holds

    @property
    def question_share(self) -> float:
        return self.questions_covered / self.questions if self.questions else 0.0

    @property
    def page_share(self) -> float:
        return self.pages_covered / self.pages if self.pages else 0.0

    def describe(self) -> str:
        return (f"{self.questions_covered}/{self.questions} questions fully covered ({self.question_share:.1%}), "
                f"{self.pages_covered}/{self.pages} evidence pages in the corpus ({self.page_share:.1%})")


class _CorpusTitles:
    """Membership of page titles in a corpus, by the offline wiki's normalised title keys."""

    def __init__(self, corpus_titles: Iterable[str]):
        from tools.wiki_offline import title_keys
        self._title_keys = title_keys
        self.keys: set[str] = set()
        for title in corpus_titles:
            self.keys |= title_keys(title)[0]

    def page_key(self, title: str) -> frozenset[str]:
        """One page's identity: "The Beatles" and "beatles" are the same page."""
        return frozenset(self._title_keys(title)[0])

    def __contains__(self, title: str) -> bool:
        # full keys only: a bare "Mercury" in the corpus is not the evidence page "Mercury (planet)", nor vice versa
        return bool(self._title_keys(title)[0] & self.keys)


def offline_coverage(questions: list[BenchQuestion], corpus_titles: Iterable[str]) -> Coverage:
    """Questions whose evidence pages are all in the corpus, and evidence pages in it, out of the totals."""
    corpus = _CorpusTitles(corpus_titles)
    pages: dict[frozenset[str], bool] = {}
    covered = total = 0
    for question in questions:
        if not question.evidence:
            continue
        total += 1
        present = [pages.setdefault(corpus.page_key(title), title in corpus) for title in question.evidence]
        covered += all(present)
    return Coverage(questions=total, questions_covered=covered, pages=len(pages), pages_covered=sum(pages.values()))


def offline_corpus_titles() -> list[str]:
    """Titles of the offline Wikipedia corpus the agent uses (PONDER_WIKI_CORPUS, or the default corpus)."""
    from tools.wiki_offline import corpus_path_from_env, load_corpus
    return [doc.title for doc in load_corpus(corpus_path_from_env())]


def offline_subset(questions: list[BenchQuestion], corpus_titles: Iterable[str]) -> list[BenchQuestion]:
    """The questions with evidence, all of whose evidence pages are in the corpus."""
    corpus = _CorpusTitles(corpus_titles)
    return [q for q in questions if q.evidence and all(title in corpus for title in q.evidence)]


# --- the registry --------------------------------------------------------------------------------------------------

def load_offline_multihop() -> list[BenchQuestion]:
    if not OFFLINE_MULTIHOP_FILE.exists():
        raise SuiteError(f"{OFFLINE_MULTIHOP_FILE}: the offline-multihop suite file is missing")
    return load_questions(OFFLINE_MULTIHOP_FILE)


def load_long_horizon() -> list[BenchQuestion]:
    if not LONG_HORIZON_FILE.exists():
        raise SuiteError(f"{LONG_HORIZON_FILE}: the long-horizon suite file is missing")
    return load_questions(LONG_HORIZON_FILE)


def _ages_today(name: str, born: int) -> list[list[str]]:
    """Alternatives for "how old would they be today": either age, as the corpus gives most people's birth year,
    not their birthday."""
    age = SYSTEM_CLOCK.today().year - born
    return [[name, str(age)], [name, str(age - 1)]]


def load_short_tasks() -> list[BenchQuestion]:
    """Six short tasks, most a lookup in the offline corpus and a calculation (the first and last need no page; the
    corpus has none on Python the language). Formerly benchmarks/bench_local_tasks.py."""
    tasks = [
        ("What is Python, and what is 15 raised to the power of 2?",
         [["programming", "225"], ["language", "225"]], [], "arithmetic"),
        ("Who invented the light bulb, and how old would they be today if they were alive?",
         _ages_today("Edison", 1847), ["Thomas Edison"], "date"),
        ("Who painted the Mona Lisa, and how many years ago was the painter born?",
         _ages_today("Leonardo", 1452), ["Mona Lisa", "Leonardo da Vinci"], "date"),
        # born 16 December 1775, died 18 July 1817: 41, or 42 by the years the corpus gives
        ("Who wrote Pride and Prejudice, and how old was the author when she died?",
         [["Austen", "41"], ["Austen", "42"]], ["Pride and Prejudice", "Jane Austen"], "date"),
        ("Who developed the theory of relativity, and what is the year of his birth multiplied by 2?",
         [["Einstein", "3758"]], ["Theory of relativity", "Albert Einstein"], "arithmetic"),
        ("What is the square root of 1764 plus 8?", ["50"], [], "arithmetic"),
    ]
    return [BenchQuestion(id=f"short-{number:02d}", question=question, answers=answers, evidence=evidence, kind=kind,
                          lookups=len(evidence))
            for number, (question, answers, evidence, kind) in enumerate(tasks, 1)]


def load_fanoutqa_dev_offline() -> list[BenchQuestion]:
    return offline_subset(load_fanoutqa_dev(), offline_corpus_titles())


SUITES: dict[str, Callable[[], list[BenchQuestion]]] = {
    "offline-multihop": load_offline_multihop,
    "long-horizon": load_long_horizon,
    "short-tasks": load_short_tasks,
    "fanoutqa-dev": load_fanoutqa_dev,
    "fanoutqa-dev-offline": load_fanoutqa_dev_offline,
}


def suite_names() -> list[str]:
    return list(SUITES)


def load_suite(name: str) -> list[BenchQuestion]:
    """The questions of a named suite; SuiteError for an unknown name or a suite that can't be loaded."""
    loader = SUITES.get(name)
    if loader is None:
        raise SuiteError(f"unknown suite {name!r}; the suites are: {', '.join(suite_names())}")
    return loader()
