"""The primary verdict of `ponder bench` and `ponder score`: is the answer right, by rules a wrong answer cannot game.

FanOutQA's string accuracy (ponder/bench/metrics.py) credits a reference string found anywhere in the answer, so an
answer that repeats the candidates a question names, or pastes a page that mentions the right one, scores right,
and "3.6" matches "36" once decimal points are deleted. Read by hand, several committed "correct" runs were wrong.
This verdict reads the answer the way a reader does:

- Choices. A question may list `options` (the candidates it names; where absent they are read from the question
  when it plainly offers some: "which of A, B or C", "Of the A, B and C, which ..."). The answer must commit to one
  option: the option named in a sentence that says it is the <superlative the question asks for> ("the longest",
  not "the third-longest", not "not the longest"), with mentions after "than", "after", "followed by"... set aside
  as comparisons; or, in a short answer, the one option it names. Naming several without a pick is wrong; picking a
  wrong option is wrong even if the right one appears elsewhere.
- Numbers are compared as numbers: signs and decimal points kept, thousands separators and scale words read
  ("5.78 million"), units ignored. A reference written at a precision ("2.49", "170 million") accepts an answer that
  rounds to it; a question's `tolerance` (absolute, or relative as "1%") widens that.
- Yes/no references read the answer's stance (its first word, or "the answer is yes"), never a substring.
- Other references (names) must appear at word boundaries (FanOutQA's normalisation).
- An answer has alternatives (`answers`); an alternative that is a list has parts that must all be present; an
  object's keys and values are all parts (FanOutQA's dict answers).
"""
from __future__ import annotations

import math
import re
from typing import Any, Iterable, Sequence

from pydantic import BaseModel

from core.support import singular_forms
from ponder.bench.metrics import normalise

# --- the verdict ---------------------------------------------------------------------------------------------------


class Verdict(BaseModel):
    correct: bool
    reason: str                       # what matched where, or what was missing / which option clashed
    pick: str | None = None           # the option the answer commits to, for a choice question
    f1: float = 0.0                   # token F1 against the best reference alternative


# --- options: the candidates a question names ---------------------------------------------------------------------

# Superlatives a choice question asks for, with the words an answer may use for the same pick.
_CUES = {
    "longest": {"longest"}, "highest": {"highest", "tallest"}, "tallest": {"tallest", "highest"},
    "lowest": {"lowest"}, "oldest": {"oldest", "earliest", "first"}, "youngest": {"youngest"},
    "largest": {"largest", "biggest"}, "biggest": {"biggest", "largest"}, "smallest": {"smallest"},
    "shortest": {"shortest"}, "earliest": {"earliest", "first"}, "first": {"first", "earliest"},
    "latest": {"latest", "last"}, "last": {"last", "latest"}, "deepest": {"deepest"}, "most": {"most"},
    "least": {"least"}, "greatest": {"greatest", "largest"}, "heaviest": {"heaviest"}, "lightest": {"lightest"},
    "fastest": {"fastest"}, "closest": {"closest", "nearest"}, "nearest": {"nearest", "closest"},
    "farthest": {"farthest", "furthest"}, "hottest": {"hottest"}, "coldest": {"coldest"}, "widest": {"widest"},
    "best": {"best"}, "worst": {"worst"}, "newest": {"newest", "latest"},
}
# "which puts the most players on the field" is answered by "... is the highest, at 18": the same pick
_CUES["most"] = {"most", "highest", "largest", "greatest", "biggest"}
_CUES["least"] = _CUES["fewest"] = {"least", "fewest", "lowest", "smallest"}
_ORDINAL = r"(?:second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|2nd|3rd|\d+th)"
# a sentence or clause that names things no value was found for, or left out ("No value was found for X, Y.")
_WITHOUT_VALUE = re.compile(r"[^.;]*\b(?:no (?:value|figure|number)s? (?:was |were )?(?:found|given|stated)|left out)\b"
                            r"[^.;]*[.;]?", re.I)
