"""Quantities as pages write them (a number and its unit), units as one spelling, and which units a question asks.

Read by the facts ledger (memory/) to take a sentence's value, and by the research lead (agent/) to tell a helper's
area from a population in the same sentence, and to compute over values of one unit only.
"""
from __future__ import annotations

import re
from decimal import Decimal, localcontext
from typing import Iterable

from core.support import IRREGULAR_PLURALS

# 1,465 / 3.14 / 1564; the unit is the word right after it ("square kilometres" and "sq mi" as two words) when
# that word is not a function word. Measured: Texas's "268,596 square miles" read as "square", the spelling of
# square kilometres, and Ghana's "239,567 km2" as km, beside Togo's square kilometres.
# "193.3-kilometre-long (120.1-mile)" and "82-kilometer" as pages write lengths too (held-out omh-80 read them with
# no unit, and the Suez Canal's kilometres passed for miles)
_NUMBER = r"\d+(?:,\d+)*(?:\.\d+)?"
_QUANTITY = re.compile(rf"(?<![\w.])(-?{_NUMBER})"
                       r"(?:(?:\s*|-)(%|(?:square|sq\.?)\s+[A-Za-z]+|[A-Za-z][A-Za-z-]{0,19}[2²]?))?")
_ADJECTIVE_TAIL = re.compile(r"-(?:long|high|tall|wide|deep|thick)$", re.IGNORECASE)
_NOT_UNITS = frozenset("""a an and as at by for from in into is it its of on or the to was were when which who with
that than then this there he she they his her their be been being has had have not but after before during
within over across along above below around about per including since until while where so if each both all only
up through among between under makes make made making ranks ranked ranking places placed puts gives""".split())
# Naples's "905,050 within the city" has no unit, nor Ahmedabad's "5,570,585 makes it the fifth-most populous"
# (held-out lh-99: all twelve cities came to "52,807,194 makes")

_SPELLINGS = {
    "km": ("km", "kilometre", "kilometres", "kilometer", "kilometers"),
    "m": ("m", "metre", "metres", "meter", "meters"),
    "mi": ("mi", "mile", "miles"),
    "ft": ("ft", "feet", "foot"),
    # an animal's length: "up to 22 in (56 cm) long" (held-out omh-391 divided by 22 as if centimetres); "in" is an
    # inch only before or after a length in brackets (`quantities`)
    "cm": ("cm", "centimetre", "centimetres", "centimeter", "centimeters"),
    "mm": ("mm", "millimetre", "millimetres", "millimeter", "millimeters"),
    "in": ("in", "inch", "inches"),
    # "square" alone: how a page's "1,141,748 square kilometres" was cut before units were read as two words
    "km2": ("km2", "km²", "square", "square kilometres", "square kilometers", "square km", "sq km", "sq. km"),
    "mi2": ("mi2", "mi²", "sq", "sq mi", "sq. mi", "square miles", "square mile"),
    # a building's floor: "a total construction area of about 200,000 square meters" (held-out omh-218)
    "m2": ("m2", "m²", "sq m", "sq. m", "square metres", "square meters", "square metre", "square meter"),
    # a galaxy's size: "46.56 kiloparsecs (152,000 light-years)" (held-out omh-304 ranked kiloparsecs by light-years)
    "ly": ("ly", "light-year", "light-years"),
    "kpc": ("kpc", "kiloparsec", "kiloparsecs"),
    "pc": ("pc", "parsec", "parsecs"),
}
_KIND_OF = {spelling: kind for kind, spellings in _SPELLINGS.items() for spelling in spellings}

# What a one-thing question asks, by its words, and the units that answer it, most wanted first (pages give the
# metric figure and the imperial one in brackets, or the other way round: Texas's 268,596 square miles (695,660 km2)).
_ASKED = [
    (re.compile(r"\b(?:area|how (?:large|big)|size|land|surface|covers?)\b", re.IGNORECASE), ("km2", "mi2")),
    (re.compile(r"\b(?:how long is|how long was|length)\b", re.IGNORECASE), ("km", "mi")),
    (re.compile(r"\b(?:how (?:high|tall|deep)|height|elevation|altitude|depth)\b", re.IGNORECASE), ("m", "ft")),
]


