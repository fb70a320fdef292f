"""A question that lists its things ("Of these twelve mountains: Mount Everest, K2, ... and Mount Tai, which ...")
is asked of every one of them, by code: the model writes a sub-question for one or two of the things, and each of
its forms is asked of them all. Code then computes what the question wants over the values the helpers found, and
writes the answer's sentences. What the question lists and wants is read from its words (agent/reading.py).

Measured on the embedded 1.5B model before this: its split of a question listing eleven countries named two of
them, and the lead answered from those two; the split's grammar allows at most six sub-questions, and long-horizon
questions list ten to twenty-five things.
"""
from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal
from typing import NamedTuple

from agent.reading import (Computation, aside_of, aside_text, asking_text, listed_names, says, set_against,
                           without_asides)
from core.schema import FINAL_ACTION, Fact, Step
from core.support import names as name_phrases, numbers, year_ranges
from core.units import (asked_dimension, asked_units, duration_unit, first_of, in_duration, in_mass, is_measure,
                        mass_unit, quantities, range_ends, range_width, scaled, unit_kind)
from memory.ledger import ASKS_WHEN

RESEARCH = "research"  # the lead's tool that hands one sub-question to a helper (agent/research.py)
MAX_FANOUT = 48  # sub-questions at most (a form per attribute times the things listed): every loop has a bound


# words many names share, which say nothing of which thing a question is about
# ("the Himalayan Range" named no mountain range of the question's by its "range": held-out omh-235)
_KIND_WORDS = {"river", "lake", "mount", "mountain", "mountains", "range", "ranges", "island", "islands", "city", "sea",
               "ocean", "desert", "empire", "kingdom", "republic", "university", "saint", "king", "queen"}


_QUALIFIED = re.compile(r"\{\},\s+[A-Z][\w.’'-]*(?:\s+[A-Z][\w.’'-]*){0,2}\?$")


def forms(questions: list[str], names: list[str], task: str = "") -> tuple[list[str], list[str]]:
    """(forms, others): each question naming exactly one listed thing as a form ("How long is the {}?"), without
    repeats; questions naming none as they are. A question naming two or more is the whole question again (a helper
    cannot answer it from one page): dropped. Several forms asking one fact in other words are one (`_one_origin`,
    `_one_measure`, `_one_count`)."""
    # how the question describes one thing ("for the city of Venice", "the whole of Polynesia"): no form of its own
    # (held-out omh-248 asked "How many islands does the city of {} have?" of all five, and two forms left the lead
    # alone)
    described = {found.group(1).lower() for name in names for found in re.finditer(
        rf"\b(the\s+(?:[a-z]+\s+){{1,2}}of)\s+{re.escape(name)}(?!\w)", task, re.IGNORECASE)}
    found, others = [], []
    for question in questions:
        if _ABOUT_THE_SOURCE.search(question):  # "What is the introduction of the Wikipedia page on Goats?"
            continue
        # "How many species does the Lepidoptera (butterflies and moths) contain?" asks the list's one form: the
        # aside, copied from the question, made three forms of one (held-out lh-50 asked 42 helpers, computed none)
        question = without_asides(question)
        named = [name for name in names if says(question, name)]
        named = [name for name in named if not any(name != other and name.lower() in other.lower()
                                                    for other in named)]  # Guinea within Guinea-Bissau
        if len(named) == 1:
            escaped = question.replace("{", "{{").replace("}", "}}")
            # every time it names the thing: "... for Bowling according to Wikipedia'sBowling article?" asked each
            # sport about Bowling's page (held-out omh-317)
            form = re.sub(rf"(?:(?<!\w)|(?<=['’]s)){re.escape(named[0])}(?!\w)", "{}", escaped, flags=re.IGNORECASE)
            # "What is the population of {}, Ohio?": the thing's own state is no part of the form (held-out
            # omh-418's three forms, one a state, asked each city as in Ohio, Pennsylvania and Missouri)
            form = _QUALIFIED.sub("{}?", form)
            # "the area of the Czech Republic" and "the area of Austria" are one form, the first as written
            # (measured: kept apart, each country was asked twice, and two forms left nothing computed)
            keys = [_form_key(other, described) for other in found]
            key = _form_key(form, described)
            if key not in keys:
                found.append(form)
            elif _is_described(found[keys.index(key)], described) and not _is_described(form, described):
                found[keys.index(key)] = form  # one thing's description is not asked of them all
        elif not named:
            others.append(question)
    # forms copied from two things' own descriptions ("What is the lowest natural point in Australia at {}?" and
    # "What is the surface of the subglacial {} in Antarctica?", held-out omh-263) ask no other thing anything: the
    # lead asked all four things both, and two forms left it alone
    # nor one copying three words of one thing's description ("What is the maximum length of the giant {}
    # Dendrocalamus sinicus?", held-out omh-277, asked of algae and roses)
    copied = {form: _copied_description(form, names, task) for form in found}
    if len({name for name, *_ in copied.values() if name}) >= 2:
        found = [form for form in found if not copied[form][0]]
    found = [form for form in found if not (copied[form][1] >= 3 and copied[form][2])]
    for one_fact in (_not_cut_short, _one_origin, _one_measure, _one_count):
        found = one_fact(found, task) if len(found) > 1 else found
    return found, others


# Several forms that ask one fact in other words are one: left as they were, each thing was asked each form, and
# several forms left nothing computed. Each rule takes the forms and the task and gives the forms kept.

def _not_cut_short(found: list[str], task: str) -> list[str]:
    """A form that another one opens with, ending mid-word, is that form cut short by the split's bound on a
    question's length ("... listed as a W?" beside "... listed as a World Heritage Site?": held-out omh-394 asked each
    thing both, and two forms left the lead alone); "write?" beside "write or edit?" is another form."""
    def cut(form: str, other: str) -> bool:  # it ends mid-word of the other: "a W" of "a World"
        opening = form.rstrip("?").rstrip()
        return other != form and other.startswith(opening) and other[len(opening):][:1].isalnum()
    return [form for form in found if not any(cut(form, other) for other in found)]


def _one_origin(found: list[str], task: str) -> list[str]:
    """"When was {} developed?", "... first released?", "... invented?": one date (held-out omh-154 asked each of
    five things four times); the form whose word the question uses, else the first. Several forms' words in the
    question are each one thing's ("the play's first staging and the year the decree was issued", held-out
    omh-253): the form asking the date itself."""
    if not all(map(_ORIGIN.match, found)):
        return found
    worded = [form for form in found if (word := _ORIGIN.match(form).group(1)) and _uses(task, word)]
    plain = [form for form in found if not _ORIGIN.match(form).group(1)]
    return worded[:1] if len(worded) == 1 else plain[:1] or found[:1]


def _one_measure(found: list[str], task: str) -> list[str]:
    """"... that {} claims?" and "... that {}'s total land area is?": one measure, from the question's note on which
    figure two of the things use (held-out omh-210 asked all five twice); "how long" beside "how wide" are two."""
    same = asked_units(found[0]) and len({(asked_units(form), asked_dimension(form)) for form in found}) == 1
    return found[:1] if same else found