_NEGATION = re.compile(r"\b(?:not|never|no longer|isn't|wasn't|aren't|weren't|didn't|doesn't)\b", re.I)
# After these words the options named are what the pick is compared with, not the pick.
_COMPARISON = re.compile(r"\b(?:than|after|ahead of|followed by|behind|compared (?:with|to)|versus|vs\.?|while|"
                         r"whereas|but|over|unlike|beating|exceeding|surpassing|outliving)\b", re.I)
_SELECTION = re.compile(r"\b(?:which|who|whose|whom)\b", re.I)
_CONNECTORS = {"of", "the", "de", "da", "del", "der", "von", "van", "la", "le", "du", "y", "and", "upon", "on"}
_GENERIC = {"mount", "mountain", "mountains", "mont", "river", "lake", "university", "desert", "sea", "ocean",
            "dynasty", "island", "islands", "the", "of", "saint", "st", "city", "range", "peak", "empire"}
_WORD = re.compile(r"[^\W_]+(?:['’.-][^\W_]+)*", re.U)


_LEADING_STOP = {"of", "which", "who", "whom", "whose", "what", "the", "these", "those", "is", "was", "were",
                 "are", "among", "between", "from", "did", "does", "do", "has", "had", "a", "an"}
_ARTICLES = {"the", "a", "an"}


def _name_in(part: str, leading: bool, trailing: bool) -> str:
    """The proper name a list item holds, or "" if it is not one. leading: words before the name may be dropped
    ("Which of the polar explorers Roald Amundsen"), else only an article may; trailing: words after it may be
    dropped ("Fridtjof Nansen was born first"). Connectors join a name's words ("Bay of Bengal")."""
    words = part.strip().split()
    dropped = []
    while words and (not (words[0][:1].isupper() or words[0][:1].isdigit()) or words[0].lower() in _LEADING_STOP):
        dropped.append(words.pop(0).lower())
    if not leading and any(word not in _ARTICLES for word in dropped):
        return ""
    kept: list[str] = []
    for i, word in enumerate(words):
        if word[:1].isupper() or word[:1].isdigit():
            kept.append(word)
        elif word.lower() in _CONNECTORS and i + 1 < len(words) and words[i + 1][:1].isupper() and kept:
            kept.append(word)
        else:
            break
    if len(kept) < len(words) and not trailing:
        return ""
    return " ".join(kept).strip(" .,'\"")


def derive_options(question: str) -> list[str]:
    """The candidates a question plainly offers, or []: an "A, B or C" list, or an "A, B and C" list in a question
    that asks which/who of them. Lists of lowercase words (iron, copper and gold) and lists in questions that
    combine rather than choose (combined, total, sum) give none."""
    chooses = bool(_SELECTION.search(question))
    combines = bool(re.search(r"\b(?:combined|total|sum|together|altogether|average|all of)\b", question, re.I))
    best: list[str] = []
    for segment in re.split(r"[:;?]", question):
        parts = [part.strip() for part in segment.split(",")]
        for j, part in enumerate(parts):
            # the last "or"/"and" joins the list's last item: "Trinidad and Tobago, Jamaica or Cuba"
            joined = ([None] + list(re.finditer(r"(?:^|\s)(or|and)\s+(?=\S)", part)))[-1]
            if not joined or (joined[1] == "and" and (combines or not chooses)):
                continue
            left, right = part[:joined.start()].strip(), part[joined.end():]
            last = _name_in(right, leading=False, trailing=True)
            if not last:
                continue
            if left:                # "B or C" in one part
                items, before = [left], j - 1
            else:                   # "B, or C": the Oxford comma
                items, before = [], j - 1
                if before < 0:
                    continue
                items, before = [parts[before]], before - 1
            while before >= 0 and _name_in(parts[before], leading=False, trailing=False):
                items.insert(0, parts[before])
                before -= 1
            if before >= 0 and _name_in(parts[before], leading=True, trailing=False):
                items.insert(0, parts[before])      # the first item, after its lead-in ("Of the composers ...")
            names = [_name_in(item, leading=True, trailing=False) for item in items] + [last]
            if len(names) >= 2 and all(names) and len(set(names)) == len(names) and len(names) > len(best):
                best = names
    # "Zambezi, Limpopo, Niger, Orange: which of those ...": names before a colon, joined by commas alone
    head, colon, _ = question.partition(":")
    listed = [part.strip() for part in head.split(",")]
    if colon and chooses and not best and len(listed) >= 3:
        names = [_name_in(part, leading=False, trailing=False) for part in listed]
        if all(names) and len(set(names)) == len(names):
            best = names
    return best