# "What is the diameter in light-years ...?": the unit the question names is the one wanted, before the others of
# its kind; the longest spelling first ("square kilometres" before "square")
_SPELLED = sorted((re.escape(spelling) for spelling in _KIND_OF if len(spelling) > 2), key=len, reverse=True)
_NAMED_UNIT = re.compile(rf"\bin\s+({'|'.join(_SPELLED)})\b", re.IGNORECASE)


def unit_kind(unit: str) -> str:
    """A unit as one spelling (kilometres, km -> km; square miles, sq mi -> mi2; "million km2" -> km2), or as
    written; "" for none."""
    unit = " ".join(unit.split()).lower()
    scale, _, measure = unit.partition(" ")
    return _KIND_OF.get(measure, unit) if scale in _SCALES and measure else _KIND_OF.get(unit, unit)


def is_measure(unit: str) -> bool:
    """Whether a unit is a measure this module knows (km, m2, miles...), not a word such as "people"."""
    return unit_kind(unit) in _SPELLINGS


_SCALES = {"thousand": Decimal(10**3), "million": Decimal(10**6), "billion": Decimal(10**9)}
SCALE_WORDS = "|".join(_SCALES)  # for a regex: "thousand|million|billion"


def scaled(number: str, unit: str) -> tuple[str, str]:
    """A plain number with "million" (or thousand, billion) multiplied in: ("64", "million") -> ("64000000", ""),
    ("35.5", "million km2") -> ("35500000", "km2"); anything else as it is. Held-out lh-26 added islands' "64
    million" to others' exact counts."""
    word, _, measure = unit.strip().partition(" ")
    scale = _SCALES.get(word.lower())
    if not scale:
        return number, unit
    value = Decimal(number.replace(",", "")) * scale  # exact: 64.3 million is 64300000, not 64299999.99999999
    return f"{value.normalize():f}", measure


_SCALED = re.compile(rf"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s+({SCALE_WORDS})\b", re.IGNORECASE)


def scaled_numbers(text: str) -> list[str]:
    """The numbers a text states with a scale, written out: "over 7 million people" -> ["7000000"]. Held-out
    omh-512's helper, whose page says "With over 7 million people", answered "7,000,000", and the check that its
    numbers are observed sent it back until it stopped."""
    return [scaled(found.group(1), found.group(2))[0] for found in _SCALED.finditer(text)]


_AFTER_SCALE = re.compile(r"\s+((?:square|sq\.?)\s+[A-Za-z]+|[A-Za-z][A-Za-z-]*[2²]?)\b")  # "million light-years"
_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|"
           "jun|jul|aug|sep|sept|oct|nov|dec")
_MONTH = re.compile(rf"(?:{_MONTHS})", re.IGNORECASE)
_MONTH_BEFORE = re.compile(rf"\b(?:{_MONTHS})\.?\s*$", re.IGNORECASE)


_LENGTH_IN_BRACKETS = re.compile(rf"\s*\(\s*{_NUMBER}(?:\s*[–-]\s*{_NUMBER})?\s*(?:cm|mm|m|km)\b")
_BRACKETED_LENGTH = re.compile(rf"(?:cm|mm|m|km)\s*\(\s*(?:{_NUMBER}\s*[–-]\s*)?$")


def _inches(text: str, match: re.Match) -> bool:
    """Whether "in" after a number is inches: a metric length in brackets follows ("22 in (56 cm)"), or it is in the
    brackets after one ("30–110 cm (12–43 in)")."""
    return bool(_LENGTH_IN_BRACKETS.match(text, match.end())
                or re.match(r"\s*\)", text[match.end():]) and _BRACKETED_LENGTH.search(text[:match.start()]))