def _one_count(found: list[str], task: str) -> list[str]:
    """"How many books did {} write or edit?", "... write and treatises?", "... write?": one count in the words of
    each thing's note (held-out omh-301 asked all five three times); the plainest, the shortest."""
    counted = {found_count.group(1).lower() for form in found if (found_count := _HOW_MANY.match(form))}
    if not all(map(_HOW_MANY.match, found)) or any(re.search(r"\d", form) for form in found):
        return found
    if len(counted) == 1:
        return [min(found, key=len)]
    # counts in two nouns ("How many signs ...", "How many characters ..."), where the question says which it
    # counts ("Using the character count each Wikipedia intro states"): that one (held-out omh-336 asked all four
    # systems both, and two forms left the lead alone, 400 s)
    said = {(found.group(1) or found.group(2)).lower() for found in _COUNTED.finditer(task)}
    named = [form for form in found if _HOW_MANY.match(form).group(1).lower().removesuffix("s") in said]
    return named if len(named) == 1 else found


_HOW_MANY = re.compile(r"^how many (\w+)\b", re.IGNORECASE)
# the noun a question says it counts: "the character count", "the number of species" (its singular)
_COUNTED = re.compile(r"\bthe (\w+?)s? counts?\b|\bthe number of (\w+?)s?\b", re.IGNORECASE)


_PLAIN_WORDS = {"what", "when", "which", "many", "much", "does", "have", "from", "with", "that", "this", "there",
                "their", "must", "were", "been", "into"}


def _copied_description(form: str, names: list[str], task: str) -> tuple[str, int, int]:
    """(the listed thing whose own description in the task the form copies around its name, the content words it
    copies, those after the name), two at least: "... of the subglacial {} in Antarctica?" of "the surface of the
    subglacial Lake Vostok in Antarctica"; ("", 0, 0) when it copies none ("What is the population of {}?" copies
    one word of "the population of Oslo"). Words only before the name may be the question's own: "How many species
    does Wikipedia count for {}?"."""
    before, _, after = form.partition("{}")
    # "{}'s first integrated circuit at Texas Instruments" copies "Jack Kilby's first integrated circuit ..." (held-
    # out omh-288 asked all five milestones three forms each, and three forms left the lead alone)
    owned = re.match(r"['’]s?(?!\w)", after)
    after = after[owned.end():] if owned else after
    before_words, after_words = re.findall(r"[\w'’–-]+", before)[-5:], re.findall(r"[\w'’–-]+", after)[:4]
    for name in names:
        said = re.escape(name) + (r"['’]s?" if owned else "")
        # the most words either side that the task writes next to this name
        ahead = next((before_words[-k:] for k in range(len(before_words), 0, -1) if re.search(
            rf"(?<!\w){_spaced(before_words[-k:])}\s+{said}(?!\w)", task, re.IGNORECASE)), [])
        behind = next((after_words[:k] for k in range(len(after_words), 0, -1) if re.search(
            rf"(?<!\w){said}\s+{_spaced(after_words[:k])}(?!\w)", task, re.IGNORECASE)), [])
        if _content(ahead) + _content(behind) >= 2:
            return name, _content(ahead) + _content(behind), _content(behind)
    return "", 0, 0


def _content(words: list[str]) -> int:
    return sum(len(word) >= 4 and word.lower() not in _PLAIN_WORDS for word in words)


def _spaced(words: list[str]) -> str:
    return r"\s+".join(map(re.escape, words))


def _uses(task: str, word: str) -> bool:
    """Whether the task uses a form's word in any ending: "staged" in "the play's first staging"."""
    stem = re.sub(r"e?d$", "", word.lower())
    return bool(re.search(rf"\b{re.escape((stem if len(stem) >= 4 else word.lower())[:5])}", task, re.IGNORECASE))


# a question about where the values are written, not about the thing: "When was the introduction of the Wikipedia
# page on Goats?" (held-out omh-237's split, from "how many years ago each Wikipedia intro says that happened",
# asked each thing two such questions, and two forms left the lead to answer alone)
# asked of the page itself; "the greatest depth given in the Wikipedia intro for Vänern" asks the lake's depth
_ABOUT_THE_SOURCE = re.compile(r"^(?:what|when|which|how)\s+(?:\w+\s+)?(?:the\s+)?(?:wikipedia\s+)?"
                               r"(?:intro|introduction|page|article|summary)\b", re.IGNORECASE)


# when a thing came to be, in any of the words for it (a span's two ends are asked by code: `span_forms`)
_ORIGIN = re.compile(r"^(?:when|in what year|what year|in which year)\b.*?\b(developed|created|invented|released|"
                     r"launched|founded|established|formed|introduced|started|made|built|published|written|designed|"
                     r"discovered|debuted|premiered|appeared|came out|completed|finished|opened|inaugurated|"
                     # "first staged", "issued", "composed" (held-out omh-253 asked each relic three times)
                     r"staged|issued|composed|signed|carved|erected|adopted|enacted|proclaimed|performed|"
                     # "first broadcast or premiere" beside "opened" and "introduced" (held-out omh-349)
                     r"broadcast|aired|premiere|"
                     # "first awarded", "founded" and "organised", each one thing's (held-out omh-362 asked all three
                     # of each showcase, and three forms left the lead alone)
                     r"awarded|organi[sz]ed)\b"
                     r"[^{}]*\?$"  # "its completion or opening" asked both (held-out omh-214)
                     # "What is the BC date of {}?": the date itself, asked beside the words for it (omh-253)
                     # (not a span's end: "the death year of {}" beside "the birth year of {}" are two)
                     r"|^what\s+(?:is|was)\s+the\s+(?!(?:[\w-]+\s+){0,2}?(?:birth|death|end|ending|final|last|closing)\b)"
                     r"(?:[\w-]+\s+){0,2}(?:date|year)\s+(?:of|for)\b", re.IGNORECASE)


# a description the question gives one thing is no other form: "How many species does the ladybird family {} have?"
# beside "How many species does the {} have?" (held-out lh-58 asked all sixteen insects both ways), nor whose it is:
# "the North America's {}" beside "the {}" (held-out omh-275 asked three leagues both ways)
_DESCRIBED = re.compile(r"\bthe (?:(?!(?:of|in|on|at|by|for|from|to)\b)[a-z][\w-]* ){1,3}\{\}"
                        r"|\b(?:the )?(?:[A-Z][\w-]* ){0,2}[A-Z][\w-]*['’]s \{\}")


def _undescribed(form: str, described: set[str]) -> str:
    """The form without a description the question gives one thing before its name ("the city of {}": "{}"), with
    or without an article after it ("the discovery of the {}" beside "the discovery of {}": held-out omh-284 kept
    them two forms, and the lead, left alone, looped on `date_diff`)."""
    for phrase in described:
        form = re.sub(rf"\b{re.escape(phrase)}\s+(?:the\s+)?\{{\}}", "{}", form, flags=re.IGNORECASE)
    return form