def picked_among(question: str, answers: Sequence[Any], evidence: Sequence[str]) -> list[str]:
    """The pages a question's things were looked up on, as its options, when it asks which of them and every
    answer names exactly one of them: "Which of these four got going first?" after a sentence that describes the
    four ("the launch of the two Voyager probes, the Space Shuttle's years in service, ...") offers no list the
    question's words show, and an answer listing all four with their dates was credited for naming Voyager
    (held-out omh-161, overturned by hand). Such options are checked by `ranks`, not `choose`. [] otherwise:
    several picks, none, or a name the question does not hold (who directed a film the question names is found,
    not picked: omh-39)."""
    if len(evidence) < 2 or not _SELECTION.search(question):
        return []
    asked = {form for word in _tokens(question) for form in singular_forms(word)}  # "chameleons" names Chameleon
    for answer in answers:
        names = [part for part in reference_parts(answer) if isinstance(part, str)
                 and parse_reference_number(part) is None]
        if (len(names) != 1 or sum(_matches_option(names[0], page) for page in evidence) != 1
                or not set(_tokens(names[0])) - _GENERIC <= asked):
            return []
    return list(evidence)


# words that say where a thing ranks: "the latest", "the first", "the most", "within the bounds", "midway"
_RANKING = re.compile(rf"\b(?:[a-z]{{2,}}est|first|last|most|least|fewer|only|within|midway|median|middle|"
                      rf"{_ORDINAL})\b", re.I)


def ranks(prediction: str, option: str, options: Sequence[str]) -> str | None:
    """How the answer says where `option` ranks, or None: it names the option, outside a comparison, in a clause
    that is not negated and holds a ranking word ("Voyager was launched first"; not "Voyager was launched in
    1977" beside the other three's dates). Used where the options are the things looked up (`picked_among`): a
    question with two superlatives ("the most recent, and how many years after the oldest") is answered by two
    ranked clauses, and `choose` would take the first one's thing as the pick."""
    keys = _option_keys(options)
    for sentence in _SENTENCE.split(prediction):
        # a clause, or a sentence naming this one option alone ("Stalin, who led the Soviet Union from 1924 to
        # 1953, was in charge the longest": the clauses part the name from its rank)
        for clause in [*_CLAUSE.split(sentence), sentence]:
            outside = _outside_comparisons(clause, keys)
            if (_RANKING.search(clause) and not _NEGATION.search(clause) and option in outside
                    and (clause is not sentence or outside == [option])):
                return f"names {option!r} where it says where it ranks ({clause.strip()!r})"
    return None