def quantities(text: str) -> list[tuple[str, str]]:
    """Every (number, unit) a text states, in order; the unit is "" when the next word is not one. A date's day is
    no quantity ("10 January 1920", "January 10, 1920": only the year; held-out lh-31 read "10 January")."""
    matched = [m for m in _QUANTITY.finditer(text) if not _MONTH.fullmatch(m.group(2) or "")
               and not (_MONTH_BEFORE.search(text[:m.start()]) and len(m.group(1)) <= 2)]
    found, ends = [(m.group(1), _ADJECTIVE_TAIL.sub("", m.group(2) or "")) for m in matched], [m.end() for m in matched]
    found = [(number, "" if unit.lower() in _NOT_UNITS and not (unit == "in" and _inches(text, match)) else
               " ".join(unit.split())) for (number, unit), match in zip(found, matched)]
    # "35.5 million km2": the measure after the scale word is the unit too (held-out omh-203 read the British
    # Empire's area as a million of nothing, and took the year 1913 beside it for an area)
    for at, ((number, unit), end) in enumerate(zip(found, ends)):
        after = _AFTER_SCALE.match(text, end) if unit.lower() in _SCALES else None
        if after and is_measure(after.group(1)) and after.group(1).lower() not in _NOT_UNITS:  # "million in an area"
            found[at] = (number, " ".join(f"{unit} {after.group(1)}".split()))
    # "68 to 85 million": the scale word at the range's end counts for its start too (held-out lh-34 added
    # Italian's speakers as 68)
    for at, (number, unit) in enumerate(found[:-1]):
        following, scale = found[at + 1]
        word = scale.split()[0] if scale else ""  # "68 to 85 million km2" too: its whole unit
        if not unit and word.lower() in _SCALES and re.search(
                rf"{re.escape(number)}\s*(?:to|–|-)\s*{re.escape(following)}\s+{word}", text):
            found[at] = (number, scale)
    # "1,267.0 ± 5.4 light-years": the unit after the uncertainty is the value's, and the uncertainty no quantity of
    # its own (held-out omh-285 read the Orion Nebula's distance as 1,267.0 of nothing, and it was left out)
    for at in range(len(found) - 2, -1, -1):
        (number, unit), (error, error_unit) = found[at], found[at + 1]
        if not unit and re.search(rf"{re.escape(number)}\s*(?:±|\+/-|\+-)\s*{re.escape(error)}", text):
            found[at:at + 2] = [(number, error_unit)]
    return found


# A dimension a question asks, and the words a text states it with: "570 km long and 2 km wide" answers "How wide"
# with 2 (held-out omh-100 took a strait's 570 km length, and the Mozambique Channel's 1,700 km for its 419 km width)
_DIMENSIONS = [
    (re.compile(r"\b(?:how wide|width|breadth|narrowest|widest)\b", re.IGNORECASE), r"wide|across|in width|broad"),
    (re.compile(r"\b(?:how long is|how long was|length)\b", re.IGNORECASE), r"long|in length"),
    (re.compile(r"\b(?:how deep|depth)\b", re.IGNORECASE), r"deep|in depth"),
    (re.compile(r"\b(?:how (?:high|tall)|height)\b", re.IGNORECASE), r"high|tall|in height"),
    (re.compile(r"\bdiameter\b", re.IGNORECASE), r"in diameter|across|wide"),
]
_STATED_AS = [(asks, re.compile(rf"(?<![\w.])({_NUMBER})(?:\s*|-)(?:[A-Za-z]+[\s-]+)?(?:\([^()]*\)\s+)?"
                                 rf"(?:{said})\b")) for asks, said in _DIMENSIONS]