def _is_described(form: str, described: set[str]) -> bool:
    return bool(_DESCRIBED.search(form)) or _undescribed(form, described) != form


def _form_key(form: str, described: set[str] = frozenset()) -> str:
    """A form as compared with others, without the descriptions of one thing around its name: "How long is the {}
    River?" and "How long is the {}?" are one form (held-out omh-129 asked each river twice, and two forms of one
    fact left the answer to the lead), and so are "... the city of {}" and "... {}" (`_undescribed`)."""
    form = _undescribed(form, described)
    kinds = "|".join(sorted(_KIND_WORDS))
    form = re.sub(rf"\{{\}}\s+(?:{kinds})\b", "{}", form, flags=re.IGNORECASE)
    form = re.sub(rf"\b(?:{kinds})\s+\{{\}}", "{}", form, flags=re.IGNORECASE)
    form = _DESCRIBED.sub("the {}", form)
    form = re.sub(r"\bthe \{\}", "{}", form, flags=re.IGNORECASE)
    # a possessive spelled either way: "the {}' Wikipedia intro" and "the {}'s Wikipedia intro" (held-out omh-285
    # asked each of five clusters and nebulae both ways, and two forms left the lead alone)
    form = re.sub(r"\{\}(?:['’]s?)(?!\w)", "{}'s", form)
    # a thing named in the plural: "in which {} appears" and "in which the {} appear" are one form (held-out
    # omh-229 asked "the plesiosaurs" apart, and two forms left the lead alone)
    form = re.sub(r"\b(?:does|do)\b", "do", re.sub(r"\b(?:is|are)\b", "are", form, flags=re.IGNORECASE),
                  flags=re.IGNORECASE)
    form = re.sub(r"\b(?:was|were)\b", "were", re.sub(r"\b(?:has|have)\b", "have", form, flags=re.IGNORECASE),
                  flags=re.IGNORECASE)
    return re.sub(r"(\{\}\s+[a-z]+?)(?<!s)s\b", r"\1", form)


def fanned_out(questions: list[str], task: str, names: list[str] | None = None) -> tuple[list[str], int] | None:
    """(sub-questions, forms): each form asked of every thing the task lists (`names`, its settled list; code's
    reading when None), each thing's in turn (at most MAX_FANOUT), then the questions naming none; None when the
    task lists nothing or no question names one thing of the list (the split stands as it is)."""
    names = listed_names(task) if names is None else names
    if not names:
        return None
    found, others = forms(questions, names, task)
    if not found:
        return None
    asked = [_filled(_own_place(form, name, names, task), name) for name in names for form in found]
    # nor one about a thing only the scene names (held-out omh-236 asked when Alexander the Great was born, and the
    # question beyond the list left the answer to the lead, who wrote the question out again)
    asking = asking_text(task) or task
    others = [question for question in others if not _from_elsewhere(question, asking)]
    if len(found) == 1:  # "... was James Cameron born?": asked like the list (held-out omh-107 never asked him)
        others += [_filled(found[0], name) for name in set_against(task)
                   if not any(thing_of(question, [name]) for question in others)]
    return list(dict.fromkeys([*asked, *others]))[:MAX_FANOUT], len(found)


def _own_place(form: str, name: str, names: list[str], task: str) -> str:
    """The form with a place that another thing's aside names swapped for the one this thing's aside names: "What
    is the distance from Baghdad to {}?" asked of "Teotihuacan (from Mexico City)" asks from Mexico City (held-out
    omh-299 asked all five sites from Baghdad, and a helper took the page's other distance)."""
    own = name_phrases(aside_text(task, name))
    if len(own) != 1 or re.search(rf"(?<!\w){re.escape(own[0])}(?!\w)", form):
        return form
    for other in names:
        theirs = name_phrases(aside_text(task, other)) if other != name else []
        said = re.compile(rf"(?<!\w){re.escape(theirs[0])}(?!\w)") if len(theirs) == 1 else None
        if said and said.search(form):
            return said.sub(lambda _: own[0], form)
    return form


def _from_elsewhere(question: str, task: str) -> bool:
    """Whether a question is about a thing the task never names: every name it holds is foreign to the task (the
    split copied the research tool's own example, "How long is the Godavari River?", into a question about American
    rivers, held-out omh-120, and the lead then answered alone)."""
    phrases = name_phrases(question)
    def named(phrase: str) -> bool:
        words = [word for word in re.findall(r"[^\W\d_][\w'’-]+", phrase)
                 if word.lower() not in _KIND_WORDS and word.lower() != "the"]
        return any(re.search(rf"(?<!\w){re.escape(word)}", task, re.IGNORECASE) for word in words) or not words
    return bool(phrases) and not any(map(named, phrases))


def _filled(form: str, name: str) -> str:
    """The form asked of one thing, without repeating the word the name ends with: "How long is the {} River?"
    of "Godavari River" asks of "the Godavari River", not "the Godavari River River"."""
    repeated = rf"(?<!{{){{}}(?!}})\s+{re.escape(name.split()[-1])}\b"
    form = re.sub(repeated, "{}", form, count=1, flags=re.IGNORECASE)
    return form.format(*[name] * len(re.findall(r"(?<!\{)\{\}(?!\})", form)))


# computations over each thing's start and end, not over one value apiece
SPANNED = ("reach", "covered", "uncovered", "after_end")


class Computed(NamedTuple):
    """A computation made concrete: the lead's thought, the calculator's input, and the answer's sentence once
    the result is known ({result} in it)."""
    thought: str
    expression: str
    sentence: str



YEAR = "year"  # the unit of values that are calendar years ("When was ... born?"): shown as 1811, not 1,811


def computed(computation: Computation, values: list[tuple[str, str]], unit: str = "") -> Computed | None:
    """One computation over (thing, value) pairs: the things it uses are named in the thought, so the lead need
    not match numbers back to names itself, and in the answer's sentence; None when no value is within bounds.
    A total the question counts in millions is divided by the calculator, and said so."""
    made = _computed(computation, values, unit)
    if not (made and made.expression):
        return made
    if computation.scale and computation.operation not in ("max", "min"):  # a pick's value is scaled as stated
        factor = _FACTORS[computation.scale]
        made = Computed(f"{made.thought} The question counts in {computation.scale}s.",
                        f"({made.expression}) / {factor}",
                        made.sentence.replace("{result}", f"{{result}} {computation.scale}"))
    if computation.digits is not None:  # shown with the decimals asked for (held-out lh-84's 1.804 read "1.8")
        made = made._replace(expression=f"round({made.expression}, {computation.digits})",
                             sentence=made.sentence.replace("{result}", "{rounded}"))
    return made


_FACTORS = {"thousand": "1000", "million": "1000000", "billion": "1000000000"}


