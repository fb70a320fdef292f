"""Scoring for `ponder bench`: FanOutQA's string accuracy, and which Wikipedia pages a run actually looked up.

Accuracy follows FanOutQA 1.1.1 (PyPI fanoutqa==1.1.1): `answer_in_text` in fanoutqa/eval/string.py, `normalize`
in fanoutqa/norm.py and `Scorer.score_accuracy` in fanoutqa/eval/scorer.py.

- Reference strings: a string or number is one string. A list gives its items. A dict gives its keys *and* its
  values, keys first, so half of a dict answer's credit is for naming the entities. True/False become "yes"/"no".
- Both the reference and the prediction are normalised: lowercased, Unicode repaired (ftfy), thousands separators
  dropped from numbers ("5,917,000" -> "5917000"), words lemmatised (spaCy en_core_web_sm), the characters
  , . ? ! : ; deleted and whitespace runs made one space. Articles are kept (no stopword removal by default), and so
  is all other punctuation (- ' " ( ) $ % /). Decimal points are deleted too, on both sides: 61.6 -> "616".
- A reference string counts as found when its normalised form occurs in the normalised prediction at word
  boundaries (`\\b...\\b`).
- Loose accuracy is the share of reference strings found. Strict accuracy means all of them were found (loose == 1).

Where this module differs on purpose (FanOutQA's own code can't run here, or would score nonsense):
1. Lemmatisation: there is no spaCy here. spaCy is heavy, and its makers don't publish the en_core_web_sm model on
   PyPI (spaCy downloads it from GitHub). Instead, a context-free rule for regular English plurals is applied to
   both sides (cities -> city, democrats -> democrat). spaCy's part-of-speech-dependent lemmas (was -> be, "left"
   -> "leave" when tagged as a verb) are not reproduced.
   ftfy's mojibake repair isn't reproduced either. Its quote, ligature, width and control-character fixes are.
2. Word boundaries: `\\b...\\b` can never match a reference that begins or ends with a non-word character
   ("$1.027 billion", "+62", "Denmark (1992)", URLs). FanOutQA's dev set has 15 questions with such a string. Here
   the reference's edges are trimmed of non-word characters, and the rest must not touch a word character on
   either side. For every other reference this is exactly `\\b...\\b`.
3. An empty reference string is dropped. FanOutQA dev has one, a missing birthday, and FanOutQA counts it as found
   in any prediction that has a word in it.
4. A float with no fractional part (6.0) is written as an integer ("6"). FanOutQA writes "6.0", which its
   punctuation removal turns into "60", so "6" would score 0 and "60" would score 1.
5. Nested lists and dicts (the dataset has none) are flattened, and every leaf string counts once. FanOutQA's
   arithmetic for them can go negative.
"""
from __future__ import annotations

import functools
import itertools
import re
import unicodedata
import urllib.parse
from typing import TYPE_CHECKING, Any, Iterable

from pydantic import BaseModel

from core.schema import Findings, ToolStatus
from tools.wikipedia import split_page_input

if TYPE_CHECKING:   # suites validate tolerances with the verdict module, which reads text through this one
    from ponder.bench.suites import BenchQuestion

# --- normalisation (fanoutqa/norm.py) -----------------------------------------------------------------------------

# ftfy.fix_text's defaults, reproduced: uncurl quotes, fix Latin ligatures and full-width forms, drop controls, NFC
_SINGLE_QUOTES = re.compile("[\u02bc\u2018-\u201b]")
_DOUBLE_QUOTES = re.compile("[\u201c-\u201f]")
_COMPAT = re.compile("[\ufb00-\ufb06\uff01-\uffef\u3000]")     # ligatures ﬁ, full/half-width forms, ideographic space
_CONTROLS = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f\u206a-\u206f\ufeff\ufff9-\ufffc]")

_THOUSANDS = re.compile(r"(\d+,)+\d+(\.\d+)?")    # FanOutQA's normalize_numbers, verbatim
_PUNCT = re.compile(r"[,.?!:;]")                  # FanOutQA's remove_punct, verbatim
_LETTERS = re.compile(r"[^\W\d_]+")               # runs of letters: the words the plural rule folds
_EDGE = re.compile(r"^\W+|\W+$")


def _fix_unicode(text: str) -> str:
    text = _SINGLE_QUOTES.sub("'", text)
    text = _DOUBLE_QUOTES.sub('"', text)
    text = _COMPAT.sub(lambda m: unicodedata.normalize("NFKC", m[0]), text)
    text = _CONTROLS.sub("", text)
    return unicodedata.normalize("NFC", text)