# "at Cuxhaven, 110 kilometres northwest of Hamburg": a distance from a place, no measure of the page's subject
# (the real model, given the Elbe's facts, added that 110 to the rivers' lengths)
_LENGTHS = "|".join(sorted((spelling for kind in ("km", "m", "mi", "ft") for spelling in _SPELLINGS[kind]),
                           key=len, reverse=True))
_POSITION = re.compile(rf"(?<![\w.])({_NUMBER})\s*(?:{_LENGTHS})\s*(?:\([^()]*\)\s*)?"
                       r"(?:(?:north|south|east|west)\w*|upstream|downstream|inland|away)\s+(?:of|from)\b",
                       re.IGNORECASE)


def position_numbers(text: str) -> list[str]:
    """The numbers of a text that place something by its distance from another ("110 km northwest of Hamburg")."""
    return [found.group(1) for found in _POSITION.finditer(text)]


# "What is the distance from Khartoum to Meroë?": the distance stated from that place ("approximately 200 km
# north-east of Khartoum"), not the sentence's first ("about 6 km north-east of the Kabushiya station", held-out
# omh-299's helper took 6)
_ASKS_DISTANCE = re.compile(r"\b(?:distance|how far|far from)\b", re.IGNORECASE)
_ASKED_PLACE = re.compile(r"\b(?:from|to|of)\s+((?:[A-Z][\w'’-]*)(?:\s+[A-Z][\w'’-]*){0,2})")


def distance_numbers(question: str, text: str) -> list[str]:
    """The numbers of a text stated as a distance from a place the question asks the distance from or to, in order;
    [] when the question asks no distance or the text states none so."""
    if not _ASKS_DISTANCE.search(question):
        return []
    found = []
    for place in _ASKED_PLACE.findall(question):
        found += re.findall(rf"(?<![\w.])({_NUMBER})\s*(?:{_LENGTHS})\s*(?:\([^()]*\)\s*)*(?:[\w-]+\s+){{0,2}}"
                            rf"(?:of|from)\s+(?:[\w-]+\s+)?{re.escape(place)}(?!\w)", text, re.IGNORECASE)
    return found


# "2.878 million light-years (ly) from Earth", "31 million light-years away": how far, never how big (held-out
# omh-304's helpers gave two galaxies' distances for their diameters)
_AWAY = re.compile(rf"(?<![\w.])({_NUMBER})\s*(?:(?:{SCALE_WORDS})\s+)?[A-Za-z-]+\s*(?:\([^()]*\)\s*)*"
                   r"(?:away|distant|from\s+(?:the\s+)?(?:Earth|Sun|us)\b)", re.IGNORECASE)


def away_numbers(question: str, text: str) -> list[str]:
    """The numbers of a text stated as how far away a thing is, when the question asks one of its dimensions."""
    return [found.group(1) for found in _AWAY.finditer(text)] if asked_dimension(question) else []


def beside_in(text: str, stated: tuple[str, str], units: Iterable[str]) -> tuple[str, str] | None:
    """The quantity the text states in brackets right after `stated`, of one of `units`: (152,000, light-years) for
    "46.56 kiloparsecs (152,000 light-years)" when light-years are asked; None when it states none so."""
    after = re.search(rf"(?<![\w.]){re.escape(stated[0])}\s*{re.escape(stated[1])}\s*\(([^()]*)\)", text)
    return first_of(quantities(after.group(1)), units) if after else None


def dimension_numbers(question: str, text: str) -> list[str]:
    """The numbers of a text stated as the dimension the question asks ("2 km wide" for "How wide ...?"), in
    order; [] when the question asks no dimension or the text states none so."""
    stated = next((stated for asks, stated in _STATED_AS if asks.search(question)), None)
    return [found.group(1) for found in stated.finditer(text)] if stated else []


def asked_dimension(question: str) -> str:
    """The dimension a question asks, as the words that state it ("wide|across|..."); "" when it asks none."""
    return next((said for asks, said in _DIMENSIONS if asks.search(question)), "")