def _tokens(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _option_keys(options: Sequence[str]) -> dict[str, list[str]]:
    """Per option, the spellings that name it in an answer: the whole option, and each of its words that no other
    option has and that is not a generic word ("Mount", "River"): "Robert Falcon Scott" is also "Scott"."""
    words = {option: set(_tokens(option)) for option in options}
    keys: dict[str, list[str]] = {}
    for option in options:
        others = set().union(*(w for o, w in words.items() if o != option)) if len(options) > 1 else set()
        distinct = [w for w in _tokens(option) if w not in others and w not in _GENERIC and len(w) > 2]
        keys[option] = list(dict.fromkeys([" ".join(_tokens(option)), *distinct]))
    return keys


def _mentions(text: str, keys: dict[str, list[str]]) -> list[tuple[int, str]]:
    """(position, option) for every place an option is named in text, in order."""
    lowered = text.lower()
    found = []
    for option, spellings in keys.items():
        for spelling in spellings:
            # "chameleons is the fewest" names the Chameleon (held-out omh-153): a plural ending is the option's too
            pattern = r"(?<![\w])" + r"[\s\-]+".join(re.escape(part) for part in spelling.split()) + r"(?:e?s)?(?![\w])"
            for match in re.finditer(pattern, lowered):
                found.append((match.start(), option))
    found.sort()
    return found


def _outside_comparisons(text: str, keys: dict[str, list[str]]) -> list[str]:
    """Options named in a clause before any comparison word: in "the Godavari is the longest, ahead of the Krishna"
    only the Godavari."""
    marker = _COMPARISON.search(text)
    head = text[:marker.start()] if marker else text
    return list(dict.fromkeys(option for _, option in _mentions(head, keys)))


def _has_cue(text: str, cues: set[str]) -> bool:
    lowered = text.lower()
    for cue in cues:
        for match in re.finditer(rf"\b{cue}\b", lowered):
            before = lowered[max(0, match.start() - 16):match.start()]
            if re.search(rf"{_ORDINAL}[\s-]*$", before):
                continue    # "the third-longest" is not "the longest"
            return True
    return False


_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])|\n+")
_CLAUSE = re.compile(r"[;,:]\s+|\s+-\s+|\s+—\s+")
SHORT_ANSWER_WORDS = 30


def choose(prediction: str, options: Sequence[str], question: str) -> tuple[str | None, str]:
    """(the option the answer commits to, or None; how that was read)."""
    keys = _option_keys(options)
    asked = {word for word in _tokens(question) if word in _CUES}
    cues = set().union(*(_CUES[word] for word in asked)) if asked else set()
    named = list(dict.fromkeys(option for _, option in _mentions(prediction, keys)))
    if not named:
        return None, "names none of the options " + ", ".join(options)
    sentences = [s for s in _SENTENCE.split(prediction) if s.strip()]
    if cues:
        for sentence in sentences:
            if not _has_cue(sentence, cues):
                continue
            clauses = [c for c in _CLAUSE.split(sentence) if c.strip()]
            for scope in [c for c in clauses if _has_cue(c, cues) and not _NEGATION.search(c)] + [sentence]:
                if scope is sentence and _NEGATION.search(sentence):
                    continue
                chosen = _outside_comparisons(scope, keys)
                if len(chosen) == 1:
                    return chosen[0], f"names {chosen[0]!r} where it says {'/'.join(sorted(asked))}"
            if len(_outside_comparisons(sentence, keys)) > 1:
                return None, (f"names {len(named)} options ({', '.join(named)}) without committing to one as the "
                              f"{'/'.join(sorted(asked))}")
    words = len(prediction.split())
    if len(named) == 1 and words <= SHORT_ANSWER_WORDS:
        return named[0], f"a short answer naming only {named[0]!r}"
    if words <= SHORT_ANSWER_WORDS:
        subjects = list(dict.fromkeys(o for sentence in sentences for o in _outside_comparisons(sentence, keys)))
        if len(subjects) == 1:
            return subjects[0], f"a short answer about {subjects[0]!r}, the others only compared with it"
    if len(named) == 1:
        return None, (f"mentions {named[0]!r} but never says it is the {'/'.join(sorted(asked)) or 'answer'} "
                      f"({words} words: a pasted page, not an answer)")
    return None, f"names {len(named)} options ({', '.join(named)}) without committing to one"


def _matches_option(reference: str, option: str) -> bool:
    ref, opt = set(_tokens(reference)) - _GENERIC, set(_tokens(option)) - _GENERIC
    return bool(ref) and (ref <= opt or opt <= ref)


# --- numbers -------------------------------------------------------------------------------------------------------