def _singular(word: str) -> str:
    """Regular English plurals to the singular, standing in for spaCy's lemmatiser (both sides get it, so it only
    decides which spellings count as the same word)."""
    if len(word) <= 3 or not word.endswith("s"):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"                      # cities -> city
    if word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]                            # classes -> class, churches -> church, taxes -> tax
    if word.endswith(("ss", "us", "is")):
        return word                                 # boss, campus, Paris
    return word[:-1]                                # democrats -> democrat, horses -> horse


def normalise(text: Any) -> str:
    """FanOutQA's normalize(): lowercase, Unicode fixes, "1,234" -> "1234", lemmas (here: singular nouns), drop
    , . ? ! : ; and squeeze whitespace."""
    text = _fix_unicode(str(text).lower())
    text = _THOUSANDS.sub(lambda m: m[0].replace(",", ""), text)
    text = _PUNCT.sub("", text)
    text = _LETTERS.sub(lambda m: _singular(m[0]), text)
    return " ".join(text.split())


# --- reference strings and accuracy (fanoutqa/eval/string.py) ----------------------------------------------------

def answer_strings(answer: Any) -> list[str]:
    """The reference strings of an answer shape: a str or number is one; a list gives its items; a dict gives its
    keys, then its values (as FanOutQA's answer_in_text does); booleans are "yes"/"no". Empty strings are dropped."""
    if answer is None:
        return []
    if isinstance(answer, dict):
        return [s for part in itertools.chain(answer.keys(), answer.values()) for s in answer_strings(part)]
    if isinstance(answer, (list, tuple)):
        return [s for part in answer for s in answer_strings(part)]
    if isinstance(answer, bool):
        return ["yes" if answer else "no"]
    if isinstance(answer, float) and answer.is_integer():
        return [str(int(answer))]
    text = str(answer)
    return [text] if text.strip() else []


@functools.lru_cache(maxsize=65536)
def _reference_pattern(reference: str) -> re.Pattern | None:
    core = _EDGE.sub("", normalise(reference))
    if not core:
        return None
    return re.compile(rf"(?<!\w){re.escape(core)}(?!\w)")


def _matches(prediction: str | None, answer: Any) -> tuple[int, int, list[str]]:
    """(reference strings found, reference strings, the normalised strings missing) for one answer shape."""
    text = normalise(prediction) if prediction and prediction.strip() else ""
    found, total, missing = 0, 0, []
    for reference in answer_strings(answer):
        pattern = _reference_pattern(reference)
        if pattern is None:
            continue
        total += 1
        if text and pattern.search(text):
            found += 1
        else:
            missing.append(normalise(reference))
    return found, total, missing


def loose_accuracy(prediction: str | None, answer: Any) -> float:
    """Share of the answer's reference strings found in the prediction (FanOutQA's loose accuracy)."""
    found, total, _ = _matches(prediction, answer)
    return found / total if total else 0.0


def strict_accuracy(prediction: str | None, answer: Any) -> bool:
    """All of the answer's reference strings found in the prediction (FanOutQA's strict accuracy)."""
    found, total, _ = _matches(prediction, answer)
    return total > 0 and found == total


class Score(BaseModel):
    loose: float = 0.0          # best share of reference strings found, over the acceptable alternatives
    strict: bool = False        # some alternative found in full
    missing: list[str] = []     # normalised reference strings the best alternative lacks


def score(question: BenchQuestion, prediction: str | None) -> Score:
    """Score a prediction against each acceptable answer of the question; the best alternative counts."""
    best: Score | None = None
    for answer in question.answers:
        found, total, missing = _matches(prediction, answer)
        if not total:
            continue
        candidate = Score(loose=found / total, strict=found == total, missing=missing)
        if best is None or candidate.loose > best.loose:
            best = candidate
    return best or Score()


# --- evidence: which pages the run looked up ---------------------------------------------------------------------

def _title_keys(title: str) -> set[str]:
    """Normalised spellings of a title, as the offline wiki resolves them (case, accents, punctuation, "The",
    a plural "s", "(qualifier)" order). A bare "Python" does not match "Python (programming language)"."""
    from tools.wiki_offline import title_keys  # imported here: it loads the BM25 package on import
    return title_keys(title)[0]


def evidence_recall(evidence: list[str], titles_seen: Iterable[str]) -> float | None:
    """Share of the gold evidence pages the run looked up (titles compared normalised); None without evidence."""
    gold: dict[frozenset, str] = {}
    for title in evidence:
        if title and title.strip():
            gold.setdefault(frozenset(_title_keys(title)), title)
    if not gold:
        return None
    seen: set[str] = set()
    for title in titles_seen:
        if title and title.strip():
            seen |= _title_keys(title)
    return sum(1 for keys in gold if keys & seen) / len(gold)