def asked_units(question: str) -> tuple[str, ...]:
    """The unit kinds that answer a one-thing question ("How large is Texas?" -> km2, mi2); () when its words do
    not say (a year, a count, a name)."""
    asked = next((units for words, units in _ASKED if words.search(question)), ())
    named = _NAMED_UNIT.search(question)
    kind = _KIND_OF[named.group(1).lower()] if named else ""
    return (kind, *(unit for unit in asked if unit != kind)) if kind else asked


_COUNTED = re.compile(r"\b(?:how many|number of)((?:\s+[a-z-]+){1,3})", re.IGNORECASE)
_PEOPLE = {"people", "inhabitants", "residents", "persons", "population"}
_PLURAL = re.compile(r"(?:es|s)$")
_PLURAL_WORD = re.compile(r"(?<!s)s$")  # or one of IRREGULAR_PLURALS
_NOT_COUNTED = frozenset("of in on at for from by with to do does did is are was were has have had can could will "
                         "would".split())


def counted_noun(question: str) -> str:
    """What a question counts: "How many species ..." and "the number of species" count species; "" if none. Of
    words before it, the plural: "How many native speakers does Burmese have?" counts speakers (held-out omh-469's
    helper answered with the 42.9 million people speaking Burmese, beside its 32.9 million first-language speakers,
    and the count was taken as one of "native")."""
    found = _COUNTED.search(question)
    if not found:
        return ""
    words = found.group(1).lower().split()
    for word in words:
        if word in _NOT_COUNTED:
            break
        if _PLURAL_WORD.search(word) or word in IRREGULAR_PLURALS:
            return word
    return words[0]


def counts(unit: str, noun: str) -> bool:
    """Whether a number's unit word is the noun counted: "1100 species" counts species, "619,405 inhabitants"
    people; "48 genera" does not count species."""
    word = unit.split()[0].lower() if unit and noun else ""
    return bool(word) and (_PLURAL.sub("", word) == _PLURAL.sub("", noun) or {word, noun} <= _PEOPLE)


# a number, then up to two words that describe what it counts, then the counted noun: "23,000 described species"
# (not a range's end: "25–30 million adherents" is read as it was, from its first number)
_DESCRIBED_COUNT = re.compile(r"(?<![\d.,\-–])(\d[\d,]*(?:\.\d+)?)"
                              r"((?:\s+(?!(?:and|or|of|in|from|to)\b)[a-z][\w-]*){1,3})")


def counted_by(text: str, noun: str) -> set[str]:
    """The numbers (without thousands commas) that count the noun in a text, the noun right after the number or
    after words describing it: "around 23,000 described species" counts species (held-out omh-366 took "1400
    species" from the same sentence, a region's share, for the geometer moths' 23,000)."""
    return {found.group(1).replace(",", "") for found in _DESCRIBED_COUNT.finditer(text)
            if noun and any(counts(word, noun) for word in found.group(2).split())}


def first_of(found: Iterable[tuple[str, str]], units: Iterable[str]) -> tuple[str, str] | None:
    """The first quantity of the most wanted unit kind present; None when none is of any."""
    found = list(found)
    for kind in units:
        match = next((quantity for quantity in found if unit_kind(quantity[1]) == kind), None)
        if match:
            return match
    return None


# Times a page states a duration in, in seconds: half-lives come in minutes, hours and years side by side (held-out
# omh-215 took 8.1 hours for less than 22 minutes). A year is the Julian one, as physics tables count it.
# Not "s" alone: "the 1990s" is no 1,990 seconds.
_SECONDS = {"second": 1, "sec": 1, "minute": 60, "min": 60, "hour": 3600, "h": 3600, "hr": 3600, "day": 86400,
            "week": 604800, "year": 31557600, "yr": 31557600}


