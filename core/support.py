"""Which observations support an answer: the names and numbers it states, found in what the tools returned.

Used by the final-answer checks (agent/) and by memory, which keeps an answer for later runs with its sources, or
marks it unverified when nothing supported it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from core.schema import Step, ToolStatus

# 1,093 / 1093 / 3.14 / -5; single digits are left out: "2 parts", "the 3 of them" are rarely claims.
_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?(?![\w])")
# a joining word is whole: "le" is no part of "a Congolese leader", nor "the" of "Media theorist"
_NAME = re.compile(r"\b[A-Z][\w'’-]+"
                   r"(?:[ \t]+(?:(?:of|de|da|van|von|the|la|le|du|del)(?![\w'’-])|[A-Z][\w'’-]+))*")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{3,}")
_STOP = frozenset("""what which when where who whom whose why how many much long does did were was have has with
from that this these those their there than then into about after before between during among also each
other some such only same more most less least very give tell find name list is are the and for""".split())


def numbers(text: str, single_digits: bool = False) -> list[str]:
    """The numbers of a text, normalised (1,093 -> 1093; 3.50 -> 3.5); a lone digit only when asked for (it is
    mostly a count in the wording, "the 2 largest", but an answer may be one: oxygen's atomic number is 8)."""
    found = []
    for raw in _NUMBER.findall(text):
        value = raw.replace(",", "").lstrip("-").rstrip(".")
        whole, _, fraction = value.partition(".")
        whole, fraction = whole.lstrip("0") or "0", fraction.rstrip("0")
        value = f"{whole}.{fraction}" if fraction else whole
        if "." in value or len(value) > 1 or single_digits:
            found.append(value)
    return found


def _backed(number: str, known: set[str], known_decimals: list[float]) -> bool:
    if number in known:
        return True
    if "." in number:  # a rounded form of an observed number: 0.33 from 0.3333
        places = len(number.split(".")[1])
        return any(round(value, places) == float(number) for value in known_decimals)
    return False


_READ = (ToolStatus.found, ToolStatus.listed)


def backing_text(step: Step) -> str:
    """What a step's observation can back: all of it, except where the tool found nothing and its message repeats
    the step's own input, numbers and names (measured: '"... is 150 pounds" does not appear in the page' backed a
    helper's 150)."""
    if step.findings is None or step.findings.status in _READ:
        return step.observation
    echoed = set(numbers(step.action_input))
    text = _NUMBER.sub(lambda m: "" if (numbers(m.group(0)) or [""])[0] in echoed else m.group(0), step.observation)
    # and its names: '"The Don River empties into the Black Sea." does not appear in the page "Don (river)"' backed
    # a helper's Black Sea (held-out omh-442; the page says the Sea of Azov)
    for name in names(step.action_input):
        text = re.sub(re.escape(name), "", text, flags=re.IGNORECASE)
    return text


def ungrounded_numbers(answer: str, sources: Iterable[str]) -> list[str]:
    """The numbers of `answer` found in none of `sources`, in order, without repeats."""
    known: set[str] = set()
    for source in sources:
        known.update(numbers(source))
    decimals = [float(n) for n in known if "." in n]
    missing = [n for n in numbers(answer) if not _backed(n, known, decimals)]
    return list(dict.fromkeys(missing))


# plurals no suffix rule undoes: "lice" is the Louse page (held-out omh-149)
IRREGULAR_PLURALS = {"lice": "louse", "mice": "mouse", "geese": "goose", "oxen": "ox", "teeth": "tooth",
                     "feet": "foot", "people": "person", "children": "child", "women": "woman", "men": "man",
                     "dice": "die", "bacteria": "bacterium", "phenomena": "phenomenon", "criteria": "criterion"}


def singular_forms(word: str) -> set[str]:
    """The lower-case word and what it may be the plural of, by the suffix rules and the irregular plurals:
    mantises: {mantises, mantise, mantis}, flies: {..., fly}, lice: {lice, louse}. Two words are one noun when
    their forms meet (no rule alone tells "mantises" from "houses")."""
    word = word.lower()
    forms = {word}
    if word in IRREGULAR_PLURALS:
        forms.add(IRREGULAR_PLURALS[word])
    if word.endswith("s") and len(word) > 3:
        forms.add(word[:-1])
        if word.endswith("es"):
            forms.add(word[:-2])
        if word.endswith("ies"):
            forms.add(word[:-3] + "y")
    return forms


def key_words(text: str) -> set[str]:
    """The content words of a text, lower-cased, with a crude plural and possessive fold (Hadrian's: hadrian)."""
    return {word.lower().rstrip("s").rstrip("'") for word in _WORD.findall(text) if word.lower() not in _STOP}


def names(text: str) -> list[str]:
    """Capitalised name phrases, less sentence-initial words that merely start a sentence."""
    found = []
    for match in _NAME.finditer(text):
        phrase = match.group(0).rstrip(".")
        start = match.start()
        sentence_start = start == 0 or text[:start].rstrip().endswith((".", "!", "?", ":"))
        if sentence_start and " " not in phrase:
            continue  # "The", "It", "Yes" at a sentence's start
        if phrase.lower() not in _STOP:
            found.append(phrase)
    return list(dict.fromkeys(found))


def relevant_observations(task: str, steps: Sequence[Step]) -> list[Step]:
    """Tool steps whose observation is about the question: it holds one of the question's key words."""
    question_words = key_words(task)
    return [step for step in steps if not step.is_final and step.observation
            and (not question_words or question_words & key_words(step.observation))]


def unsupported_names(answer: str, task: str, steps: Sequence[Step]) -> list[str]:
    """Names the answer gives that neither the question nor an observation about the question mentions."""
    relevant = [backing_text(step).lower() for step in relevant_observations(task, steps)]
    return [name for name in names(answer) if name.lower() not in task.lower()
            and not any(name.lower() in observation for observation in relevant)]


@dataclass
class Support:
    """An answer's claims (names and numbers) and the steps whose observations state them."""
    sources: list[Step] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        return not self.unsupported and bool(self.sources)


def support(answer: str, task: str, steps: Sequence[Step]) -> Support:
    """Each name must appear in an observation about the question, each number in an observation (or the
    question); the steps that state them are the answer's sources."""
    observed = [step for step in steps if not step.is_final and step.observation]
    relevant = relevant_observations(task, steps)
    unsupported = unsupported_names(answer, task, steps) + ungrounded_numbers(
        answer, [task, *(backing_text(step) for step in observed)])
    claims = [name.lower() for name in names(answer) if name.lower() not in task.lower()]
    claimed_numbers = set(numbers(answer)) - set(numbers(task))
    sources = [step for step in observed
               if (step in relevant and any(claim in step.observation.lower() for claim in claims))
               or claimed_numbers & set(numbers(step.observation))]
    return Support(sources=sources, unsupported=unsupported)


# a year as pages write one (a plain number of three or four digits: 537, 1994); the ledger and the sources read it
YEAR_DIGITS = r"\d{3,4}"


def is_year(number: str) -> bool:
    """Whether a plain number reads as a year: "1994", "537"; not "50.46" or "12"."""
    return bool(re.fullmatch(YEAR_DIGITS, number))


_YEAR_RANGE = re.compile(rf"\b({YEAR_DIGITS})\s*(?:–|—|-|to|until)\s*({YEAR_DIGITS})\b"
                         rf"|\bbetween ({YEAR_DIGITS}) and ({YEAR_DIGITS})\b")


def year_range(text: str) -> tuple[str, str] | None:
    """The first range of years the text states ("1955–1958", "from 117 to 138", "between 1845 and 1852"), as
    (first, last), when it runs forward."""
    found = _YEAR_RANGE.search(text)
    first, last = [group for group in (found.groups() if found else ()) if group] or (None, None)
    return (first, last) if first and int(first) <= int(last) else None


def year_ranges(text: str) -> list[tuple[str, str]]:
    """Every range of years the text states that runs forward, in order: "Shia Imam (632–661) and Rashidun caliph
    (656–661)" states two."""
    return [ranged for found in _YEAR_RANGE.finditer(text) if (ranged := year_range(found.group(0)))]