_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "bn": 1e9, "m": 1e6, "k": 1e3}
_NUMBER = re.compile(
    r"(?<![\w.])(?P<sign>[-−–+]?)(?P<num>\d{1,3}(?:[,\u00a0\u202f\u2009]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?!\.\d)(?:\s*(?P<scale>thousand|million|billion|trillion|bn)\b)?", re.I)
_WORD_NUMBERS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
_WORD_NUMBERS.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
                      "ninety": 90, "hundred": 100})


class Number(BaseModel):
    value: float
    step: float         # the precision it was written at: 1 for "3147", 0.01 for "2.49", 1e4 for "5.78 million"
    text: str


def numbers_in(text: str) -> list[Number]:
    """Every number written in text, read as a reader reads it: "2,292" is 2292, "-3.5" is -3.5, "5.78 million" is
    5,780,000, "twelve" is 12. A hyphen between digits is a range ("1809-1882"), not a sign."""
    found = []
    for match in _NUMBER.finditer(text):
        digits = re.sub(r"[,\u00a0\u202f\u2009]", "", match["num"])
        sign = -1.0 if match["sign"] in "-−–" and match["sign"] and not _after_word(text, match.start()) else 1.0
        decimals = len(digits.split(".", 1)[1]) if "." in digits else 0
        scale = _SCALES.get((match["scale"] or "").lower(), 1.0)
        value = sign * float(digits) * scale
        found.append(Number(value=value, step=10.0 ** -decimals * scale, text=match[0].strip()))
    for match in re.finditer(r"\b(" + "|".join(_WORD_NUMBERS) + r")\b", text, re.I):
        found.append(Number(value=float(_WORD_NUMBERS[match[1].lower()]), step=1.0, text=match[0]))
    return found


# "of the five", "the other three": how many things the question names, not an answer (held-out omh-522's "15 years
# younger than the next-youngest of the five" was credited with the 5 asked)
_COUNT_PHRASE = re.compile(r"\b(?:the|these|those|other)\s+(" + "|".join(_WORD_NUMBERS) + r")\b", re.I)


def _without_the_questions_counts(prediction: str, question: str) -> str:
    counts = {found[1].lower() for found in _COUNT_PHRASE.finditer(question)}
    return _COUNT_PHRASE.sub(lambda found: "the things" if found[1].lower() in counts else found[0], prediction)


_COUNTED_IN = re.compile(r"\bhow many (thousand|million|billion)\b|\bin (thousand|million|billion)s\b", re.I)


def in_the_questions_scale(said: list[Number], question: str) -> list[Number]:
    """The numbers said, and, when the question counts in a scale ("how many million native speakers"), each large
    one in that scale too: "1,028 million" answers 1028 there, as a reader takes it."""
    counted = _COUNTED_IN.search(question)
    if not counted:
        return said
    scale = (counted.group(1) or counted.group(2)).lower()
    factor = _SCALES[scale]
    # "0.69 million" answers "by how many million" with 0.69, small as it is (held-out omh-234's 0.69 million was
    # read as 690,000 only)
    return said + [Number(value=n.value / factor, step=n.step / factor, text=n.text) for n in said
                   if abs(n.value) >= factor or scale in n.text.lower()]


def _after_word(text: str, index: int) -> bool:
    """A "-" right after a letter or digit joins words or makes a range; it is not a minus sign."""
    return index > 0 and (text[index - 1].isalnum())


def parse_reference_number(reference: Any) -> Number | None:
    """A reference that is a number ("3147", 2.49, "5.78 million", "-11,034"), or None if it is a name."""
    if isinstance(reference, bool):
        return None
    if isinstance(reference, (int, float)):
        value = float(reference)
        decimals = 0 if value.is_integer() else len(repr(reference).split(".", 1)[1])
        return Number(value=value, step=10.0 ** -decimals, text=str(reference))
    text = str(reference).strip()
    if re.fullmatch(r"\d+0s", text):  # a decade ("20s", "1990s") is said as one, not as its first year: held-out
        return None  # omh-472's "the early 20th century" was read as "in his 20s"
    read = numbers_in(text)
    if len(read) != 1 or not re.fullmatch(r"[-−–+]?[\d.,\s\u00a0\u202f]+(?:thousand|million|billion|trillion)?"
                                          r"(?:\s*[a-zA-Z%°²]{0,4})?", text, re.I):
        return None
    return read[0]


