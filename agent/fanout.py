"""A question that lists its things ("Of these twelve mountains: Mount Everest, K2, ... and Mount Tai, which ...")
is asked of every one of them, by code: the model writes a sub-question for one or two of the things, and each of
its forms is asked of them all.

Measured on the embedded 1.5B model before this: its split of a question listing eleven countries named two of
them, and the lead answered from those two; the split's grammar allows at most six sub-questions, and long-horizon
questions list ten to twenty-five things. A list is read from the question's own words, not the model's.
"""
from __future__ import annotations

import re

MAX_FANOUT = 48  # sub-questions at most (a form per attribute times the things listed): every loop has a bound

_CAPWORD = r"(?![a-z])[^\W_][\w'’\-]*\.?"  # a capitalised word (or a number: K2), "J." too
_CONNECTOR = r"(?:of|de|da|del|la|le|van|von|y|du|des|di|the)"  # inside a name: Sea of Marmara, Vincent van Gogh
_ITEM = rf"(?:the\s+)?{_CAPWORD}(?:\s+(?:{_CONNECTOR}\s+)?{_CAPWORD}){{0,4}}"
_LIST = re.compile(rf"{_ITEM}(?:,\s+{_ITEM})+,?\s+(?:and|or)\s+{_ITEM}")
_SEPARATOR = re.compile(r",\s+(?:and\s+|or\s+)?|,?\s+(?:and|or)\s+")
_SENTENCE_END = re.compile(r"\.\s+(?=\w{3,})")  # "Zagros Mountains. Which ..." (not "J. M. W. Turner")
_OPENERS = {"Of", "Which", "What", "Among", "In", "Between", "How", "Is", "Are", "Did", "Do", "Does", "Was", "Were",
            "Take", "From"}


def listed_names(task: str) -> list[str]:
    """The things the question lists ("A, B, C and D"), three or more, in its order; [] when it lists none.
    The longest list wins."""
    best: list[str] = []
    for match in _LIST.finditer(task):
        parts = _SEPARATOR.split(match.group(0))
        parts[-1] = _SENTENCE_END.split(parts[-1])[0].rstrip(".")
        found = []
        for number, part in enumerate(parts):
            words = part.split()
            while words and (words[0].islower() or (number == 0 and words[0] in _OPENERS)):
                words.pop(0)  # "Of the Atlas Mountains, ..." lists the Atlas Mountains; "Which of Kyiv, ..." Kyiv
            found.append(" ".join(words))
        if all(found) and len(found) > len(best):
            best = found
    return list(dict.fromkeys(best))


def forms(questions: list[str], names: list[str]) -> tuple[list[str], list[str]]:
    """(forms, others): each question naming exactly one listed thing as a form ("How long is the {}?"), without
    repeats; questions naming none as they are. A question naming two or more is the whole question again (a helper
    cannot answer it from one page): dropped."""
    found, others = [], []
    for question in questions:
        named = [name for name in names if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", question, re.IGNORECASE)]
        named = [name for name in named if not any(name != other and name.lower() in other.lower()
                                                    for other in named)]  # Guinea within Guinea-Bissau
        if len(named) == 1:
            escaped = question.replace("{", "{{").replace("}", "}}")
            form = re.sub(rf"(?<!\w){re.escape(named[0])}(?!\w)", "{}", escaped, count=1, flags=re.IGNORECASE)
            if form not in found:
                found.append(form)
        elif not named:
            others.append(question)
    return found, others


def fanned_out(questions: list[str], task: str) -> tuple[list[str], int] | None:
    """(sub-questions, forms): each form asked of every thing the task lists, each thing's in turn (at most
    MAX_FANOUT), then the questions naming none; None when the task lists nothing or no question names one thing
    of the list (the split stands as it is)."""
    names = listed_names(task)
    if not names:
        return None
    found, others = forms(questions, names)
    if not found:
        return None
    asked = [form.format(name) for name in names for form in found]
    return list(dict.fromkeys([*asked, *others]))[:MAX_FANOUT], len(found)