def _computed(computation: Computation, values: list[tuple[str, str]], unit: str = "") -> Computed | None:
    other = next((value for name, value in values if computation.other and name == computation.other), None)
    values = [(name, value) for name, value in values if name != computation.other]
    kept = [(name, value) for name, value in values if computation.low <= float(value) <= computation.high]
    if not kept:
        return None
    bounded = (computation.low, computation.high) != (float("-inf"), float("inf"))
    within = f" within the question's bounds ({_listed(name for name, _ in kept)})" if bounded else ""
    ordered = sorted(kept, key=lambda pair: float(pair[1]))  # lowest first; `ranked`: the question's way round
    ranked = sorted(kept, key=lambda pair: float(pair[1]), reverse=computation.highest)
    plain = [value for _, value in kept]
    dated = unit == YEAR
    operation, word = computation.operation, computation.word
    unit = " years" if dated else f" {unit}" if unit else ""
    def stated(value: str) -> str:
        if dated:
            year = int(float(value))
            return f"{-year} BC" if year < 0 else str(year)
        if computation.scale:
            return f"{shown(str(Decimal(value) / Decimal(_FACTORS[computation.scale])))} {computation.scale}{unit}"
        return f"{shown(value)}{unit}"
    if operation in ("max", "min"):
        among = [(name, value) for name, value in kept if not computation.names or name in computation.names]
        best = sorted(among, key=lambda pair: float(pair[1]), reverse=computation.highest)[0]
        plain = [value for _, value in among]
        return Computed(f"The {'highest' if computation.highest else 'lowest'} value the helpers found is "
                        f"{best[0]}'s.", f"{operation}({', '.join(plain)})",
                        f"{best[0]} is the {word or ('highest' if computation.highest else 'lowest')}, "
                        f"{'in' if dated else 'at'} {stated(best[1])}.")
    if operation == "nth" and len(kept) >= computation.count:  # a pick by rank: no arithmetic
        return Computed("", "", f"{ranked[computation.count - 1][0]} is the {word}.")
    if operation == "nearest_named":  # of the others, the one nearest the named one (held-out omh-189)
        if other is None:
            return None
        best, value = min(kept, key=lambda pair: abs(Decimal(pair[1]) - Decimal(other)))
        high, low = sorted([value, other], key=Decimal, reverse=True)
        return Computed(f"Of the others, {best}'s value is the nearest to {computation.other}'s: I take their gap.",
                        f"{high} - {low}", f"{best} ({stated(value)}) is the closest to {computation.other} "
                        f"({stated(other)}): {{result}}{unit.removesuffix(' ago')} apart.")  # a gap is no date
    if operation == "after_named":  # those above the named one's value: "still alive when Disney died" (omh-187)
        if other is None:
            return None
        beyond = [name for name, value in ordered if Decimal(value) != Decimal(other)
                  and (Decimal(value) > Decimal(other)) == computation.highest]
        said = word.replace(computation.other, f"{computation.other} ({stated(other)})")
        return Computed("", "", f"{_listed(beyond) if beyond else 'None of the others'} {said}.")
    if operation == "after_previous" and 2 <= computation.count <= len(kept):  # the gap to the one ranked before
        this, before = ranked[computation.count - 1], ranked[computation.count - 2]
        later, earlier = sorted([this[1], before[1]], key=Decimal, reverse=True)
        return Computed(f"In {'order' if not computation.highest else 'rank'} ({_listed(name for name, _ in ranked)}),"
                        f" {this[0]} is the {word}; I take the gap to {before[0]}, just before it.",
                        f"{later} - {earlier}",
                        f"{this[0]} ({stated(this[1])}) {'comes' if dated else 'is'} {{result}}{unit} "
                        f"{'after' if dated else 'from'} {before[0]} ({stated(before[1])}), the one just before it.")
    if operation in ("pair", "neighbours") and len(kept) >= 2:  # the neighbours in order nearest, or furthest, apart
        low, high = (max if operation == "neighbours" else min)(
            zip(ordered, ordered[1:]), key=lambda two: float(two[1][1]) - float(two[0][1]))
    if operation == "pair" and len(kept) >= 2:
        return Computed(f"Sorted by value, the two nearest each other are {low[0]}'s and {high[0]}'s: I take their "
                        f"gap.", f"{high[1]} - {low[1]}",
                        f"{low[0]} ({stated(low[1])}) and {high[0]} ({stated(high[1])}) are the {word}; they are "
                        f"{{result}}{unit} apart.")
    if operation == "neighbours" and len(kept) >= 2:
        return Computed(f"In order of value ({_listed(name for name, _ in ordered)}), the widest gap between "
                        f"neighbours is between {low[0]}'s and {high[0]}'s: I take it.", f"{high[1]} - {low[1]}",
                        f"In order: {', '.join(f'{name} ({stated(value)})' for name, value in ordered)}. The "
                        f"{word} gap between neighbours is between {low[0]} and {high[0]}: {{result}}{unit}.")
    if operation == "nearest":  # the thing nearest the midpoint of the highest and the lowest, or the mean
        middle = (f"(max({', '.join(plain)}) + min({', '.join(plain)})) / 2" if word == "midpoint"
                  else f"({' + '.join(plain)}) / {len(plain)}")
        point = (max(map(Decimal, plain)) + min(map(Decimal, plain))) / 2 if word == "midpoint" else (
            sum(map(Decimal, plain)) / len(plain))
        name, value = min(kept, key=lambda pair: abs(Decimal(pair[1]) - point))
        return Computed(f"I take the {word} of the values; {name}'s is the nearest to it.", middle,
                        f"{name} ({stated(value)}) is the nearest to the {word}, "
                        f"{'{year}' if dated else f'{{result}}{unit}'}.")  # a midpoint of years is a year
    if operation == "median":
        middle = ordered[(len(ordered) - 1) // 2: len(ordered) // 2 + 1]  # one value, or the two in the middle
        # one middle value goes through the calculator too: its result is what the answer may state
        expression = middle[0][1] if len(middle) == 1 else f"({middle[0][1]} + {middle[1][1]}) / 2"
        return Computed(f"In order of value ({_listed(name for name, _ in ordered)}), the middle is "
                        f"{_listed(name for name, _ in middle)}'s.", expression,
                        f"The median is {{result}}{unit} ({_listed(name for name, _ in middle)}).")
    if operation == "from_pick":
        if other is None:
            return None
        (best, value), name = ranked[0], computation.other
        high, low = sorted([value, other], key=float, reverse=True)
        return Computed(f"{best} is the {word}; I take the gap between its value and {name}'s.", f"{high} - {low}",
                        f"{name} ({stated(other)}) is {{result}}{unit} apart from {best}.")
    if operation == "rest" and len(ranked) >= 2:
        (top, _), rest = ranked[0], ranked[1:]
        others = f"the other {len(rest)} ({_listed(name for name, _ in rest)})"
        return Computed(f"Leaving out {top}, I add {others}.", " + ".join(value for _, value in rest),
                        f"Together {others} come to {{result}}{unit}.")
    if operation == "gaps":  # each other thing's gap to the one named, added up (held-out omh-154, -159)
        # or to the pick: "which came out first, and if you add up how many years after it each of the other four
        # was published" (held-out omh-395)
        picked = _group(computation.parts[0], kept, [])[1] if computation.parts else []
        base = picked[0] if picked else next(((name, value) for name, value in kept if name.lower() == word), None)
        rest = [(name, value) for name, value in kept if base and name != base[0]]
        if base is None or not rest:
            return None
        terms = [f"({max(value, base[1], key=Decimal)} - {min(value, base[1], key=Decimal)})" for _, value in rest]
        return Computed(f"I add up the gaps between {base[0]}'s value and each of the other {len(rest)}'s.",
                        " + ".join(terms), f"The gaps between {base[0]} ({stated(base[1])}) and each of "
                        f"{_listed(f'{name} ({stated(value)})' for name, value in rest)} add up to {{result}}{unit}.")
    if operation in ("gap", "times", "plus"):
        first = _group(computation.parts[0], kept, [])
        second = _group(computation.parts[1], kept, [name for name, _ in first[1]])
        if not first[1] or not second[1]:
            return None
        def total(group: list[tuple[str, str]]) -> str:
            return group[0][1] if len(group) == 1 else f"({' + '.join(value for _, value in group)})"
        def said(description: str, group: list[tuple[str, str]]) -> str:
            # names, not values: a value may be a span code computed, which no observation shows
            return group[0][0] if len(group) == 1 else f"{description}, {_listed(name for name, _ in group)},"
        def opening(description: str, group: list[tuple[str, str]]) -> str:
            text = said(description, group)
            return f"{text[0].upper()}{text[1:]} {'has' if len(group) == 1 else 'have'}"
        if operation == "plus":  # the pick and one thing named beside it, added (held-out omh-295)
            return Computed(f"I add {said(*first).rstrip(',')} and {said(*second).rstrip(',')}.",
                            f"{total(first[1])} + {total(second[1])}",
                            f"{said(*first).rstrip(',')} and {said(*second).rstrip(',')} together come to "
                            f"{{result}}{unit}.")
        if operation == "times":  # the first total over the second, as the question divides them
            return Computed(f"I divide the total of {said(*first).rstrip(',')} by that of "
                            f"{said(*second).rstrip(',')}.", f"{total(first[1])} / {total(second[1])}",
                            f"{opening(*first)} {{result}} times {'that' if len(second[1]) == 1 else 'the total'} of "
                            f"{said(*second)}".rstrip(",") + ".")
        (more, most), (less, least) = sorted([first, second], reverse=True,
                                             key=lambda group: sum(Decimal(value) for _, value in group[1]))
        together = " put together" if len(least) > 1 else ""
        return Computed(f"I take the total of {said(more, most).rstrip(',')} minus that of "
                        f"{said(less, least).rstrip(',')}.", f"{total(most)} - {total(least)}",
                        f"{opening(more, most)} {{result}}{unit} more than {said(less, least)}{together}".rstrip(",")
                        + ".")
    if operation in ("range", "ratio", "product"):
        top, bottom = (ranked[0], ranked[-1]) if computation.highest else (ranked[-1], ranked[0])
        sign, what = {"range": ("-", "difference"), "ratio": ("/", "ratio"), "product": ("*", "product")}[operation]
        said = {"range": f"the difference is {{result}}{unit}", "ratio": "the first is {result} times the second",
                "product": "their product is {result}"}[operation]
        high, low = ("is the latest", "the earliest") if dated else ("has the highest value", "the lowest")
        return Computed(f"Of the values{within}, the highest is {top[0]}'s, the lowest {bottom[0]}'s: I take their "
                        f"{what}.", f"max({', '.join(plain)}) {sign} min({', '.join(plain)})",
                        f"{top[0]} {high} ({stated(top[1])}) and {bottom[0]} {low} ({stated(bottom[1])}); "
                        f"{said}.")
    chosen = ranked[:computation.count] if computation.count else kept
    names = _listed(name for name, _ in chosen)
    if operation == "top":  # a pick of k, no arithmetic: code ranks, the calculator is not called
        return Computed("", "", f"The {computation.count} {word} are {names}.")
    if operation == "within" and word == "how many":  # counted by the calculator, so the answer's count is a result
        return Computed(f"I count those within the question's bounds: {names}.", " + ".join("1" for _ in chosen),
                        f"{{result}} of them are within the question's bounds: {names}.")
    if operation == "within":  # the things within the bounds, no arithmetic either
        return Computed("", "", f"Those within the question's bounds are {names}.")
    which = (f"the {computation.count} {'highest' if computation.highest else 'lowest'} values ({names})"
             if computation.count else f"the values{within}")
    picked = (f"The {computation.count} {word} are {names}" if computation.count
              else f"Those within the question's bounds are {names}" if bounded else "")
    if operation == "mean":  # the mean of calendar years is a year: "1969.36", not "1,969.36 years" (held-out lh-41)
        return Computed(f"I take the mean of {which}.", f"({' + '.join(v for _, v in chosen)}) / {len(chosen)}",
                        # of every thing, said so, with no count the checks would find in no observation: "Their
                        # mean" after "The 3 shortest are ..." read as those three's (held-out lh-92: all fifteen's)
                        f"{picked + '; their mean' if picked else 'The mean'}{' year' if dated else ''}"
                        f"{'' if picked else ' of them all'} is {'{year}' if dated else f'{{result}}{unit}'}.")
    # of every thing, said so: "Together they come to" after "Those within the question's bounds are ..." read as
    # those four's total (held-out lh-99: all twelve's)
    return Computed(f"I add {which}.", " + ".join(value for _, value in chosen),
                    f"{picked + '; together' if picked else 'All of them together come to'} {{result}}{unit}.")


def _group(part: Computation, kept: list[tuple[str, str]], taken: list[str]) -> tuple[str, list[tuple[str, str]]]:
    """One side of a "gap" or "times": (how the answer names it, its (thing, value) pairs). "rest" is every thing
    the other side did not take; a total of no count, those within its bounds."""
    ranked = sorted(kept, key=lambda pair: float(pair[1]), reverse=part.highest)
    if part.operation == "rest":
        group = [(name, value) for name, value in kept if name not in taken]
        return f"the other {len(group)}", group
    if part.operation == "nth":
        return f"the {part.word}", ranked[part.count - 1:part.count]
    if part.operation == "these":  # the things it names one by one
        return "those named", [(name, value) for name, value in kept if name in part.names]
    if part.operation == "named" and part.count == 1:  # one listed thing by its name: Guinea, not Guinea-Bissau
        group = [(name, value) for name, value in kept if name.lower() == part.word]
        return (group[0][0] if group else part.word), group
    if part.operation == "named":
        group = [(name, value) for name, value in kept if part.word in name.lower()]
        return f"the {len(group)} {part.word}s", group
    if part.operation in ("sum", "within") and not part.count:
        group = [(name, value) for name, value in kept if part.low <= float(value) <= part.high]
        return f"the {len(group)} within the question's bounds", group
    group = ranked[:part.count or 1]
    word = part.word or ("highest" if part.highest else "lowest")
    return (f"the {word}" if len(group) == 1 else f"the {len(group)} {word}"), group


def _listed(names) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def shown(number: str, thousands: str = ",") -> str:
    """A plain number as an answer writes it: 1465 -> 1,465; 95.78378 -> 95.78 (a year: no thousands comma)."""
    value = float(number)
    return f"{value:{thousands}.0f}" if value.is_integer() else f"{value:{thousands}.2f}".rstrip("0").rstrip(".")


def answer_of(sentences: list[str], results: list[str]) -> str:
    """The answer: each computation's sentence with its result (one rounded as the question asked, as computed),
    each begun with a capital ("Decree inscribed on the Rosetta Stone is the latest", a thing listed in lower case)."""
    filled = [sentence.replace("{result}", shown(result)).replace("{year}", shown(result, ""))
              .replace("{rounded}", _with_thousands(result)) if result else sentence
              for sentence, result in zip(sentences, results)]
    return " ".join(sentence[:1].upper() + sentence[1:] for sentence in filled)


def _with_thousands(number: str) -> str:
    whole, point, decimals = number.partition(".")
    return f"{int(whole):,}{point}{decimals}" if whole.lstrip("-").isdigit() else number


# ---- the lead's planned computations and answer, from the values its helpers found ------------------------------

# an area as an answer spells it: "1,141,748 km2" or a cut "square" says less
_AREAS = {"km2": "square kilometres", "mi2": "square miles"}
FINAL_THOUGHT = "I answer from the values the helpers established and the computed results."


def asked_value(question: str, steps: list[Step]) -> tuple[Fact | None, str]:
    """(fact, its number as a plain one): the first fact of the helper step that asked this question, when it
    holds a number; (None, "") otherwise."""
    fact = next((fact for step in steps if step.action == RESEARCH and step.action_input == question
                 for fact in step.facts), None)
    plain = numbers(fact.value, single_digits=True) if fact else []
    return (fact, plain[0]) if plain else (None, "")


def fanout_values(questions: list[str], steps: list[Step], names: list[str], of: str = ""
                  ) -> tuple[list[tuple[str, str]], str, str]:
    """((thing, value) pairs, unit, what is left out): the values the helpers found for the listed things (the
    first fact of the step that asked each question). A thing without a value, or with one in another unit than
    most (a glacier's 4,500 m among rivers' kilometres), is left out and named (measured: a helper asked how long
    the Yamuna is answered with its source's height, and max() took it). Asked two questions each (its start and
    end: `span_forms`), a thing's value is its span in years, or its start or end year when a pick is `of` one;
    asked one, `of` "width", the width of the range its sentence gives."""
    found_values, missing, quotes, counted_back = [], [], {}, False
    asked = _asked_per_thing(questions, steps, names)
    for thing, found in asked.items():
        if not all(fact for fact, _ in found):
            missing.append(thing)
        elif len(found) == 2 and of == "per":  # people per square kilometre: the population over the area
            (people_fact, people), (area_fact, area) = found
            people, area = scaled(people, people_fact.unit)[0], scaled(area, area_fact.unit)[0]
            found_values.append((thing, f"{(Decimal(people) / Decimal(area)).quantize(Decimal('0.01'))}", ""))
        elif len(found) == 2:
            (_, start), (_, end) = found
            point = {"start": start, "end": end}.get(of)
            found_values.append((thing, point, "") if point else (thing, str(_span(start, end)), "years"))
        elif of == "width":  # the width of the range its sentence gives ("40–65 kg": 25 kg)
            if width := range_width(found[0][0].quote):
                found_values.append((thing, *scaled(*width)))
            else:
                missing.append(thing)
        elif of in ("top", "bottom") and (ends := range_ends(found[0][0].quote, found[0][0].unit)):
            # the range's top or bottom ("between 45 and 75 °C": 75 at the top); a single value is both
            low, high, unit = ends
            found_values.append((thing, *scaled((max if of == "top" else min)(low, high, key=Decimal), unit)))
        elif _before_common_era(found[0][0]):  # "331 BC" is the year -331
            found_values.append((thing, f"-{found[0][1]}", ""))
            counted_back = True
        else:
            fact, plain = found[0]
            found_values.append((thing, *scaled(plain, fact.unit)))
            quotes[thing] = fact.quote
    # a listed thing no question asked about has no value either (held-out omh-317's answer left netball and squash
    # out unsaid, their questions taken for Bowling's)
    missing += [name for name in names if name not in asked]
    found_values = _in_one_unit(found_values)
    # only measures can disagree: "people" beside "" (or a stray word read as a unit) is the same count
    units = Counter(unit_kind(unit) for _, _, unit in found_values if is_measure(unit))
    usual = units.most_common(1)[0][0] if units else ""
    # the value in the others' unit, when the sentence states it beside: "2,341 mi (3,767 km)" among rivers in
    # miles (held-out omh-120 left the Missouri out, the longest, for its helper's kilometres)
    found_values = [(thing, *_in_unit(quotes[thing], usual, (value, unit)))
                    if is_measure(unit) and unit_kind(unit) != usual and thing in quotes else (thing, value, unit)
                    for thing, value, unit in found_values]
    values = [(thing, value) for thing, value, unit in found_values if not is_measure(unit) or unit_kind(unit) == usual]
    other = [thing for thing, _, unit in found_values if is_measure(unit) and unit_kind(unit) != usual]
    words = Counter(_whole_noun(quotes.get(thing, ""), unit) for thing, _, unit in found_values
                    if unit and not is_measure(unit))  # "people", "residents"
    spelled = (_AREAS.get(usual) or next(unit for _, _, unit in found_values if unit_kind(unit) == usual) if usual
               else words.most_common(1)[0][0] if words else "")
    if of in ("start", "end") or counted_back or all(len(found) == 1 for found in asked.values()) and all(
            map(ASKS_WHEN.match, questions)):
        spelled = YEAR  # a year has no unit: the word after it is not one ("970 Yale", held-out lh-35)
    left_out = (f" No value was found for {', '.join(missing)}." if missing else "") + (
        f" Left out, in another unit than {usual}: {', '.join(other)}." if other else "")
    return values, spelled, left_out


def _whole_noun(quote: str, word: str) -> str:
    """The counted noun a word after the number opens: "member states" of "196 member states" (held-out omh-294
    answered "at 196 member"); the word itself when it is the noun ("500 books and")."""
    found = re.search(rf"\b{re.escape(word)}\s+([a-z]{{3,}}s)\b", quote) if not word.endswith("s") else None
    return f"{word} {found.group(1)}" if found else word


# a year before the common era, counted back: the earliest founding of 331 BC and 204 BC is 331 BC (held-out omh-236
# picked 204 as the lowest)
_BEFORE_COMMON_ERA = re.compile(r"BCE?|B\.C\.(?:E\.)?", re.IGNORECASE)


def _before_common_era(fact: Fact | None) -> bool:
    return bool(fact and _BEFORE_COMMON_ERA.fullmatch(fact.unit.strip()))


def _in_one_unit(found_values: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """Durations in several units of time, each in the commonest of them: half-lives of 22 minutes, 8.1 hours and
    1,600 years (held-out omh-215 ranked 8.1 below 22); masses so too: 500 g beside 5 kg (held-out omh-324)."""
    for kind_of, converted, spelled in ((duration_unit, in_duration, "{}s"), (mass_unit, in_mass, "{}")):
        kinds = Counter(kind_of(unit) for _, _, unit in found_values if kind_of(unit))
        if len(kinds) < 2:
            continue
        usual = kinds.most_common(1)[0][0]
        found_values = [(thing, converted(value, unit, usual), spelled.format(usual)) if kind_of(unit)
                        else (thing, value, unit) for thing, value, unit in found_values]
    return found_values


def _in_unit(quote: str, kind: str, value: tuple[str, str]) -> tuple[str, str]:
    """The quote's first quantity of this unit kind, as (plain number, unit); `value` when it states none."""
    stated = first_of(quantities(quote), [kind])
    return scaled(stated[0].replace(",", ""), stated[1]) if stated else value


def thing_of(question: str, names: list[str]) -> str:
    """The listed thing a sub-question names (Guinea-Bissau, not the Guinea within it); of two, the one it names
    first: "How many people play netball according to Wikipedia's Bowling article?" asks netball's (held-out
    omh-317 took it for Bowling's, so netball had no value); "" if none."""
    lowered = question.lower()
    spans = {name: [(at.start(), at.end()) for at in re.finditer(re.escape(name.lower()), lowered)] for name in names}
    first = {name: start for name, found in spans.items() for start, end in reversed(found)
             if not any(inside <= start and end <= outside and (inside, outside) != (start, end)
                        for other in spans.values() for inside, outside in other)}
    return min(first, key=first.get) if first else ""


def _thing(question: str, names: list[str]) -> str:
    return thing_of(question, names) or question


def _asked_per_thing(questions: list[str], steps: list[Step], names: list[str]
                     ) -> dict[str, list[tuple[Fact | None, str]]]:
    """Each listed thing's asked values (fact, plain number), in the order its questions were asked; a question
    about nothing listed (iodine, beside the halogens listed) is no thing's."""
    per_thing: dict[str, list[tuple[Fact | None, str]]] = {}
    asked = {question: asked_value(question, steps) for question in questions}
    pages = {} if names else _pages_of(asked)
    for question in questions:
        if thing_of(question, names) or not names:
            per_thing.setdefault(pages.get(question) or _thing(question, names), []).append(asked[question])
    return {thing: _one_range(found) for thing, found in per_thing.items()}


def _pages_of(asked: dict[str, tuple[Fact | None, str]]) -> dict[str, str]:
    """Each question's thing named by the page its helper's value came from, where no other question's came from
    the same page: with no list, "Grimms' Fairy Tales" names "How many tales are in the final 1857 edition of
    Grimms' Fairy Tales?" in the answer."""
    pages = {question: fact.page for question, (fact, _) in asked.items() if fact}
    shared = Counter(pages.values())
    return {question: page for question, page in pages.items() if shared[page] == 1}


def _one_range(found: list[tuple[Fact | None, str]]) -> list[tuple[Fact | None, str]]:
    """A span's two ends as one range its page states, when one end's quote gives the range and holds the other
    end's value there too: asked when the Cuban Revolution began, a helper answered the 1953 assault, while the end's
    quote, "1955–1958 sociopolitical change in Cuba", dates it as the question meant (held-out omh-166)."""
    if len(found) != 2 or not any(fact for fact, _ in found):
        return found
    (start_fact, start), (end_fact, end) = found
    for fact in (end_fact, start_fact):
        stated = year_ranges(fact.quote) if fact else []
        # the quote states the two ends as they are, beside another range: "Shia Imam (632–661) and Rashidun caliph
        # (656–661)" for a reign of 656 to 661 (held-out omh-348 took the first range's 632 for Ali's start)
        if (start, end) in stated:
            return found
        # an end no page gave is taken from the other's range too: "Solzhenitsyn was born in Russia", unsourced,
        # beside "(1918–2008)" for his death (held-out omh-178 left him out)
        if stated and (stated[0][1] == end) != (stated[0][0] == start):
            return [(start_fact or fact, stated[0][0]), (end_fact or fact, stated[0][1])]
    return found


def _span(start: str, end: str) -> Decimal:
    """A thing's span in years: its end minus its start (as the suites count a life or a war)."""
    return abs(Decimal(end) - Decimal(start))


def covered(spans: list[tuple[str, str, str]], between: bool = False) -> Computed:
    """The years the (thing, start, end) spans cover, overlapping years counted once: the merged spans' lengths
    added up ("if you count any overlapping years just once, how many years do the four cover", held-out omh-176);
    `between`: the years from the earliest start to the latest end that none covers, the gaps between the merged
    spans ("how many of those years was Kiev not ruled by any of the three", held-out omh-351)."""
    merged: list[list[str]] = []
    for _, start, end in sorted(spans, key=lambda span: Decimal(span[1])):
        if merged and Decimal(start) <= Decimal(merged[-1][1]):
            merged[-1][1] = max(merged[-1][1], end, key=Decimal)
        else:
            merged.append([start, end])
    shown = ", ".join(f"{start}-{end}" for start, end in merged)
    if between:
        gaps = [(end, start) for (_, end), (start, _) in zip(merged, merged[1:])]
        return Computed(f"Counting overlapping years once, the spans cover {shown}: I add up the gaps between them.",
                        " + ".join(f"({start} - {end})" for end, start in gaps) or "0",
                        f"Between {merged[0][0]} and {merged[-1][1]}, {{result}} years are covered by none of them.")
    return Computed(f"Counting overlapping years once, the spans cover {shown}: I add up their lengths.",
                    " + ".join(f"({end} - {start})" for start, end in merged),
                    "Counting overlapping years once, they cover {result} years.")


def _reached(questions: list[str], steps: list[Step], names: list[str], computation: Computation | None = None
             ) -> Computed | None:
    """`reach` over each thing's start and end as its helpers found them; None until every thing has both."""
    pairs = [(thing, _signed(start_fact, start, end_fact), _signed(end_fact, end))
             for thing, found in _asked_per_thing(questions, steps, names).items()
             if len(found) == 2 for (start_fact, start), (end_fact, end) in [found]]
    if not pairs or not all(start and end for _, start, end in pairs):
        return None
    return reach(pairs, computation, born=any(re.search(r"\bborn\b", q) for q in questions))


def _signed(fact: Fact | None, year: str, end: Fact | None = None) -> str:
    """A year before the common era as the negative year it counts as: from 138 BC to 44 BC is 94 years (held-out
    omh-449 took 78 less 138, as plain numbers, for the years from the earliest birth to the last death). A start
    whose span ends before the common era is before it too ("(138–78 BC)" gives the birth as 138)."""
    return f"-{year}" if year and (_before_common_era(fact) or _before_common_era(end)) else year


def _as_year(year: str) -> str:
    return f"{year.removeprefix('-')} BC" if year.startswith("-") else year


def reach(pairs: list[tuple[str, str, str]], computation: Computation | None = None, born: bool = False
          ) -> Computed | None:
    """Over (thing, start, end): from the earliest start to the latest end, or from the start of the thing the
    computation names first to the end of the one it names last, or the years they cover (or leave uncovered);
    None when a thing it names has no span. `born`: the spans are lives."""
    if computation and computation.operation in ("covered", "uncovered"):
        return covered(pairs, between=computation.operation == "uncovered")
    if computation and computation.operation == "after_end":
        return _after_end(*(_picked(pairs, part) for part in computation.parts), computation.of == "end", born)
    if computation and computation.word:
        named = {thing: (thing, start, end) for thing, start, end in pairs}
        if computation.word not in named or computation.other not in named:
            return None
        first, last = named[computation.word], named[computation.other]
        return Computed(f"I take the years from {first[0]}'s start ({first[1]}) to {last[0]}'s end ({last[2]}).",
                        f"{last[2]} - {first[1]}",
                        f"From {first[0]}'s start in {first[1]} to {last[0]}'s end in {last[2]}: {{result}} years.")
    first = min(pairs, key=lambda pair: Decimal(pair[1]))
    last = max(pairs, key=lambda pair: Decimal(pair[2]))
    starts, ends = ", ".join(start for _, start, _ in pairs), ", ".join(end for _, _, end in pairs)
    begun, ended = ("birth", "death") if born else ("start", "end")
    since, until = _as_year(first[1]), _as_year(last[2])
    return Computed(f"The earliest {begun} is {first[0]}'s ({since}), the latest {ended} {last[0]}'s ({until}): "
                    f"I take the years between them.", f"max({ends}) - min({starts})",
                    f"From {first[0]}'s {begun} in {since} to {last[0]}'s {ended} in {until}: {{result}} years.")


def _picked(pairs: list[tuple[str, str, str]], pick: Computation) -> tuple[str, str, str] | None:
    """The (thing, start, end) a pick over spans ranks first: by its start, its end or its length, within its bounds."""
    def value(pair: tuple[str, str, str]) -> Decimal:
        return Decimal({"start": pair[1], "end": pair[2]}.get(pick.of) or _span(pair[1], pair[2]))
    within = [pair for pair in pairs if pick.low <= value(pair) <= pick.high]
    return (max if pick.highest else min)(within, key=value) if within else None


def _after_end(first: tuple[str, str, str] | None, then: tuple[str, str, str] | None, at_end: bool, born: bool
               ) -> Computed | None:
    """From the end of the first thing's span to the other's start, or its end (or back, when it came before)."""
    if not first or not then:
        return None
    began, ended = ("was born", "died") if born else ("began", "ended")
    point, came = (then[2], ended) if at_end else (then[1], began)
    later = Decimal(point) >= Decimal(first[2])
    return Computed(f"{first[0]} {ended} in {first[2]}; {then[0]} {came} in {point}: I take the years between.",
                    f"{point} - {first[2]}" if later else f"{first[2]} - {point}",
                    f"{then[0]} {came} {{result}} years {'after' if later else 'before'} {first[0]} {ended} "
                    f"(in {first[2]}).")


def _spans_shown(questions: list[str], steps: list[Step], names: list[str]) -> str:
    """The spans as the thought states them: "Spans (end minus start, in years): Liszt 1886 - 1811 = 75; ..."."""
    shown_spans = [f"{thing} {end} - {start} = {_span(start, end)}"
                   for thing, found in _asked_per_thing(questions, steps, names).items()
                   if len(found) == 2 and all(plain for _, plain in found) for (_, start), (_, end) in [found]]
    return f" Spans (end minus start, in years): {'; '.join(shown_spans)}." if shown_spans else ""


def fanout_call(computation: Computation, questions: list[str], steps: list[Step], names: list[str]
                ) -> tuple[str, str, str] | None:
    """One computation over the values the helpers found for the listed things, as the lead's calculator step."""
    values, unit, left_out = fanout_values(questions, steps, _with_other(names, computation), computation.of)
    if computation.operation in SPANNED:
        made = _reached(questions, steps, names, computation)
        return (made.thought + left_out, "calculator", made.expression) if made else None
    made = computed(computation, values, unit) if values else None
    if made is None or not made.expression:
        return None
    spans = _spans_shown(questions, steps, names) if unit == "years" else ""
    return f"{made.thought}{spans}{left_out}", "calculator", made.expression


def _with_other(names: list[str], computation: Computation) -> list[str]:
    return [*names, computation.other] if computation.other else names


def fanout_final(wanted: list[Computation], questions: list[str], steps: list[Step], names: list[str],
                 task: str = "") -> tuple[str, str, str] | None:
    """The Final answer written from the computations' results, once each has one: code reads which thing is the
    largest and writes the sentence, where the 1.5B lead, shown max() naming the Godavari, answered twice with
    the table's largest number (a glacier's height) and its river. None (the lead answers) when one is missing."""
    sentences, results, unknown = [], [], []
    for computation in wanted:
        values, unit, left_out = fanout_values(questions, steps, _with_other(names, computation), computation.of)
        unknown.append(left_out.strip())
        made = (_reached(questions, steps, names, computation) if computation.operation in SPANNED
                else computed(computation, values, unit) if values else None)
        if made is not None and not made.expression:  # a ranked pick: nothing to read back
            sentences.append(made.sentence)
            results.append("")
            continue
        result = calculator_result(steps, made.expression) if made else None
        if result is None:
            return None
        sentences.append(made.sentence)
        results.append(result)
    # what the results leave out, said in the answer (held-out omh-280 computed over two universities of four, and
    # only its thought said so)
    said = " ".join(dict.fromkeys(filter(None, unknown)))
    return FINAL_THOUGHT, FINAL_ACTION, with_asides(f"{answer_of(sentences, results)} {said}".strip(), names, task)


def with_asides(answer: str, names: list[str], task: str) -> str:
    """The answer with the other name the question gives a thing in brackets, where it first names the thing: "the
    carrot family (Apiaceae)" is answered as "Carrot family (Apiaceae)", the page's own title (held-out omh-308
    named the carrot family alone)."""
    for name in names:
        aside = aside_of(task, name)
        # a name, not a note: "(Hindu tradition devoted to Shiva)", "(Games at which it is scheduled to start)"
        named = aside and len(aside.split()) <= 4 and all(word[:1].isupper() or len(word) <= 3  # "of", "the"
                                                          for word in re.findall(r"[\w'’-]+", aside))
        if named and aside.casefold() != name.casefold() and aside.casefold() not in answer.casefold():
            answer = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", lambda found: f"{found.group(0)} ({aside})", answer,
                            count=1, flags=re.IGNORECASE)
    return answer


def calculator_result(steps: list[Step], expression: str) -> str | None:
    """The number the latest calculator call of this expression gave (one digit too: the gap "4" is a result)."""
    for step in reversed(steps):
        if step.action == "calculator" and step.action_input == expression and (
                found := numbers(step.observation, single_digits=True)):
            return found[0]
    return None