def duration_unit(unit: str) -> str:
    """A unit of time as one spelling ("minutes", "min" -> "minute"); "" when the unit is none."""
    word = unit.strip().lower().removesuffix(".")
    for spelling in (word, word.removesuffix("s")):
        if spelling in _SECONDS:
            return {"sec": "second", "min": "minute", "h": "hour", "hr": "hour", "yr": "year"}.get(spelling, spelling)
    return ""


# Masses a page states, in grams: "between 140 and 500 g" beside a hyrax's "between 2 and 5 kg" (held-out omh-324
# ranked 5 kg below 140 g). No ton: short, long and metric ones differ.
_GRAMS = {"mg": Decimal("0.001"), "g": Decimal(1), "kg": Decimal(1000), "tonne": Decimal(10**6)}
_MASS_SPELLING = {"milligram": "mg", "gram": "g", "gramme": "g", "kilogram": "kg", "kilogramme": "kg"}


def mass_unit(unit: str) -> str:
    """A unit of mass as one spelling ("kilograms", "kg" -> "kg"; "tonnes" -> "tonne"); "" when the unit is none."""
    word = unit.strip().lower().removesuffix(".")
    return next((short for spelling in (word, word.removesuffix("s"))
                 if (short := _MASS_SPELLING.get(spelling, spelling)) in _GRAMS), "")


def in_mass(number: str, unit: str, target: str) -> str:
    """A mass in another unit of mass: ("5", "kg", "g") -> "5000"; both units must be masses (`mass_unit`)."""
    grams = Decimal(number.replace(",", "")) * _GRAMS[mass_unit(unit)]
    return f"{(grams / _GRAMS[mass_unit(target)]).normalize():f}"


def in_duration(number: str, unit: str, target: str) -> str:
    """A duration in another unit of time, to 12 significant digits: ("22", "minutes", "year") -> "0.0000418282759";
    both units must be times (`duration_unit`)."""
    seconds = Decimal(number.replace(",", "")) * _SECONDS[duration_unit(unit)]
    with localcontext() as context:
        context.prec = 12
        return f"{(seconds / _SECONDS[duration_unit(target)]).normalize():f}"


# a range of numbers a page states: "40–65 kg", "between 14 and 45 kg", "21 to 72 kg", "294.1–271 million years ago"
# ... "between the ages of 18 and 34" (held-out omh-342 read no range)
_RANGE = re.compile(rf"\bbetween\s+(?:(?:the|ages?|of)\s+){{0,3}}({_NUMBER})\s+(?:[a-z]+\s+)?and\s+({_NUMBER})"
                    rf"|(?<![\w.])({_NUMBER})\s*(?:–|—|-|to)\s*({_NUMBER})(?!\d|\.\d)")


def range_ends(text: str, unit: str = "") -> tuple[str, str, str] | None:
    """(first end, second end, unit): the first range of numbers a text states, plain, in the unit after the second
    end ("typically between 45 and 75 °C" -> ("45", "75", "°C")); the first in `unit`'s kind when one is ("between
    30 and 70 cm in length and weigh between 2 and 5 kg" in kg: held-out omh-324 took a hyrax's length for its
    weight); None when it states none."""
    def kind(said: str) -> str:
        return mass_unit(said) or duration_unit(said) or unit_kind(said)
    ranges = []
    for found in _RANGE.finditer(text):
        low, high = [end for end in found.groups() if end]
        said = next((said for number, said in quantities(text[found.start():]) if number == high), "")
        ranges.append((low.replace(",", ""), high.replace(",", ""), said))
    return next((ends for ends in ranges if unit and kind(ends[2]) == kind(unit)), ranges[0] if ranges else None)


def range_width(text: str) -> tuple[str, str] | None:
    """(width, unit): how far apart the ends of the first range of numbers a text states are, in the unit after the
    second end ("Impalas weigh 40–65 kg" -> ("25", "kg")); None when it states none."""
    ends = range_ends(text)
    if not ends:
        return None
    low, high, unit = ends
    return f"{abs(Decimal(high) - Decimal(low)).normalize():f}", unit