# Observation formats of tools/wikipedia.py. A summary starts "Title[, description] (offline Wikipedia, URL):".
_SUMMARY_HEAD = re.compile(r" \((\w+) Wikipedia(?:, (?P<url>\S+))?\):\s*$")
_EMPTY_PAGE = re.compile(r'^The Wikipedia page "(?P<title>.+)" has no text \(')
_LOOKUP_HIT = re.compile(r'^\d+ sentences? containing.* in "(?P<title>.+?)" \(\w+ Wikipedia[,)]')
_LOOKUP_MISS = re.compile(r'^".*" does not appear in the Wikipedia page "(?P<title>.+?)"(?: \(|\.)')
_FAILED = re.compile(r'^(Error:|There is no Wikipedia page titled|".*" is ambiguous; it may refer to)')
_RESULT_LINE = re.compile(r"^\d+\. (.+)$", re.M)


def _findings(step: Any) -> Findings | None:
    value = step.get("findings") if isinstance(step, dict) else getattr(step, "findings", None)
    return Findings.model_validate(value) if isinstance(value, dict) else value


def _field(step: Any, name: str) -> str:
    value = step.get(name) if isinstance(step, dict) else getattr(step, name, "")
    return str(value or "")


def _input_title(action_input: str) -> str:
    """The page title a tool was asked for, read the way the tool reads it (JSON arguments or plain text)."""
    from tools.base import ToolError, tool_arguments
    try:
        return str(tool_arguments(action_input, ["title", "text"]).get("title") or "").strip()
    except ToolError:  # JSON with other keys: whatever single value it holds
        return ""


def _summary_title(observation: str, asked: str) -> str | None:
    first = observation.split("\n", 1)[0].strip()
    empty = _EMPTY_PAGE.match(first)
    if empty:
        return empty["title"]
    head = _SUMMARY_HEAD.search(first)
    if not head:
        return None
    url = head["url"] or ""
    if "/wiki/" in url:
        return urllib.parse.unquote(url.rsplit("/wiki/", 1)[1]).replace("_", " ").strip()
    described = first[:head.start()]
    # "Title, description": titles have commas too ("Washington, D.C."), so prefer a cut that gives the asked title
    cuts = [m.start() for m in re.finditer(", ", described)] + [len(described)]
    asked_keys = _title_keys(asked) if asked else set()
    for cut in cuts:
        if _title_keys(described[:cut]) & asked_keys:
            return described[:cut].strip()
    return described[:cuts[0]].strip()


def _lookup_title(observation: str) -> str | None:
    first = observation.split("\n", 1)[0].strip()
    match = _LOOKUP_HIT.match(first) or _LOOKUP_MISS.match(first)
    return match["title"] if match else None


def pages_looked_up(steps: Iterable[Any], include_search: bool = False) -> list[str]:
    """Titles of the Wikipedia pages a run actually retrieved, in first-retrieval order, without repeats.

    Steps are Ponder steps (or dicts) with action, action_input and observation. wikipedia_summary and
    wikipedia_lookup count when the page was retrieved: the resolved title is read from the observation, because
    "edison" resolves to "Thomas Edison". A missing or ambiguous page or an error counts for nothing. If the
    observation's format isn't recognised, the title that was asked for is used. wikipedia_search only lists
    titles and retrieves no page, so its results count only with include_search=True.
    """
    titles: list[str] = []
    for step in steps:
        action = _field(step, "action").strip().lower()
        action_input, observation = _field(step, "action_input"), _field(step, "observation").strip()
        helped = _findings(step)
        if helped is not None and helped.subrun:  # a helper's page (research): the one that states its answer
            titles.extend(title for title in helped.read if title not in titles)
            continue
        if action not in ("wikipedia_summary", "wikipedia_lookup", "wikipedia_search") or not observation:
            continue
        findings = _findings(step)
        if findings is not None:  # the tool's own report, as fields (the wording below is for older steps)
            listed = findings.pages if include_search and findings.status is ToolStatus.listed else []
            for title in findings.read or listed:
                if title and title not in titles:
                    titles.append(title)
            continue
        if _FAILED.match(observation):
            continue
        found: list[str] = []
        if action == "wikipedia_search":
            if include_search and observation.startswith("Wikipedia pages matching"):
                found = [t.strip() for t in _RESULT_LINE.findall(observation)]
        elif action == "wikipedia_summary":
            asked = _input_title(action_input)
            title = _summary_title(observation, asked) or asked
            found = [title]
        else:
            title = _lookup_title(observation)
            if title is None:   # an unknown format: fall back to the title that was asked for
                title = _input_title(action_input)
                if not action_input.strip().startswith("{"):
                    try:
                        title = split_page_input(title, "")[0]  # "Title | text", read as the tool reads it
                    except Exception:
                        title = title.split(",", 1)[0].strip()                      # "Title, text"
            found = [title]
        for title in found:
            if title and title not in titles:
                titles.append(title)
    return titles