def parse_tolerance(tolerance: Any) -> tuple[float, float]:
    """(absolute, relative) from a question's tolerance: a number is absolute, "2%" or {"relative": 0.02} is
    relative, {"absolute": 0.5} absolute. ValueError for anything else."""
    if tolerance is None:
        return 0.0, 0.0
    if isinstance(tolerance, bool):
        raise ValueError("tolerance must be a number, a percentage like \"1%\", or {\"absolute\"|\"relative\": x}")
    if isinstance(tolerance, (int, float)) and tolerance >= 0:
        return float(tolerance), 0.0
    if isinstance(tolerance, str) and re.fullmatch(r"\s*\d+(?:\.\d+)?\s*%\s*", tolerance):
        return 0.0, float(tolerance.strip().rstrip("%")) / 100
    if isinstance(tolerance, dict) and set(tolerance) <= {"absolute", "relative"} and tolerance and \
            all(isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in tolerance.values()):
        return float(tolerance.get("absolute", 0.0)), float(tolerance.get("relative", 0.0))
    raise ValueError("tolerance must be a number, a percentage like \"1%\", or {\"absolute\"|\"relative\": x}")


def _number_matches(reference: Number, said: Number, tolerance: tuple[float, float]) -> bool:
    absolute, relative = tolerance
    allowed = max(absolute, relative * abs(reference.value), 1e-9 * max(abs(reference.value), 1.0))
    if abs(said.value - reference.value) <= allowed:
        return True
    # an answer more precise than the reference counts when it rounds to it: 2.4878 -> "2.49", 169,753,000 ->
    # "170 million"; an answer less precise than the reference does not ("3,100" is not "3,147")
    if said.step <= reference.step and reference.step > 0:
        rounded = math.floor(said.value / reference.step + 0.5) * reference.step
        return abs(rounded - reference.value) <= max(allowed, reference.step * 1e-6)
    return False


# --- yes / no ------------------------------------------------------------------------------------------------------

_YES = re.compile(r"^\W*(?:yes|yeah|yep|correct|true|indeed)\b|\bthe answer is:?\s*\W?yes\b", re.I)
_NO = re.compile(r"^\W*(?:no|nope|false|incorrect)\b(?!\s+(?:one|longer|more|less|idea|answer|information))|"
                 r"\bthe answer is:?\s*\W?no\b", re.I)


def stance(prediction: str) -> str | None:
    """"yes", "no" or None: the answer's stance, from its first word or an explicit "the answer is yes". "I do
    not know" takes no stance."""
    yes, no = bool(_YES.search(prediction)), bool(_NO.search(prediction))
    if yes == no:
        return None
    return "yes" if yes else "no"


# --- parts and alternatives ----------------------------------------------------------------------------------------

def reference_parts(answer: Any) -> list[Any]:
    """The parts an alternative needs: a list's items, an object's keys then values, else the answer itself."""
    if isinstance(answer, dict):
        return [p for part in [*answer.keys(), *answer.values()] for p in reference_parts(part)]
    if isinstance(answer, (list, tuple)):
        return [p for part in answer for p in reference_parts(part)]
    if isinstance(answer, str) and not answer.strip():
        return []
    return [answer]


def _is_yes_no(part: Any) -> bool:
    return isinstance(part, bool) or (isinstance(part, str) and part.strip().lower() in ("yes", "no"))


def _find_part(part: Any, prediction: str, said: list[Number], tolerance: tuple[float, float]) -> str | None:
    """Where the prediction states the part, or None."""
    if _is_yes_no(part):
        want = ("yes" if part else "no") if isinstance(part, bool) else part.strip().lower()
        got = stance(prediction)
        return f"stance {got!r}" if got == want else None
    number = parse_reference_number(part)
    if number is not None:
        for candidate in said:
            if _number_matches(number, candidate, tolerance):
                return f"{number.text} as {candidate.text!r}"
        return None
    core = normalise(part).strip()
    if not core:
        return None
    # a thing named only as one without a value is not named as an answer: "No value was found for Iraq." beside
    # "Those within the bounds are Thailand and Vietnam" does not list Iraq among them
    answered = _WITHOUT_VALUE.sub(" ", prediction)
    if re.search(rf"(?<!\w){re.escape(core)}(?!\w)", normalise(answered)):
        return f"{str(part)!r}"
    return None


def _token_f1(prediction: str, reference: str) -> float:
    said, want = normalise(prediction).split(), normalise(reference).split()
    said = [w for w in said if w not in ("a", "an", "the")]
    want = [w for w in want if w not in ("a", "an", "the")]
    if not said or not want:
        return 0.0
    common = sum(min(said.count(w), want.count(w)) for w in set(want))
    if not common:
        return 0.0
    precision, recall = common / len(said), common / len(want)
    return 2 * precision * recall / (precision + recall)


def token_f1(prediction: str | None, answers: Iterable[Any]) -> float:
    """SQuAD-style token F1 against the best alternative (its parts joined)."""
    if not prediction:
        return 0.0
    return max((_token_f1(prediction, " ".join(str(p) for p in reference_parts(a))) for a in answers), default=0.0)


def judge_answer(question: str, answers: Sequence[Any], prediction: str | None, *,
                 options: Sequence[str] | None = None, tolerance: Any = None, evidence: Sequence[str] = ()) -> Verdict:
    """The verdict on one prediction. options=None reads them from the question; [] means the question lists
    none. Without options, a question asking which of the things looked up (evidence) takes those as options
    (`picked_among`)."""
    f1 = token_f1(prediction, answers)
    if not prediction or not prediction.strip():
        return Verdict(correct=False, reason="no answer", f1=0.0)
    tol = parse_tolerance(tolerance)
    options = list(derive_options(question) if options is None else options)
    looked_up = [] if options else picked_among(question, answers, evidence)
    options = options or looked_up
    references = [part for answer in answers for part in reference_parts(answer)]
    right_options = [o for o in options if any(isinstance(r, str) and _matches_option(r, o) for r in references)]
    pick, how = (None, "")
    if looked_up:
        pick, how = next(((option, said) for option in right_options if (said := ranks(prediction, option, options))),
                         (None, ""))
        if pick is None:
            return Verdict(correct=False, f1=f1, reason=f"never says which of the things looked up "
                           f"({', '.join(options)}) is the one asked for")
    elif right_options:
        pick, how = choose(prediction, options, question)
        named_none = how.startswith("names none")
        if pick is None and not named_none:
            return Verdict(correct=False, reason=how, f1=f1)
        if pick is not None and pick not in right_options:
            return Verdict(correct=False, pick=pick, f1=f1,
                           reason=f"picks the wrong option: {how}; the answer is {' or '.join(right_options)}")
    said = in_the_questions_scale(numbers_in(_without_the_questions_counts(prediction, question)), question)
    best_missing: list[str] | None = None
    for answer in answers:
        found, missing = [], []
        for part in reference_parts(answer):
            if pick is not None and isinstance(part, str) and any(_matches_option(part, o) for o in options):
                if _matches_option(part, pick):
                    found.append(f"the pick {pick!r} ({how})")
                    continue
                missing.append(f"{part!r} (the answer picks {pick!r})")
                continue
            where = _find_part(part, prediction, said, tol)
            (found.append(where) if where else missing.append(repr(part) if not isinstance(part, str)
                                                             else f"{part!r}"))
        if found and not missing:
            return Verdict(correct=True, pick=pick, f1=f1, reason="found " + "; ".join(found))
        if best_missing is None or len(missing) < len(best_missing):
            best_missing = missing
    return Verdict(correct=False, pick=pick, f1=f1, reason="missing " + ", ".join(best_missing or ["every part"]))
