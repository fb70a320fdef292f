"""What a question lists and asks of its things, read from its own words: the things it lists ("Of these twelve
mountains: Mount Everest, K2, ... and Mount Tai"), what each is asked when it ranks spans (born and died, a reign's
start and end), the bounds it keeps ("more than 40", "in the 19th century") and the computations it wants ("the
three largest ... combined", "the difference between the highest and the lowest").

Read by code, not by the model: measured on the embedded 1.5B model, its split of a question listing eleven
countries named two of them. Every reading here records the wording that needed it (held-out question ids).
"""
from __future__ import annotations

import functools
import math
import os
import re
from typing import NamedTuple

from core.support import names as name_phrases, singular_forms
from core.text import clip
from core.units import SCALE_WORDS, scaled

# a capitalised word (or a number: K2), "J." too, and with a lower-case particle: n'Ajjer, al-Aqsa, d'Arc
_CAPWORD = r"(?:[a-z]{1,2}['’-])?(?![a-z])[^\W_][\w'’\-–]*\.?"  # Polish–Lithuanian Commonwealth: an en dash too
# Sea of Marmara, van Gogh, Mies van der Rohe, To Kill a Mockingbird, Tristan und Isolde
_IN_NAMES = ("of", "de", "da", "del", "la", "le", "van", "von", "der", "den", "ter", "y", "du", "des", "di", "the", "a",
             "an", "und", "et")
_CONNECTOR = rf"(?:{'|'.join(_IN_NAMES)})"
# a kind word that starts with a capital letter alone: "the X-ray source Cygnus X-1" (held-out omh-198 read "X-ray")
_LETTER_WORD = r"[A-Z]-[a-z]{2,}"
_CONNECTOR_WORDS = {*_IN_NAMES, "on", "in", "at", "to", "for"}  # "the attack on Pearl Harbor" (`_colon_item`)
# "the Brazilian state of Minas Gerais", "the Lao kingdom of Lan Xang" (held-out omh-302, -296): a people's word and
# a kind of place before "of" describe the name after it; "the Kingdom of Kazan" and "the Ming dynasty" are names
_PLACE_KIND = (r"(?:the\s+)?(?:[A-Z][\w'’-]*\s+){1,2}(?:state|province|region|republic|kingdom|city|town|county|"
               r"territory|island|department|prefecture|emirate|canton|oblast|district|capital|port|village|"
               r"municipality|principality|duchy|sultanate|khanate)\s+of\s+(?=[A-Z])")
# Mies van der Rohe; six words: Sgt. Pepper's Lonely Hearts Club Band (held-out omh-105)
_ITEM = (rf"(?:{_PLACE_KIND}|the\s+(?:(?:[a-z]+|{_LETTER_WORD})\s+){{0,2}})?"
         rf"{_CAPWORD}(?:\s+(?:{_CONNECTOR}\s+){{0,2}}{_CAPWORD}){{0,5}}")
# inside a comma list, "Antigua and Barbuda" is one name, and so is "the Greenland ice sheet" (held-out lh-24)
# "the Northern and Southern dynasties, ..." (held-out omh-176): both; "the Declaration of the Rights of Man and of
# the Citizen, ..." (held-out omh-206 listed from "the Citizen" on)
_JOINED = rf"{_ITEM}(?:\s+and\s+(?:of\s+)?{_ITEM})?(?:(?:\s+[a-z]{{3,}}){{1,2}}(?=,))?"
# the last name may end in one lower-case word before the sentence's end ("... Carmen and La bohème.", held-out
# omh-82), but not in a verb ("... Tesla and Edison died.") or a plural ("the Atlantic, Indian and Arctic oceans")
_LAST_TAIL = (r"(?:\s+(?!(?:was|were|is|are|did|do|does|has|have|had|born|lived)\b)[a-z]\w*(?<!ed)(?<!s)(?=[.?!])"
              # "... and Samuel Beckett's Waiting for Godot." (held-out omh-289 read "Waiting"); not "Wikipedia for
              # Saint Petersburg" inside a list, where "for" says whose figure
              rf"|\s+for(?:\s+{_CAPWORD}){{1,3}}(?=[.?!,]))?")
# after a serial comma the last item may hold "and" too: "..., and the Five Dynasties and Ten Kingdoms" (omh-176)
_LIST = re.compile(rf"{_JOINED}(?:,\s+{_JOINED})+(?:,\s+(?:and|or)\s+{_ITEM}(?:\s+and\s+{_ITEM})?"
                   rf"|\s+(?:and|or)\s+{_ITEM}){_LAST_TAIL}")
_SEPARATOR = re.compile(r",\s+(?:and\s+|or\s+)?|,?\s+(?:and|or)\s+")
# "Zagros Mountains. Which ...", "Kolmogorov. If each ...", "Liliaceae. I'd like ..." (held-out lh-59, -60), but
# not an initial or a title's abbreviation ("J. M. W. Turner", "Sgt. Pepper's")
_SENTENCE_END = re.compile(r"(?<!\b[A-Z])(?<!\bSgt)(?<!\bSt)(?<!\bMt)(?<!\bDr)(?<!\bNo)\.\s+(?=[A-Z]|\w{3,})")
_OPENERS = {"Of", "Which", "What", "Among", "In", "Between", "How", "Is", "Are", "Did", "Do", "Does", "Was", "Were",
            "Take", "Taking", "From", "Consider", "Compare", "Comparing", "Considering", "Ranking", "Counting",
            "Given", "For", "Rank", "Sort", "Looking", "Put", "Arrange", "Order", "List", "Place"}
# "Comparing Cook Strait, the Taiwan Strait" (omh-100); "Put The Jazz Singer, Casablanca, ... in order" (omh-124)


_BARE_ITEMS = rf"{_ITEM}(?:,\s+{_ITEM}){{2,}}"
# "A, B, C: which ...", "... of these four: A, B, C, D?", "A, B, C - which ...", "universities - A, B, C - and"
# (held-out omh-75, -78); a list that opens the question may hold names in lower case ("Jaguar, Komodo dragon,
# swordfish, beaver: ...", omh-69)
_ANY_ITEM = r"[^\W\d_][\w'’.-]*(?:\s+[\w'’.-]+){0,4}"
_BARE_LIST = re.compile(rf"^\s*({_ANY_ITEM}(?:,\s+{_ANY_ITEM}){{2,}})\s*(?::|\s[-–—]\s)"
                        rf"|:\s*({_BARE_ITEMS})\s*\?\s*$|\s[-–—]\s+({_BARE_ITEMS})\s+[-–—]\s")


# ... with its last item after "and", the items in any case ("Mars, Jupiter's moon Callisto, the dwarf planet Eris
# and Saturn's moon Enceladus: ...", held-out omh-108); read as a list of names (`_named`)
_BARE_AND_LIST = re.compile(rf"^\s*({_ANY_ITEM}(?:,\s+{_ANY_ITEM})+,?\s+(?:and|or)\s+{_ANY_ITEM})\s*:")


def _named(parts: list[str]) -> list[str]:
    """A list's items as names: words before a name's first capital go ("Of the Atlas Mountains, ..." lists the
    Atlas Mountains; "the dwarf planet Eris" is Eris), and so does the question's opening word ("Which of Kyiv, ...",
    "Looking up at Sirius, ...": not every word ending in -ing opens one, the Bering Strait does not)."""
    found = []
    # "The mouse-and-rat family Muridae" opens the question; "The Starry Night" is a title, but not before "the Lao
    # kingdom of Lan Xang, the Crimean Khanate, ..." (held-out omh-296 read "The Asante Empire"): most items after
    # it with "the", none with "The" ("The Times, the journal Science, Le Monde, ...")
    articles = [the.group(0)[0] for later in parts[1:] if (the := re.match(r"(?i:t)he\s", later.strip()))]
    article = len(parts) > 1 and 2 * articles.count("t") >= len(parts) - 1 and "T" not in articles
    for number, part in enumerate(parts):
        words = part.split()
        if number == 0 and len(words) > 1 and words[0] == "The" and (words[1].islower() or article):
            words.pop(0)
        while words and (words[0].islower() or number == 0 and words[0] in _OPENERS
                         or re.fullmatch(_LETTER_WORD, words[0]) and len(words) > 1 and words[1].islower()):
            words.pop(0)
        words = re.sub(rf"^{_PLACE_KIND}", "", " ".join(words)).split()
        # a group's name before the first one's: "Among the Post-Impressionists Paul Cézanne, ..." (held-out omh-130)
        if number == 0 and len(words) >= 3 and re.search(r"(?:ists|ians|ites)$", words[0]):
            words.pop(0)
        # a short name all in lower case is the name ("the megabats", "wrasses", held-out omh-112, -118)
        plain = re.sub(r"^the\s+", "", part.strip())
        found.append(" ".join(words) or (plain if plain.islower() and len(plain.split()) <= 2 else ""))
    return found


def _parts(listed: str) -> list[str]:
    """A list's items: "and"/"or" joins the last two, so an earlier item holding one is a single name ("Antigua
    and Barbuda, Saint Kitts and Nevis, the Cook Islands and Fiji": four, not six)."""
    items = re.split(r",\s+", listed)
    if len(items) < 3:
        return _SEPARATOR.split(listed)
    last = re.sub(r"^(?:and|or)\s+", "", items[-1])
    return [*items[:-1], *(re.split(r"\s+(?:and|or)\s+", last, maxsplit=1) if last == items[-1] else [last])]


_LOWER_ITEM = r"(?:the\s+)?[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?"
# "men have contested the 100 metres, the long jump, the shot put and the pole vault since 1896" (held-out omh-213):
# three or more things each with "the", wherever they stand; a word that goes on the sentence ends the last
# (its second word may be a name: "the degree Celsius", held-out omh-250 read "degree")
# "the Old World flycatchers" among "the hummingbirds, ..., the cuckoos and the wrens": a name before the kind
# (held-out omh-290 read the last three of five)
_THE_ITEM = r"the\s+(?:\d[\d,]*\s+)?(?:[A-Z][\w'-]*\s+){0,2}[a-z][\w'-]*(?:\s+(?!(?:since|in|at|on|of|for|by|from|to|with|were|was|are|is|" \
            r"have|has|had|which|that|who|when|and|or)\b)[A-Za-z][\w'-]*)?"
_THE_LIST = rf"\b((?:{_THE_ITEM},\s+)+{_THE_ITEM},?\s+(?:and|or)\s+{_THE_ITEM})\b"
# "Twelve chemical elements: beryllium, phosphorus, ... and bismuth." (held-out lh-27): after a colon, to the stop;
# "... than the smallest: the daisy family, the legumes, ... and the cacti?" (held-out omh-113 listed nothing)
# "Look up the atomic numbers of oxygen, sulfur, selenium, tellurium and polonium." (held-out omh-132): after "of"
# "For adult cheetahs, impalas, koalas, sea otters and giant pandas, Wikipedia gives ..." (held-out omh-233): or at
# a comma before the sentence goes on with a name
# "Taking the ranges in the articles on red, orange, yellow, green and blue, which colour ..." (held-out omh-243): or
# before the question goes on
_LOWER_TAIL = (rf"{_LOWER_ITEM},?\s+(?:and|or)\s+{_LOWER_ITEM})"
               r"\s*(?:[.?]|,(?=\s+(?:[A-Z]|(?:which|what|how|who)\b)))")
# "... has chapters on mantises, fleas, earwigs, cockroaches and lice." (held-out omh-149): after "on", "about"...
_LOWER_LIST = re.compile(rf":\s*((?:{_LOWER_ITEM},\s+){{2,}}{_LOWER_TAIL}"
                         rf"|\b(?:[Oo]f|[Oo]n|[Aa]bout|[Ff]or|[Aa]mong|[Ii]ncluding)\s+"
                         rf"((?:{_LOWER_ITEM},\s+)+{_LOWER_TAIL}"
                         rf"|{_THE_LIST}")


# numbers as questions write them in words: one table for counts, lists and bounds
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                 "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
                 "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20}
_COUNTED = {word: number for word, number in _NUMBER_WORDS.items() if 3 <= number <= 12}
# "the six noble gases helium, neon, argon, krypton, xenon and radon" (held-out omh-71): no colon, so the count
# says where the list starts, and it must list that many
_COUNTED_LIST = re.compile(rf"\b({'|'.join(_COUNTED)})\s+(?:[a-z]+\s+){{1,3}}?"
                           r"((?:[a-z][\w'-]*,\s+)+[a-z][\w'-]*,?\s+(?:and|or)\s+[a-z][\w'-]*)\b", re.IGNORECASE)


# "the alkali metals lithium, sodium, potassium, rubidium and caesium", "the halogens fluorine, chlorine and
# bromine" (held-out omh-89, -77): one-word names right after the plural that names their kind
_KIND_LIST = re.compile(rf"\bthe\s+(?:(?!(?:{'|'.join(_COUNTED)})\b)[a-z]+\s+){{0,2}}[a-z]{{3,}}s\s+"
                        r"((?:[a-z]{3,},\s+)+[a-z]{3,},?\s+and\s+[a-z]{3,})\b")  # a count says how many: above


# "thirteen kinds of birds: herons, hummingbirds, ..., New World warblers, ... and the crow family Corvidae." (held-
# out lh-37): whatever the case, the items after a colon, as many as the count before it. The list ends at a stop,
# but not every stop ends it ("Sgt. Pepper's", held-out lh-53), so the count decides which stop does
_COLON_LIST = re.compile(rf"\b({'|'.join(_NUMBER_WORDS)}|\d{{1,2}})\b[^:.?!]*:\s*", re.IGNORECASE)
_LIST_END = re.compile(r"\s*[.?!;:](?=\s|$)")
# an aside in brackets names the thing again ("the oaks (Quercus)", "ovenbirds (the family Furnariidae)", held-out
# lh-37, -39): no item of the list. One with a digit may be a bound ("(68 to 85 million)"), one with two commas or a
# comma and an "and" a list; one comma is a name's ("Cavour (Camillo Benso, Count of Cavour)", held-out lh-100 listed
# from the name after it), so a list of two in brackets, "(Mercury, Venus)", reads as an aside too
_ASIDE_TEXT = r"(?![^()]*\d)(?![^()]*,[^()]*(?:,|\band\b|\bor\b))[^()]*"
_ASIDE = re.compile(rf"\s+\({_ASIDE_TEXT}\)")


def without_asides(text: str) -> str:
    return _ASIDE.sub("", text)


def aside_of(task: str, name: str) -> str:
    """The other name a question gives a listed thing in brackets ("the daisy family (Asteraceae)" -> Asteraceae;
    "ovenbirds (the family Furnariidae)" -> Furnariidae), "" when it gives none: often the page's own title. Not a
    place the aside measures from: "Meroë (from Khartoum)" is no other name of Meroë (held-out omh-299)."""
    aside = aside_text(task, name)
    return "" if not aside or _RELATION.match(aside) else _named([aside])[0]


# an aside that says where from, or what of, before its first name: no name of the thing itself
_RELATION = re.compile(r"(?:[a-z]+\s+){0,2}(?:from|to|near|at|in|on|by|since|for|of|measured|counted|taken)\s+"
                       r"(?:(?:the|a|an)\s+)?[A-Z]")


# "(...; for Daegu, the city itself, not the wider region)", "(for the Azores and Madeira, from mainland Portugal":
# what the question says of one or two things' values, in a clause of its own, to the clause's end
_FOR_NOTE = re.compile(r"(?:^|[(;,])\s*(?P<note>for\s+(?:the\s+)?"
                       r"(?P<said>[A-Z][\w'’.-]*(?:\s+(?:[A-Z][\w'’.-]*|of|and|the|de|von))*)"
                       r"(?:(?!\.\s|,\s*for\s)[^;()?])*)")


def note_of(task: str, name: str, names: list[str] = ()) -> str:
    """What the question says of a listed thing's value in a clause of its own ("for Daegu, the city itself, not the
    wider region"), for its helper to read; "" when none, or when the clause goes on to name other things of
    `names` (the list itself: "for Saint Petersburg, Novosibirsk and Vladivostok, which ..."). Held-out omh-375's
    helper, asked Daegu's population alone, gave the region's 5 million."""
    for found in _FOR_NOTE.finditer(task):
        said = [part for part in re.split(r"\s+and\s+", found.group("said")) if part]
        rest = found.group("note")[found.end("said") - found.start("note"):]
        others = [other for other in names if other != name and not any(says(part, other) for part in said)]
        if any(says(part, name) or says(name, part) for part in said) and not any(says(rest, o) for o in others):
            return clip(found.group("note").strip(" ,.;"), MAX_NOTE_CHARS)
    return ""


# "Taking the province population that each city's Wikipedia intro gives (not the city or urban figure), which ...":
# the measure every thing's value is, and what it is not (held-out omh-490's helpers, asked each city's population,
# gave the city figures beside the province ones in the same sentences)
_MEASURE_NOTE = re.compile(r"\b(?P<verb>Taking|Using|Going by)\s+"
                           r"(?P<what>(?:(?!\b(?:[Tt]aking|[Uu]sing)\b)[^().?;:])*?\b(?:each|every)\b[^().?;:]*?)\s*"
                           # "(not the city or urban figure)", "(the metropolitan area, not the city proper)"
                           r"\((?P<not>(?:[^(),;]*,\s*)?not\b[^()]*)\)")
# where each value is read ("that each city's Wikipedia intro gives"): the helper reads its own page anyway
_READ_WHERE = re.compile(r"\s*\b(?:(?:that|which)\s+)?(?:given\s+)?(?:in|from|on)?\s*"
                         r"(?:each|every)(?:\s+one)?(?:['’]s)?"
                         r"\s+(?:[a-z]+['’]s\s+)?(?:Wikipedia\s+)?(?:intro|article|page|description|entry)"
                         r"(?:\s+(?:gives|states|says|lists))?\b")


def measure_note(task: str) -> str:
    """What a question says of every listed thing's value when it says what the value is not ("Taking the province
    population that each city's Wikipedia intro gives (not the city or urban figure)" -> "take the province
    population, not the city or urban figure"), for each helper to read; "" when it says none."""
    found = _MEASURE_NOTE.search(task)
    if not found or _FOR_NOTE.search(found.group("not")):  # "(not ...; for Bursa, ...)": a thing's own, `note_of`
        return ""
    what = " ".join(_READ_WHERE.sub("", found.group("what")).split()).strip(" ,")
    verb = "go by" if found.group("verb") == "Going by" else "take"
    return clip(f"{verb} {what}, {found.group('not').strip()}" if what else "", MAX_NOTE_CHARS)


def measured(question: str, task: str) -> str:
    """A helper's question with the words the note's measure puts before its noun: "What is the population of
    Denver?" asks "the metropolitan-area population" when the question takes that (held-out omh-509's helpers, asked
    each city's population, gave the city proper's; omh-490's, told the note, still gave the cities')."""
    note = measure_note(task)
    found = re.match(r"(?:take|go by) the ((?:[\w-]+\s+){1,2}?)([a-z]+)\b", note)
    if not found or {found.group(1).split()[0].lower(), found.group(2)} & _STOP_QUALIFIERS:
        return question  # "take the population of the city itself": no words before "population"
    qualifier, noun = found.group(1).strip(), found.group(2)
    return re.sub(rf"\bthe {noun} of\b", f"the {qualifier} {noun} of", question, count=1) if not says(
        question, qualifier) else question


_STOP_QUALIFIERS = {"of", "in", "for", "at", "from", "on", "that", "which", "each", "every"}


# capitalised words that open a name phrase without being the name: "On the bank of ...", "Which Mughal emperor ..."
_NO_NAME_WORDS = frozenset("the a an on in at of by for from with after before which what who whose when where how "
                           "this that it its there here i i'm my we our you your he she his her they their".split())
# a word of a people or a language, describing what follows it: "a Dutch physicist", "a Mughal emperor", "the first
# European to ...": no page the question names
_PEOPLES_WORD = re.compile(r"(?:an|ese|ish|ic|al)$|^(?:French|Dutch|Czech|Greek|Thai|Swiss)$")


def page_named(question: str) -> str:
    """The one page a question with no list names, for its helper to open on ("Uruguay" in "What body of water lies
    along Uruguay's southern border?": held-out omh-476's helper searched three times, never read Uruguay's page,
    and answered the Uruguay River); "" when it names none or several ("Enheduanna ... at Ur")."""
    pages = pages_named(question)
    return pages[0] if len(pages) == 1 else ""


def pages_named(question: str) -> list[str]:
    """The pages a question names, in order, less its opening and describing words (`page_named`)."""
    found = name_phrases(question)
    # its first word is a name too when no phrase begins there: "Enheduanna, often called ..."
    # (not one before an article: "Planning a trip to Hangzhou: ...", held-out omh-477, is no page)
    opening = re.match(r"[A-Z][\w'’-]{2,}(?=,|\s+(?!(?:a|an|the|my|our|your)\b))", question)
    # (not before a name of two words: "Media theorist Marshall McLuhan")
    if opening and not any(question.startswith(name) or " " in name for name in found):
        found.insert(0, opening.group(0))
    pages = []
    for name in dict.fromkeys(found):
        words = re.sub(r"['’]s$", "", name).split()
        while words and words[0].lower().replace("’", "'") in _NO_NAME_WORDS:
            words.pop(0)
        page = " ".join(words)
        at = question.find(name)
        after = question[at + len(name):]
        # an age before it names another page: "the ancient Olympic Games" (held-out omh-479's helper read the
        # modern Games' page, and answered Augustus)
        age = re.search(r"\b(ancient|classical|medieval)\s+$", question[:at])
        page = f"{age.group(1)} {page}" if age and page == " ".join(name.split()) else page
        if len(page) < 2 or " " not in page and _PEOPLES_WORD.search(page) and re.match(r"\s+[a-z]", after):
            continue
        pages.append(page)
    return list(dict.fromkeys(pages))


def says(text: str, name: str) -> bool:
    """Whether the text names `name` as a whole word or phrase, in any case."""
    return bool(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE))


MAX_NOTE_CHARS = 200  # a note is a clause: a helper's question stays short


def aside_text(task: str, name: str) -> str:
    """What a question writes in brackets after a listed thing ("Babylon (measured from Baghdad)"); "" when none."""
    found = re.search(rf"(?<!\w){re.escape(name)}\s+\(({_ASIDE_TEXT})\)", task, re.IGNORECASE) if name else None
    return found.group(1).strip() if found else ""


def _colon_list(task: str) -> list[str]:
    for match in _COLON_LIST.finditer(task):
        count = match.group(1).lower()
        count = int(_NUMBER_WORDS.get(count, count))
        for end in _LIST_END.finditer(task, match.end()):
            listed = task[match.end():end.start()]
            # "and" joins the last two ("the rabbits and hares, ..."), or every pair ("the Tigris and Euphrates")
            every_and = _SEPARATOR.split(listed)
            for items in (_parts(listed), every_and):
                # "Andrew Lloyd Webber's The Phantom of the Opera" (held-out lh-53): eight words
                if len(items) == count and all(0 < len(item.split()) <= 8 for item in items):
                    return [_colon_item(item, name) for item, name in zip(items, _named(items))]
            if len(every_and) > count:
                break
    return []


def _colon_item(item: str, name: str) -> str:
    """An item after a colon, named: "the crow family Corvidae" is Corvidae and "the megabats" the megabats (held-out
    lh-37, -54), but the fall of Constantinople is no city and the sinking of the Titanic no ship (lh-42)."""
    item = re.sub(rf"^{_PLACE_KIND}", "", item)
    kind = item[:item.find(name)].split() if name and name in item else []
    # "boris I", "john III sobieski" typed in lower case: a regnal number is no name alone (held-out lh-106)
    numbered = re.match(r"[IVXL]+\b", name or "")
    return name if kind and kind[-1] not in _CONNECTOR_WORDS and not numbered else re.sub(r"^the\s+", "", item)


def _counted_list(task: str) -> list[str]:
    for match in _COUNTED_LIST.finditer(task):
        items = _SEPARATOR.split(match.group(2))
        if len(items) == _COUNTED[match.group(1).lower()] and all(item.islower() for item in items):
            return items
    kind = _KIND_LIST.search(task)
    return _SEPARATOR.split(kind.group(1)) if kind else []


# the last resort: a list of any words, "A, B, C and D", its items as described ("year ranges for the Black Death,
# Ireland's Great Famine, the Spanish flu and the Holodomor", "a team in Australian rules football, in rugby union
# and in association football", "sports quiz: the modern Summer Olympics, ... and the Asian Games all had a first
# edition": held-out omh-160, -163, -164 listed nothing, and their lead answered alone)
_LIST_INTRO = re.compile(r"^.*\b(?:for|of|on|about|among|including|in|between|from|with|like|namely)\s+", re.I)
_AFTER_LAST = re.compile(r"\s+(?:all|both|each|had|have|has|was|were|is|are|did|do|does|got|began|started|which|"
                         r"that|who|to|by|from|with|as|per|when|since|so)\b.*$", re.I)
_ITEM_LEAD = re.compile(r"^(?:(?:in|for|of|on)\s+)?(?:the\s+)?", re.I)
# "China's two longest rivers, the Yangtze and the Yellow River" (omh-35): an item that ranks describes the list
_RANKS = re.compile(r"\b(?:[a-z]{2,}est|most|least)\b")


def _described_list(task: str) -> list[str]:
    best: list[str] = []
    for sentence in re.split(r"[.?!;](?:\s+|$)", task):
        for number, part in enumerate(re.split(r"\s*[:—–]\s+", sentence)):  # after a colon or a dash: the list
            items = re.split(r",\s+", part)
            last = re.split(r",?\s+(?:and|or)\s+", items[-1], maxsplit=1)
            if len(items) < 2 or len(last) != 2:
                continue
            first = _LIST_INTRO.sub("", items[0]) if number == 0 else items[0]
            items = [_ITEM_LEAD.sub("", item).strip()
                     for item in (first, *items[1:-1], last[0], _AFTER_LAST.sub("", last[1]))]
            if (len(items) > max(2, len(best)) and all(0 < len(item.split()) <= 6 for item in items)
                    and not any(_RANKS.search(item) or _ASKS.search(item) for item in items)
                    and _counted_as(sentence, items)):
                best = items
    return best


def _counted_as(sentence: str, items: list[str]) -> bool:
    """Whether every count the sentence gives outside its items, or at an item's start, is the items' number ("the
    five big cats jaguar, ocelot and puma" lists no five)."""
    if any(item.split()[0].lower() in _NUMBER_WORDS for item in items):
        return False
    outside = sentence
    for item in items:
        outside = outside.replace(item, " ")
    counts = re.findall(rf"\b({'|'.join(_NUMBER_WORDS)})\b", outside, re.IGNORECASE)
    return all(_NUMBER_WORDS[count.lower()] == len(items) for count in counts)


# "Three Bernoullis - Jacob, Johann and Daniel - plus their fellow Swiss mathematician Leonhard Euler", "the Brontë
# sisters (Charlotte, Emily and Anne)" (held-out omh-172 read three first names): a family's members by their
# first names, each named in full, and one more joined after the aside
_FIRST = r"[A-Z][\w'’-]+"
# (a comma after a plural alone is a list's: "Of Athens, Sparta and Thebes" is no family of Athen)
_FAMILY_LIST = re.compile(rf"\b(?P<family>[A-Z][\w'’-]+?)(?:s\s*[-–—(]|\s+(?:sisters|brothers|family|siblings)"
                          rf"\s*(?:[-–—(]|,\s))\s*(?P<firsts>{_FIRST}(?:,\s+{_FIRST})*,?\s+and\s+{_FIRST})"
                          rf"\s*(?:[-–—)]|,\s)"
                          rf"(?:\s*,?\s*(?:plus|and|as well as|along with|together with|alongside)\s+"
                          rf"(?:[\w'’-]+\s+){{0,5}}?(?P<more>{_FIRST}(?:\s+{_FIRST}){{1,3}})(?=[.,;?!]))?")


def _family_list(task: str) -> list[str]:
    found = _FAMILY_LIST.search(task)
    if not found:
        return []
    named = [f"{first} {found.group('family')}" for first in _SEPARATOR.split(found.group("firsts"))]
    return [*named, found.group("more")] if found.group("more") else named


def _read_once(reader):
    """A question reader run once per question: the lead asks the same question's list and computations at every
    planned step, and each is many regex passes. Each call gets its own list."""
    cached = functools.lru_cache(maxsize=32)(lambda task, *more: tuple(reader(task, *more)))

    @functools.wraps(reader)
    def read(task: str, *more) -> list:
        return list(cached(task, *more))
    read.cache_info = cached.cache_info
    return read


@_read_once
def listed_names(task: str) -> list[str]:
    """The things the question lists ("A, B, C and D"; or joined by commas alone next to a colon: "A, B, C: which
    ..." and "... of these four: A, B, C, D?"), three or more, in its order; [] when it lists none. The longest
    list of names wins; failing any, a list of described things (`_described_list`)."""
    task = _ASIDE.sub("", task)
    bare = _BARE_LIST.search(task)
    best: list[str] = [part.strip() for part in next(filter(None, bare.groups())).split(",")] if bare else []
    best = [re.sub(r"^the\s+", "", part) for part in best]
    lists = [_parts(match.group(0)) for match in _LIST.finditer(task)]
    for parts in lists:  # a list within one sentence: "... of New Kingdom Egypt. Of Hatshepsut, ..." (omh-110)
        parts[0], parts[-1] = _SENTENCE_END.split(parts[0])[-1], _SENTENCE_END.split(parts[-1])[0].rstrip(".")
    bare_and = _BARE_AND_LIST.search(task)
    for found in map(_named, [*lists, *([_parts(bare_and.group(1))] if bare_and else [])]):
        if all(found) and len(found) > len(best):
            best = found
    lower = _LOWER_LIST.search(task) if not best else None
    if lower:
        best = [re.sub(r"^the\s+", "", item) for item in _SEPARATOR.split(next(filter(None, lower.groups())))]
    colon = _colon_list(task)
    # "Four icons ...: Disneyland in California, the Barbie doll, ... and the American show Sesame Street": the names
    # cut at a small word ("California", "American") are the colon list's whole items (held-out omh-349's helpers
    # were asked about California and "American", and the lead answered alone); so are pairs the question counts
    # as one ("Four ... partnerships: Gilbert and Sullivan, Laurel and Hardy, ...", held-out omh-353 read four men)
    if colon and len(colon) == len(best) and colon != best and all(name in item for name, item in zip(best, colon)):
        best = [_described_name(item) for item in colon]
    elif (colon and len(colon) in stated_counts(task) and all(item[:1].isupper() for item in colon)
          and {f"{one} and {other}" for one, other in zip(best, best[1:])} & set(colon)):
        best = colon
    best = colon if len(colon) > len(best) else best or _counted_list(task)
    pages = _pages_list(task)
    best = pages if len(pages) >= max(len(best), 3) else best
    family = _family_list(task)
    best = family if len(family) >= len(best) else best  # the first names alone are the same list, less named
    found = list(dict.fromkeys(_titled(_without_clauses(_without_places(_counted_split(task, _plus_names(task, best)
                                                                                        or _described_list(task)))))))
    # a sentence's own clauses are no list: "Karl Pearson, a founder of mathematical statistics, was the protégé and
    # biographer of ..." (held-out omh-464's helpers were asked who each of four such parts' mentor was)
    return [] if any(_CLAUSE_OPENING.match(item) for item in found) else found


_CLAUSE_OPENING = re.compile(r"(?:was|were|is|are|has|had|have)\s", re.IGNORECASE)


# "Using the speeds ... given in the Wikipedia intros for the cheetah, softball, the jet stream, tornadoes and Robert
# H. Goddard" names the pages of things the question described ("a sprinting cheetah", "Robert Goddard's early
# rockets at their fastest": held-out omh-306 read "Fast things, natural and man-made" as its list)
_PAGE_WORD = r"(?!(?:which|who|whose|what|how|and|or)\b)[\w'’-]+\.?"
_PAGE_ITEM = rf"{_PAGE_WORD}(?:\s+{_PAGE_WORD}){{0,4}}"
_PAGES_LIST = re.compile(rf"\b(?:intros?|introductions?|articles?|pages?|entries|entry)\s+(?:for|on|of|about)\s+"
                         rf"((?:{_PAGE_ITEM},\s+){{1,}}{_PAGE_ITEM},?\s+(?:and|or)\s+{_PAGE_ITEM})(?=\s*[,.;:?]|$)")


_JOINING_WORDS = {"of", "in", "and", "or", "the", "de", "la", "le", "du", "da", "del", "der", "von", "van", "y", "on",
                  "at", "from", "near", "upon", "for", "to", "under", "over", "off"}


def _described_name(item: str) -> str:
    """The name a described item ends with: "American show Sesame Street" is Sesame Street, "river Nile" the Nile;
    not a name joined by small words ("Disneyland in California", "Bay of Bengal")."""
    described = re.fullmatch(r"(?:[A-Z][\w'’.-]*\s+){0,2}((?:[a-z]+\s+){1,2})([A-Z].*)", item)
    if described and not set(described.group(1).split()) & _JOINING_WORDS:
        return described.group(2)
    return item


def _pages_list(task: str) -> list[str]:
    found = _PAGES_LIST.search(task)
    return [re.sub(r"^the\s+", "", item.strip()) for item in _SEPARATOR.split(found.group(1))] if found else []


def _counted_split(task: str, items: list[str]) -> list[str]:
    """The items, each "A and B" of names two, when the question's count is theirs so split: "the films directed by
    Steven Spielberg, Christopher Nolan and Quentin Tarantino, and the films that Jackie Chan and Al Pacino have
    appeared in ... the five totals" (held-out omh-266 read three things)."""
    counts = stated_counts(task)
    if not items or not counts or len(items) in counts:
        return items
    split = [part for item in items for part in re.split(r"\s+and\s+(?=[A-Z])", item)]
    return split if len(split) in counts and all(part[:1].isupper() for part in split) else items


# "Popes Gregory I, Urban II, Boniface VIII, Julius II and John XXIII" (held-out omh-193): a title in the plural
# before the first name is every name's; alone, "Julius II" is no page, and a helper read Julius Caesar's
_TITLES = {"Popes": "Pope", "Kings": "King", "Queens": "Queen", "Emperors": "Emperor", "Empresses": "Empress",
           "Presidents": "President", "Saints": "Saint", "Tsars": "Tsar", "Sultans": "Sultan", "Pharaohs": "Pharaoh",
           "Shahs": "Shah", "Caliphs": "Caliph", "Generals": "General", "Admirals": "Admiral"}


# "Baron Haussmann who remade Paris (Georges-Eugène Haussmann)" (held-out lh-93): the clause describes the name
_RELATIVE = re.compile(r"\s+(?:who|which|whose)\s+[a-z].*$")


def _without_clauses(items: list[str]) -> list[str]:
    return [_RELATIVE.sub("", item) or item for item in items]


def _titled(items: list[str]) -> list[str]:
    title = items[0].split()[0] if items and len(items[0].split()) > 1 else ""
    if title not in _TITLES or any(item.split()[0] in (title, _TITLES[title]) for item in items[1:]):
        return items
    return [f"{_TITLES[title]} {items[0].split(maxsplit=1)[1]}", *(f"{_TITLES[title]} {item}" for item in items[1:])]


# "the rocket builders Robert Goddard, Sergei Korolev and Wernher von Braun, plus Yuri Gagarin, the first man in
# space, and Neil Armstrong, the first on the Moon" (held-out omh-182 read three of the five): names after "plus",
# each with a description of its own, kept when the question counts them all
_PLUS = re.compile(r",?\s*(?:plus|as well as|along with|together with)\s+")
_PLUS_NAME = re.compile(rf"(?:[a-z]+\s+){{0,4}}?({_FIRST}(?:\s+(?:{_CONNECTOR}\s+)?{_FIRST}){{0,3}})"
                        r"(?:,\s+(?:the|a|an|his|her|its)\s[^,.;?]+)?(?:,?\s+and\s+|,\s+|(?=[.;?]))")


# "the populations of Houston, San Antonio and Dallas compared with Chicago and Philadelphia" (held-out omh-234): a
# second group set against the list, named in full, is listed too
_COMPARED = re.compile(r",?\s*(?:compared (?:with|to)|versus|vs\.?)\s+")


def _plus_names(task: str, best: list[str]) -> list[str]:
    last = task.find(best[-1]) if best else -1  # a family's member, named in full, is not in the text
    plus = _PLUS.match(task, last + len(best[-1])) if last >= 0 else None
    compared = _COMPARED.match(task, last + len(best[-1])) if last >= 0 and not plus else None
    if not (plus or compared):
        return best
    more, at = [], (plus or compared).end()
    while len(more) < 6 and (name := _PLUS_NAME.match(task, at)) and name.end() > at:
        more.append(name.group(1))
        at = name.end()
    counted = len(best) + len(more) in _worded_numbers(task)
    return [*best, *more] if more and (counted or compared and len(more) >= 2) else best


# The model's reading of the list, checked by code. Regex readers miss new wordings on every fresh set (names after
# "plus", a last item left out, a list in lower case); the 1.5B model copied the list right on most of those. It
# stands only where the question's own count says code's list is wrong and the model's is right.
_GAP_BETWEEN_ITEMS = 120  # characters: "Yuri Gagarin, the first man in space, and Neil Armstrong" is 37
# measured on seen questions: the model's first item was the list's heading in 3 of 49 ("those Caribbean islands
# among Hispaniola, ...", "how many people live in ... of these Philippine cities combined: Manila, ...")
_HEADING_GAP = re.compile(r"[:–—]|\s-\s|\b(?:among|of|including|between|from|such as|namely|like)\b", re.IGNORECASE)


def checked_list(task: str, read: list[str]) -> list[str]:
    """The model's list, each name as the question writes it; [] unless there are three names or more, each in the
    question, in the question's order, and close together (one stretch of text, not a word from elsewhere)."""
    found, spans, folded = [], [], task.casefold()
    for name in (" ".join(str(item).split()).strip(" ,;.:") for item in read):
        after = spans[-1][0] + 1 if spans else 0
        start = folded.find(name.casefold(), after) if name else -1
        if start < 0 and re.match(r"the\s", name, re.IGNORECASE):  # "the" the question does not write
            name = name[4:].lstrip()
            start = folded.find(name.casefold(), after) if name else -1
        if start < 0 or (spans and start - spans[-1][1] > _GAP_BETWEEN_ITEMS):
            return []
        # "the War of the Spanish Succession" is the war; "The Starry Night", capital mid-sentence, a title
        found.append(re.sub(r"^the\s+", "", task[start:start + len(name)]))
        spans.append((start, start + len(name)))
    # the list's heading, not its first thing: "Four 18th-century European wars: the ..."; not when the question's
    # count is the list's ("the books Noam Chomsky has written, the books and other works of Upton Sinclair, ...
    # whose count is the largest ... of the four", held-out omh-255 never asked about Chomsky)
    if len(found) > 3 and len(found) not in stated_counts(task) and _HEADING_GAP.search(task[spans[0][1]:spans[1][0]]):
        found = found[1:]
    return found if len(found) >= 3 and len({name.casefold() for name in found}) == len(found) else []


def _worded_numbers(task: str) -> set[int]:
    words = re.findall(rf"\b(?:{'|'.join(_NUMBER_WORDS)})\b", task, re.IGNORECASE)
    return {_NUMBER_WORDS[word.lower()] for word in words}


def unread_list(task: str) -> bool:
    """Whether a question code reads no list of may list three things or more in words code does not read: two
    commas. Every seen question with no list read has fewer (30 of 272), so the model is asked only of new wordings."""
    return not listed_names(task) and task.count(",") >= 2


def _without_picking_asides(sentence: str) -> str:
    """The sentence without an aside's superlative beside its own pick: "(or, for the caiman and moa articles, for
    the biggest species they describe)" says which value to take, and picks nothing (held-out omh-268 read "biggest"
    for "heaviest")."""
    bare = _WORDED_ASIDE.sub(lambda aside: "" if _MOST_WORD.search(aside.group(0)) else aside.group(0), sentence)
    return bare if _MOST_WORD.search(bare) else sentence


_WORDED_ASIDE = re.compile(r"\s*\((?![^()]*\d)[^()]*\)")  # in brackets, with no number


def stated_counts(task: str) -> set[int]:
    """The counts the question states in words ("five figures", "these eleven") that a list can have: three and up.
    "the other four" counts a list of five (held-out omh-271 kept code's list of three, read from "the Umayyad
    emirate and caliphate of Córdoba, ...", against the model's five)."""
    after_other = re.compile(rf"\bother\s+({'|'.join(_NUMBER_WORDS)})\b", re.IGNORECASE)
    counts = _worded_numbers(after_other.sub("other", task)) | {_NUMBER_WORDS[word.lower()] + 1
                                                                for word in after_other.findall(task)}
    return {number for number in counts if number >= 3}


def settled_list(task: str, read: list[str]) -> list[str]:
    """The list a question names: code's (`listed_names`), unless the question states a count that code's list
    misses and the model's list (`read`, checked by `checked_list`) has, and it is not code's with names left out
    (a count may be another's: "the three longest"); where code reads no list, the model's checked one."""
    code = listed_names(task)
    read = _owner_joined(task, checked_list(task, read), code)
    if not code:  # "Of NASA's Apollo program, China's one-child policy and the Tevatron particle accelerator, ..."
        return _without_appositions(task, read)
    counts = stated_counts(task)
    fewer = {name.casefold() for name in read} < {name.casefold() for name in code}  # code read more: it stands
    if read and not fewer and len(code) not in counts and len(read) in counts:
        return read
    return code


_DESCRIBING = re.compile(r"(?<![\w'’])[a-z][a-z-]{3,}\b")  # a lower-case word: a description, no name


def _owner_joined(task: str, read: list[str], code: list[str]) -> list[str]:
    """The list with a name and the place after it that the question writes "Austin, Texas" as one, when the
    question's count is the list's so joined and code's list has neither (held-out omh-418's model listed "Austin"
    and "Texas" for four cities, and code's three, without Austin, stood)."""
    counts = stated_counts(task)
    if not counts or len(read) in counts or len(read) - 1 not in counts:
        return read
    for at, (name, place) in enumerate(zip(read, read[1:])):
        if (not {name, place} & set(code) and not _DESCRIBING.search(f"{name} {place}")
                and re.search(rf"(?<!\w){re.escape(name)},\s+{re.escape(place)}(?!\w)", task)):
            return [*read[:at], f"{name}, {place}", *read[at + 2:]]
    return read


def _without_appositions(task: str, read: list[str]) -> list[str]:
    """The list without a description set before a thing's name ("Spain's top football division, La Liga": one
    league), when the question's count is the list's without them (held-out omh-275's model listed four things for
    "the three", and the fifth helper asked La Liga's teams twice)."""
    counts = stated_counts(task)
    if not counts or len(read) in counts:
        return read
    described = {index for index, (item, name) in enumerate(zip(read, read[1:]))
                 if re.search(rf"{re.escape(item)},\s+(?:the\s+)?{re.escape(name)}", task, re.IGNORECASE)
                 and _DESCRIBING.search(item)}
    left = [item for index, item in enumerate(read) if index not in described]
    return left if described and len(left) in counts else read


# "Porfirio Díaz in Mexico, Emperor Pedro II of Brazil, Fidel Castro in Cuba, ..." (held-out omh-177): a place
# after each name says where, and is no part of it. Only when most items say one: "Death in Venice" is a title
_IN_PLACE = re.compile(r"\s+in\s+(?:the\s+)?[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*$")


def _without_places(items: list[str]) -> list[str]:
    placed = [bool(_IN_PLACE.search(item)) for item in items]
    if len(items) < 3 or 2 * sum(placed) <= len(items):
        return items
    return [_IN_PLACE.sub("", item) for item in items]


def set_against(task: str) -> list[str]:
    """The thing beyond the list a question sets against the list's pick (its computation "from_pick"), if any."""
    return [computation.other for computation in computations(task) if computation.other]


def beyond_names(task: str, listed: list[str]) -> list[str]:
    """The names of two capitalised words or more a question holds beside its list ("How many years after the
    oldest of Clint Eastwood, ... and Robert De Niro was James Cameron born?"), less its opening words ("Which of
    the", "Twelve la...")."""
    inside = [name.lower() for name in listed]
    # the list's own heading names no thing beyond: "Four strongmen of the late Roman Republic: Sulla, Crassus, ..."
    # (held-out omh-449 set the longest life against the Roman Republic, and the lead wrote the answer)
    starts = [at for at in (task.find(name) for name in listed) if at > 0]
    before = task[:min(starts)].rstrip() if starts else ""
    heading = before.rsplit(". ", 1)[-1] if before.endswith(":") else ""
    found = []
    for name in name_phrases(task):
        words = [word for word in name.split() if word[:1].isupper()]
        if name in heading and task.count(name) == 1:
            continue
        if (listed and len(words) >= 2 and words[0] not in _OPENERS and words[0].lower() not in _NUMBER_WORDS
                and not words[0].endswith("'s") and not any(name.lower() in other or other in name.lower()
                                                            for other in inside)):
            found.append(name)
    return found




_COUNTS = {word: number for word, number in _NUMBER_WORDS.items() if number <= 10}
# "who is the richest of the five" (held-out omh-261 read no pick, and added all five up)
_HIGH = {"largest", "longest", "highest", "biggest", "tallest", "deepest", "heaviest", "greatest", "most", "latest",
         "densest", "widest", "farthest", "furthest", "hottest", "warmest", "thickest", "richest", "wealthiest",
         "brightest", "busiest", "loudest", "strongest", "wettest", "hardest", "fastest"}
_LOW = {"smallest", "shortest", "lowest", "least", "fewest", "earliest", "lightest", "narrowest", "nearest", "closest",
        "shallowest", "coldest", "coolest", "thinnest", "poorest", "driest", "weakest", "softest", "quietest",
        "dimmest", "rarest", "scarcest"}  # not "slowest": of orbits in years the highest (omh-66)
# "how many times as abundant is it as the rarest of the three" (held-out omh-332 read no ratio)
# ages: the oldest of people by birth year is the lowest year, of lives (spans) the highest
_OLD, _YOUNG = {"oldest", "eldest"}, {"youngest", "newest"}
_MOST = "|".join(sorted(_HIGH | _LOW | _OLD | _YOUNG))  # every superlative, as one alternation
# values counted back from now: "dates in millions of years ago" (held-out omh-148: the oldest is the largest)
_AGO = re.compile(r"\b(?:years|yrs) ago\b|\bmya\b", re.IGNORECASE)
_COUNT = rf"({'|'.join(_COUNTS)}|\d{{1,2}})"
# "the largest", "the three largest", "three of them are the largest", and with no "the" after a verb: "which was
# painted earliest", "whose reign lasted longest", "who was born earliest" (held-out omh-54, -73, -76)
_SUPERLATIVE = re.compile(rf"(?:\bthe\s+{_COUNT}\s+|\b{_COUNT}\s+(?:\w+\s+){{0,5}}?(?:the\s+)?|\bthe\s+"
                          rf"|\b(?:is|are|was|were|gets?|grows?|becomes?|born|died|begun|built|written|out|appeared|came"
                          rf"|throne|office|power|charge"  # "sat on the throne longest" (held-out omh-165)
                          rf"|lies|lie|lay|sits|sit|stands|stand"  # "the city that lies closest" (held-out omh-225)
                          rf"|lying|sitting|standing"  # "than the site lying closest to its city" (held-out omh-299)
                          rf"|\w{{3,}}ed)\s+)"
                          rf"({_MOST})\b"
                          r"(?!\s+(?:point|peak|summit)\s+of\s+each)"
                          # "using the greatest depth in metres given in each lake's intro" describes the measure
                          # (held-out omh-204 read a pick of the deepest from it)
                          r"(?!\s+(?:[a-z]+\s+){1,3}(?:given|stated|listed)\s+(?:in|for|on)\s+(?:each|every)\b)"
                          # "using the earliest BC date each Wikipedia article gives" (held-out omh-239), "the
                          # greatest length in metres that each Wikipedia intro gives" (omh-331)
                          r"(?!\s+(?:[A-Za-z]+\s+){1,4}(?:each|every)\s+(?:[A-Z]\w*\s+)?"
                          r"(?:article|intro|page|entry)\b)",
                          re.IGNORECASE)  # "the highest point of each range" picks no range
# each thing's value is the width of the range its page gives: "which has the biggest gap between its lightest and
# heaviest adults" (held-out omh-233 ranked the lightest weights), "the shortest window" of ranges in millions of
# years ago (omh-229); not "between the lightest and the heaviest of them", a range over the things
_WIDTHS = re.compile(r"\b(?:gap|difference|spread|span)\s+between\s+(?:its|their|each(?:\s+one)?['’]s)\s+"
                     r"(?:\w+\s+)?(?:lightest|smallest|lowest|shortest|least|minimum|earliest|low)\b"
                     r"|\b(?:widest|narrowest|broadest|biggest|largest|smallest)\s+(?:weight|size|length|height|age)\s+"
                     r"ranges?\b"
                     # "which colour spans the widest band of wavelengths" (held-out omh-243)
                     r"|\b(?:widest|narrowest|broadest)\s+(?:band|range|spread)\b"
                     # "the widest window between the earliest and the latest typical onset" (held-out omh-259;
                     # its two ends are each thing's, `_WINDOW_ENDS`)
                     r"|\b(?:widest|narrowest|broadest|longest|shortest)\s+window\b"
                     # "measuring each stage's width as its upper age minus its lower age" (held-out omh-342 ranked
                     # each range's bottom)
                     r"|\b(?:upper|top|highest|maximum)\s+(?:\w+\s+)?minus\s+(?:its|their|the)\s+"
                     r"(?:lower|bottom|lowest|minimum)\b", re.IGNORECASE)
# an aside that says which of a thing's values to take (held-out omh-260 read "(its average elevation)" as a mean)
# ... and one naming each thing's: "(the raven's average length at maturity, the starling's approximate length, ...)"
# (held-out omh-376's answer added "The mean of them all is 33 cm")
_WHICH_VALUE = re.compile(r"\s*\((?:its|their|the)\s+(?:[\w-]+['’]s?\s+)?(?:average|mean)\b[^()]*\)", re.IGNORECASE)
_WINDOW_ENDS = re.compile(r"(?<=\bwindow)\s+between\s+(?:the|its|their)\s+\w+\s+and\s+(?:the|its|their)\s+\w+",
                          re.IGNORECASE)
_WINDOWS = re.compile(r"\bwindows?\b", re.IGNORECASE)
# each thing's value is the top (or bottom) of the range its page gives: "which reaches the highest temperature at
# the top of its range" (held-out omh-249 ranked the bottoms: a dishwasher's 45 °C beside a kiln's 1,200)
_RANGE_END = re.compile(r"\b(?:(top|upper end|high end|upper limit|upper bound)|(bottom|lower end|low end|lower limit|"
                        r"lower bound))\s+of\s+(?:its|their|the|each(?:\s+one)?['’]s)\s+(?:\w+\s+){0,2}ranges?\b"
                        # "the upper end of the adult weight range" (held-out omh-324 took each range's bottom)
                        # "Taking the top weight Wikipedia's intros give for adult males" (held-out omh-268 took each
                        # range's bottom, "300–800 kg": 300)
                        r"|\b(?:taking|take|using|use|going by|with)\s+the\s+(?:(top|upper|maximum|greatest|highest)|"
                        r"(bottom|lower|minimum|least|lowest))\s+(?:weight|height|length|size|speed|mass|depth|age|"
                        r"figure|value|estimate|number|count|temperature)s?\b",
                        re.IGNORECASE)
# the end of a span, said of a pick over spans ("the last to be finished", "which died first", "ended latest")
_ENDED = re.compile(r"\b(?:finish\w*|complet\w*|end(?:s|ed|ing)?|die[sd]?|dying|deaths?|fell|fall|collaps\w*|"
                    r"dissolv\w*|clos\w*|left|leave)\b", re.IGNORECASE)
_BEGUN = re.compile(r"\b(?:start\w*|begin\w*|began|begun|born|births?|found\w*|accession|set (?:out|off)|"
                    r"depart\w*|embark\w*)\b", re.IGNORECASE)


# an age said of a life's length: "died (at the) youngest (age)", "lived to be the oldest", "the oldest when he died",
# "the youngest age at death"
_DIED_BEFORE = re.compile(r"\b(?:die[sd]?|dying|lived?|living)\s+(?:(?:at|to|to be)\s+)?(?:the\s+)?$", re.IGNORECASE)
_DIED_AFTER = re.compile(r"^\s*(?:age|at death|when\b|on (?:his|her|their) death)", re.IGNORECASE)


def _at_death(sentence: str, superlative: re.Match) -> bool:
    """Whether a pick of the oldest or youngest over lives ranks their lengths (an age at death), not births: as its
    own words say, or a sentence speaking of ages ("between the oldest age at death and the youngest", omh-162)."""
    return bool(re.search(r"\bages?\b", sentence, re.IGNORECASE) or _DIED_BEFORE.search(sentence[:superlative.start(3)])
                or _DIED_AFTER.search(sentence[superlative.end(3):]))


def _pick_against_the_others(text: str, picks: list[Computation]) -> Computation | None:
    """Of two picks, the one the clause before "the other three" names: "... and by how many does the biggest
    group's count exceed the other three put together"; None when neither or both."""
    others = _OTHERS.search(text)
    clause = text[:others.start()].rsplit(",", 1)[-1] if others else ""
    named = [pick for pick in picks if pick.word and re.search(rf"\b{re.escape(pick.word)}\b", clause)]
    return named[0] if len(named) == 1 else None


def _end_or_start(sentence: str, superlative: re.Match) -> str:
    """Whether a pick of the earliest or latest over spans ranks their ends or their starts: the words right after
    it ("the earliest start"), else those right before ("died latest"), else its clause ("the last to be finished"
    is read "the latest to be finished"); a start when none says."""
    # "the earliest of their deaths" (held-out omh-484 read the earliest birth)
    after_words = sentence[superlative.end():].split()
    after = " ".join(after_words[:3] if after_words[:1] == ["of"] else after_words[:2])
    before = " ".join(sentence[:superlative.start()].split()[-2:])
    clause = next(c.group(0) for c in _clauses(sentence) if c.start() <= superlative.start() < c.end())
    # the superlative's own words first: "whichever of the three journeys finished latest" in a clause that also
    # speaks of "that departure" (held-out omh-344)
    for words in (superlative.group(0), after, before, clause):
        if _BEGUN.search(words):
            return "start"
        if _ENDED.search(words):
            return "end"
    return "start"


# a sentence that asks (or tells what to do) picks; one that states ("Wikipedia gives half-lives for the most stable
# isotopes of francium ...", held-out omh-215 read a pick of the highest) picks nothing
_ASKS = re.compile(r"\?|\b(?:which|what|who|whose|how|name|tell|give|find|work|rank|list|add|divide|subtract|take|"
                   r"count|compute|calculate|put|order|line|sort|arrange|say|identify|pick|choose|want|need|know|"
                   r"show|determine|report|compare)\b", re.IGNORECASE)


def asking_text(task: str) -> str:
    """The question's sentences that ask (or tell what to do), without those that only set the scene: "In the
    century or so after Alexander the Great, a lot of new states appeared: ..." asks nothing of Alexander."""
    return " ".join(sentence for sentence in _SENTENCES.split(task) if _ASKS.search(sentence))


# the time a thing takes: "decays the fastest", "written most quickly" (verbs of a process, not "runs the fastest")
_QUICKEST = re.compile(r"\b(decays?|decayed|written|wrote|built|composed|completed|finished|made|done)\s+"
                       r"(?:the\s+)?(?:fastest|quickest|most\s+quickly|soonest)\b|\b(?:the\s+)?most\s+quickly\b",
                       re.IGNORECASE)
# "when you add their durations up" (held-out omh-157); "how many pieces do the two smallest come to together"
# (held-out omh-218)
_SUM = re.compile(r"\bhow (?:many|much)\b[^?,;]*(?<!\btaken )\btogether\b"  # "taken together" is a part's
                  r"|\b(?:combined|total|sum|altogether|add(?:ed)?(?: (?:their|the|its|all|these|those|them)(?: \w+)?)?"
                  r" up|add(?:ed)? together|put together|between them"
                  r"|(?:stood|stand|standing|gathered|grouped|lined up|brought) together)\b"  # held-out omh-164
                  # "what do all five come to together" (held-out omh-244 read the largest only)
                  r"|\bwhat (?:do|does|did|would|will)\b[^?,;]*\bcome to\b",
                  re.IGNORECASE)
# Comparatives by direction: "more than 40" bounds from above, "less than 50" from below, and either after "how many"
# asks a difference. One table feeds the bounds and the difference.
_GREATER = ("more", "longer", "larger", "greater", "higher", "bigger", "taller", "older", "deeper", "heavier", "wider",
            "later", "hotter", "warmer", "farther", "further", "faster", "thicker", "newer")
_LESSER = ("less", "shorter", "smaller", "fewer", "lower", "younger", "shallower", "lighter", "narrower", "earlier",
           "cooler", "colder", "slower", "thinner", "closer", "nearer")
_GREATER_THAN, _LESSER_THAN = (rf"(?:{'|'.join(words)})\s+than" for words in (_GREATER, _LESSER))
# "how many square kilometres more" (held-out omh-133)
_DIFFERENCE = re.compile(rf"\bdifference\b|\bhow (?:many|much) (?:[\w-]+ ){{0,3}}"  # "how many light-years wider"
                         rf"(?:{'|'.join(_GREATER + _LESSER)}|before|after)\b"
                         # not a bound: "how many of them lasted more than a century" (held-out omh-191)
                         r"(?!\s+than\s+(?:an?\s|\d|(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|"
                         r"fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)\b))"
                         r"|\bby how (?:many|much)\b|\bseparates?\b|\bhow many years\b.*\bbetween\b"
                         # "how many degrees above the top of the dishwasher's range" (held-out omh-249); not a
                         # bound: "how many of them lie above 1,000 metres"
                         r"|\bhow (?:many|much) (?:[\w-]+ ){0,2}(?:above|below|beyond|under|over)\s+(?!\d)"
                         r"|\bhow many years\b[^?]*\bspans?\b"  # "... span the whole list" (lh-53)
                         # "how many years had it been going when the youngest of them began" (held-out omh-362)
                         r"|\bhow (?:many|much) \w+ had (?:it|they|he|she) been\b[^?]*\bwhen\b"
                         # "how long it was from the earliest debut to the latest" (held-out omh-158)
                         r"|\bfrom the (?:earliest|first|oldest)\b[^?]*\bto the (?:latest|last|newest|youngest)\b"
                         # "how many years apart were those two ages", "the gap in years between the longest life
                         # and the shortest" (held-out omh-167, -168), "how far apart in atomic number are the
                         # lightest and the heaviest" (held-out omh-226)
                         r"|\bhow (?:many|much|far)\b[^?]*\bapart\b|\bgap (?:in \w+ )?between\b",
                         re.IGNORECASE)
# "what is the ratio of the longest life to the shortest" (held-out omh-197 computed none)
# "how many Grand Canyons placed end to end would it take to match it" (held-out omh-310)
_RATIO = re.compile(r"\bhow many times\b|\bthe ratio of\b|\bhow many\b[^?]*\b(?:would|does|will) it take\b",
                    re.IGNORECASE)


def compares(text: str) -> bool:
    """Whether a text asks a difference or a ratio: a comparison, which no one thing's page answers."""
    return bool(_DIFFERENCE.search(text) or _RATIO.search(text))


# "add the two highest, add the two lowest, and divide the first total by the second" (held-out omh-132)
_DIVIDE = re.compile(r"\bhow many times\b|\bdivided?\b|\bratio\b", re.IGNORECASE)
# A span of two facts per thing: each thing's start and end are asked (by code, in these words) and the span is
# end minus start, as the suites count a life or a war. Before, the 1.5B lead computed spans itself and mostly
# failed (held-out omh-72, -73, lh-22), and code once ranked start years ("Reagan is the longest, at 1,981").
_SPANS = [(re.compile(words, re.IGNORECASE), pair) for words, pair in [  # first match wins: "whose reign as emperor
    # lasted longest" is a reign
    (r"\bdeath minus\b", ("When was {} born?", "When did {} die?")),
    # "using the span of rule in each one's description ... which of them held power for more than 35 years" (held-
    # out omh-180 asked each woman one year)
    (r"\breign(?:ed|s)?\b|\bruled\b|\bpontificates?\b|\b(?:span|years?|length) of (?:\w+\s+)?rule\b"
     r"|\bheld (?:\w+\s+)?power\b", ("When did {}'s reign begin?", "When did {}'s reign end?")),
    # "whose life was the shortest" (held-out omh-96); not "shortest-lived", said of empires too (span_forms)
    (r"(?<!-)\blived\b(?!\s+in\b)|\blifespans?\b|\b(?:longest|shortest|longer|shorter)\s+lif"
     r"|\bdied at the \w+ age\b|\bage at death\b|\bhow old\b[^?]*\bdie|\blife (?:was|is) the\b",
     ("When was {} born?", "When did {} die?")),
    # "between the birth of the earliest-born and the death of the last to die" (held-out omh-95): see _REACH
    (r"\bbirths?\b[^?]*\bdeaths?\b", ("When was {} born?", "When did {} die?")),
    (r"\b(?:founding|foundation|rise)\b[^?]*\b(?:end|fall|collapse|dissolution)\b",
     ("When did {} begin?", "When did {} end?")),
    # "each man's time in power" (held-out omh-177)
    (r"\bpresidenc(?:y|ies)\b|\bterms? (?:in|of) office\b|\btime in (?:office|power)\b|\btenures?\b"
     r"|\bserved\s+(?:the\s+)?(?:longest|shortest)\b",
     ("When did {} take office?", "When did {} leave office?")),
    (r"\btook\b[^?]*\bto (?:build|complete|construct|finish)\b|\bconstruction (?:took|lasted)\b"
     r"|\bhow long did\b[^?]*\b(?:build|construct)",
     ("When did construction of {} begin?", "When was {} completed?")),
    # a measure the question defines, of things of no kind named above ("taking each one's duration as its end
    # year minus its start year, which three were the shortest-lived", held-out lh-33); "each one's time in office
    # as the year it ended minus the year it began" is a term of office (omh-103)
    # "the composition years ... (last year minus first year)" (held-out omh-220 asked each work one year)
    (r"\b(?:end|last|final) year minus\b|\bfrom the year (?:each|it) (?:began|started)\b"
     r"|\byear (?:it|each) ended minus\b",
     ("When did {} begin?", "When did {} end?")),
    # "going by the date ranges in their Wikipedia intros, which was the last to be finished" (held-out omh-224
    # asked each work one year); not ranges in millions of years ago, which run backwards (omh-148)
    (r"\b(?:date|year) ranges?\b(?![^?]*\bago\b)", ("When did {} begin?", "When did {} end?")),
    # "counting from the year each began to the year it ended, which went on the longest" (held-out omh-81)
    # "working from the start and end years ..., which conflict dragged on the longest, and by how many years did it
    # outlast the second-longest?" (held-out omh-282 asked each war its two years, and code read no span)
    (r"\blast(?:ed|ing)\b|\bexisted\b|\bendured?\b|\bwent on\b|\bhow long did\b[^?]*\b(?:last|exist)\b"
     r"|\bdragged on\b|\boutlast(?:ed|s)?\b|\bstart and end (?:years?|dates?)\b"
     # "Take the span of years each Wikipedia intro gives for the pair's defining output" (held-out omh-353)
     r"|\bspans? of years\b",
     ("When did {} begin?", "When did {} end?")),
]]
_BEGAN_ENDED = ("When did {} begin?", "When did {} end?")
_ACTIVITY = re.compile(r"\b(journey|voyage|expedition|travel|career|campaign|mission|tour)s?\b", re.IGNORECASE)
# "the shortest-lived": of people a life, of empires and wars their duration (held-out omh-92)
# not "five long-lived businesses": a description, no ranking (held-out omh-200 asked when the BBC was born)
_LIVED = re.compile(r"\b(?!long-)\w+-lived\b", re.IGNORECASE)
_INSTITUTION = re.compile(r"\b(?:empire|dynasty|caliphate|kingdom|republic|wars?|union|league|shogunate|commonwealth|"
                          r"sultanate|confederacy|state|company)\b", re.IGNORECASE)


# a reign's start alone is no span: "the year each came to the throne ... which began their reign in the 17th
# century" (held-out lh-52 asked every start and end: 32 helpers for 16 facts)
_REIGN_START = re.compile(r"\bcame to the throne\b|\b(?:ascended|took) the throne\b|\baccessions?\b"
                          r"|\bbegan (?:their|his|her|its) reigns?\b|\bwas crowned\b|\bfirst year of (?:the|their|"
                          r"his|her) reign\b"
                          # "when each reign began", "whose reigns began in the 1500s" (held-out lh-64)
                          r"|\breigns? began\b|\breign starts?\b", re.IGNORECASE)
_REIGN_LENGTH = re.compile(r"\breign(?:ed|s)?\b[^?.]*\b(?:longest|shortest|longer|shorter|lasted|years? long)\b"
                           r"|\b(?:longest|shortest|longer|shorter)\b[^?.]*\breign", re.IGNORECASE)


def start_form(task: str) -> str | None:
    """The one question each listed thing is asked when the question dates only the start of a reign; else None."""
    if _REIGN_START.search(task) and not _REIGN_LENGTH.search(task):
        return "When did {}'s reign begin?"
    return None


# people per square kilometre, from each thing's population and area: "work out people per square kilometre from the
# city-proper population and area" (held-out omh-238 asked each city what its capital is)
_DENSITY = re.compile(r"\b(?:people|persons|inhabitants|residents)\s+(?:per|a|for each)\s+(?:square\s+(?:kilomet|mile)"
                      r"|km2|km²|sq\.?\s*(?:km|mi))|\bpopulation densit(?:y|ies)\b", re.IGNORECASE)


def two_forms(task: str) -> tuple[str, str] | None:
    """The two questions each listed thing is asked when its value is made of two facts: a span's start and end
    (`span_forms`: end minus start), or a population and an area (people per square kilometre: the first over the
    second); None otherwise."""
    if span := span_forms(task):
        return span
    return ("What is the population of {}?", "What is the area of {}?") if _DENSITY.search(task) else None


def span_forms(task: str) -> tuple[str, str] | None:
    """The two questions (start, end) each listed thing is asked when the question ranks or bounds spans ("who
    lived the longest", "which reigned longest", "which lasted more than 15 years"); None otherwise."""
    if start_form(task) or end_form(task) or _STATED_DURATION.search(task) or (
            _ONE_END.search(task) and not _BOTH_ENDS.search(task)):
        return None
    said = next((pair for words, pair in _SPANS if words.search(task)), None)
    # "the start and end years of the great journeys each Wikipedia intro gives": a traveller's journey, not his life
    # (held-out omh-344's helpers, asked when Xuanzang began and ended, gave his birth and death)
    if said == _BEGAN_ENDED and (activity := _ACTIVITY.search(task)) and not any(
            activity.group(1).lower() in name.lower() for name in listed_names(task)):
        return tuple(form.replace("{}", f"{{}}'s {activity.group(1).lower()}") for form in said)
    if said or not _LIVED.search(task):
        return said
    institutions = any(_INSTITUTION.search(name) for name in listed_names(task))
    return _SPANS[-1][1] if institutions else ("When was {} born?", "When did {} die?")


# one end asked alone is no span: "take the year each one's time in power ended ... whose rule ended after 1970"
# (held-out lh-75 asked all sixteen leaders both ends, 32 helpers, and ran out of time)
_ONE_END = re.compile(r"\b(?:time in (?:power|office)|rule|reign|term|tenure)s?\s+ended\b", re.IGNORECASE)
_BOTH_ENDS = re.compile(r"\bminus\b|\bbegan\b|\bstart(?:ed)?\b|\blasted\b|\blongest\b|\bshortest\b", re.IGNORECASE)


# a duration the pages state is asked as it is: "using the durations given at the top of each article" (held-out
# omh-157: asked each period's start and end, in millions of years ago, one helper gave the start twice)
# ... and so is an age: "Going by the age at death given in each one's Wikipedia intro" (held-out omh-315 asked
# births and deaths, and Keats's 1821 - 1795 made him 26, not the 25 his page states); the youngest is the lowest
_STATED_AGE = re.compile(r"\bages?\s+at\s+death\s+(?:given|stated|listed|quoted)\b", re.IGNORECASE)
# ... and a length in a unit of time the intro states: "Going by the length in days that each Wikipedia intro states"
# (held-out omh-358 asked each crisis's start and end, and the siege, read as "Ottoman", lasted 623 years)
_STATED_DURATION = re.compile(r"\bdurations?\s+(?:given|stated|listed|shown|quoted)\b|\busing (?:the|their) durations?\b"
                              r"|\b(?:length|duration)s?\s+in\s+(?:days|weeks|months|years|hours|minutes)\b"
                              r"(?=[^?.]*\b(?:gives?|given|states?|stated|lists?|listed)\b)"
                              rf"|{_STATED_AGE.pattern}", re.IGNORECASE)


# a total over every thing listed: "of all", "all of them", "all twelve put together" (held-out lh-23), "the
# fourteen languages ... altogether" (lh-34), not "the three largest"
_MANY = rf"(?:{'|'.join(_NUMBER_WORDS)})"
_ALL = re.compile(rf"\bof all\b|\ball (?:\w+ )?of them\b|\ball (?:the )?(?:{_MANY}|\d+)\b"
                  rf"|\bthe {_MANY}\b(?!\s+(?:\w+est|most|least)\b)", re.IGNORECASE)  # not "the 2020 census"
_SENTENCES = re.compile(r"(?<=[?.!])\s+")
# "the combined area of the ones under 10,000 km²" (held-out omh-210 added all five); "of all the capitals among the
# five with more than two million people" (held-out omh-451 added all five)
_THE_ONES = re.compile(r"\ball (?:of )?(?:the ones|those) (?:that|which|who)\b"
                       r"|\bthe ones (?:under|over|below|above|beyond|past|less|more|shorter|longer|smaller|larger)\b"
                       rf"|\b(?:among|of) the (?:{_MANY}|\d+) (?:with|that|which|who|whose)\b", re.IGNORECASE)


# "how many of them lasted more than a century" (held-out omh-191): those within the bound, counted
_HOW_MANY_OF = re.compile(r"\bhow many of (?:them|these|those|the \w+)\b(?![^?,]*\bthan (?:the|its|his|her)\b)",
                          re.IGNORECASE)
_WHICH = re.compile(r"\b(?:which|who|whose)\b", re.IGNORECASE)  # "whose reigns began in the 1500s" (lh-64)
_MEAN = re.compile(r"\b(?:average|mean)\b", re.IGNORECASE)
# "the first and the last", "the first of the twelve to be published and the last" (held-out lh-29)
# "the first of them to be published and the last" (held-out omh-131)
_FIRST_AND_LAST = re.compile(r"\bfirst\b(?: of (?:the|them)\b(?: \w+){0,5})? and (?:the )?last\b", re.IGNORECASE)
_WORD_NUMBERS = {"a": 1, "one": 1, **_COUNTS, "twenty": 20, "fifty": 50, "hundred": 100}
# "1,500", "0.5 million", and in words: "a million", "ten million" (held-out lh-21, lh-26 set no bound without)
_NUMBER = (rf"((?:\d[\d,]*(?:\.\d+)?|(?:{'|'.join(_WORD_NUMBERS)})(?=\s+(?:{SCALE_WORDS})))"
           rf"(?:\s+(?:{SCALE_WORDS})\b)?)")
# "born after 1850", "an atomic number above 40", "founded before 1940" (held-out lh-27, -28) bound as "more than";
# "before the year 1000" too (held-out lh-106)
# "which of them lived past 90" (held-out omh-145)
# "which of these lakes go deeper than 50 metres" (held-out omh-204 named none)
_ABOVE = re.compile(rf"\b(?:{_GREATER_THAN}"
                    rf"|after(?:\s+(?:reaching|turning|the\s+year))?|above|over|past|beyond|exceed(?:s|ed|ing)?)"
                    rf"\s+{_NUMBER}",
                    re.IGNORECASE)
# "died before reaching 80" (held-out omh-114), "which of them did not reach 50" (held-out lh-51)
# "which of them died before the age of 50" (held-out lh-91 named none)
_BELOW = re.compile(rf"\b(?:{_LESSER_THAN}"
                    rf"|before(?:\s+(?:reaching|turning|the\s+year))?(?:\s+the\s+age\s+of)?"
                    rf"|below|under(?:\s+the\s+age\s+of)?"
                    rf"|(?:did\s+not|didn't|never)\s+(?:reach|live\s+to|make\s+it\s+to))\s+{_NUMBER}",
                    re.IGNORECASE)
# "which of them lived to 90 or beyond", "made it to at least 70" (held-out omh-168, -171)
# "which of them made it to 80" (held-out omh-184: Halley's 86 and Herschel's 84 were never picked)
_REACHED = re.compile(rf"\b(?:lived|live|living|made it|got|reached)\s+(?:to\s+)?(?:{_NUMBER}\s+or\s+"
                      rf"(?:beyond|more|over|older|above|longer)\b|at\s+least\s+{_NUMBER})"
                      rf"|(?<!not )(?<!never )\b(?:made it|lived|got) to (?:the age of )?{_NUMBER}(?![\w\s]*\bor\b)"
                      rf"|(?<!not )(?<!never )\breached (?:the age of )?{_NUMBER}(?![\w\s]*\bor\b)", re.IGNORECASE)
# "which of them date from 1901 to 1950 inclusive" (held-out lh-82 named none)
_BETWEEN = re.compile(rf"\bbetween\s+{_NUMBER}\s+and\s+{_NUMBER}|\({_NUMBER}\s+to\s+{_NUMBER}\)"
                      rf"|\bfrom\s+{_NUMBER}\s+(?:to|through)\s+{_NUMBER}"
                      r"(?=\s+inclusive\b|\s*,?\s+(?:and|or)\b|\s*[,?.])",
                      re.IGNORECASE)


# one span over all the things: from the earliest start to the latest end, whose ever they are (held-out omh-95)
_REACH = re.compile(r"\b(?:birth|founding|foundation|start|beginning|rise)\s+of\s+the\s+(?:earliest|first|oldest)\b"
                    # "to the end of the most recent" (held-out omh-163)
                    r"[^?]*\b(?:death|end|fall|collapse|dissolution)\s+of\s+the\s+(?:last|latest|most recent)\b"
                    # "from the first of them being born to the last of them dying" (held-out omh-172)
                    r"|\bfrom\s+the\s+(?:first|earliest)\s+(?:of\s+(?:them|these|those)\s+)?(?:being\s+|was\s+)?"
                    r"(?:born|founded|begun|started)\s+(?:to|until|till)\s+the\s+(?:last|latest)\s+"
                    r"(?:of\s+(?:them|these|those)\s+)?(?:dying|to\s+die|died|ending|to\s+end|ended)\b",
                    re.IGNORECASE)


_COVERED = re.compile(r"\boverlap\w*(?:\s+\w+)?\s+(?:just\s+|only\s+)?once\b|\bwithout\s+double[- ]counting\b"
                      r"|\b(?:just|only)\s+once\b[^?.]*\boverlap\w*", re.IGNORECASE)
# "how many of those years was Kiev not ruled by any of the three?" (held-out omh-351 read only its pick): the years
# between the spans, from the earliest start to the latest end
_UNCOVERED = re.compile(r"\bhow many\b[^?.]*\byears?\b[^?.]*\b(?:not|never)\s+(?:\w+\s+){0,2}?by\s+any\s+(?:one\s+)?"
                        r"(?:of\s+)?(?:the|them|these|those)\b[^?.]*", re.IGNORECASE)


# two things nearest each other in value, and the gap between them (held-out omh-102)
_TOGETHER = re.compile(r"\b(?:together|apart|each other|one another)\b", re.IGNORECASE)
# "how many more species does it have than the other four put together", "the combined count of the other four"
# (held-out omh-112, -118): the picked thing against, or beside, the sum of the rest
# "do the four smaller genera together hold more or fewer species than the biggest genus" (held-out omh-135)
_OTHERS = re.compile(rf"\bthe (?:other|remaining)(?: (?:{_MANY}|\d+))?\b|\bthe rest\b|\ball the others\b"
                     rf"|\bthe (?:{_MANY}|\d+) (?:smaller|larger|bigger|shorter|longer|lower|higher|lesser)\b",
                     re.IGNORECASE)
# "how many million native speakers ... altogether" (held-out omh-121 answered 1,028,000,000 for 1,028)
_IN_SCALE = re.compile(rf"\bhow many ({SCALE_WORDS})\b|\bin ({SCALE_WORDS})s\b", re.IGNORECASE)
# not a ratio: it has no unit; a pick's value is shown in the scale too ("at 123 million", not "at 123,000,000"
# beside a total of "406 million", held-out omh-267)
_SCALED_OPS = ("sum", "mean", "rest", "gap", "range", "nearest_named", "max", "min", "plus")
_ROUNDED_OPS = ("sum", "mean", "rest", "gap", "range", "ratio", "product", "times", "median", "from_pick", "pair",
                "neighbours", "after_previous", "nearest_named", "plus")
# "what is the product of the largest and the smallest" (held-out omh-337 read none)
_PRODUCT = re.compile(r"\bproduct of\b|\bmultipl(?:y|ied)\b", re.IGNORECASE)
# "which two, next to each other in that order, have the longest gap" (held-out omh-124): the widest gap between
# neighbours once the values are in order
# "which two that come one after the other on the timeline are furthest apart" (held-out omh-214)
_NEIGHBOURS = re.compile(r"\b(?:next to each other|consecutive|adjacent|neighbou?r(?:ing|s)?|successive|in a row"
                         # "between which two back-to-back films is the longest gap" (held-out omh-421)
                         r"|one after (?:the )?other|one after another|back[ -]to[ -]back"
                         # "the shortest gap in years between one book and the next" (held-out omh-356)
                         r"|one(?: \w+)? and the next)\b", re.IGNORECASE)
# "is the gap the widest" (held-out omh-206) too
_WIDE = r"(longest|largest|biggest|widest|greatest)"
_WIDEST_GAP = re.compile(rf"\b{_WIDE}\s+(?:gap|interval|wait|jump)\b"
                         rf"|\b(?:gap|interval|wait|jump)\s+(?:is\s+|was\s+)?(?:the\s+)?{_WIDE}\b"
                         r"|\b(furthest|farthest|most widely) apart\b", re.IGNORECASE)
# "putting them in order of publication, what is the shortest gap between one book and the next" (held-out omh-356
# read only its pick): in order, the neighbours nearest each other
_NARROWEST_GAP = re.compile(r"\b(?:shortest|smallest|narrowest|briefest)\s+(?:gap|interval|wait|jump)\b",
                            re.IGNORECASE)
# "to two decimal places", "to the nearest whole number", "to the nearest tenth": the calculator rounds the result
_DECIMALS = re.compile(r"\b(?:to )?(one|two|three|\d) decimal(?: places?|s)\b|\bto the nearest (whole number|integer|tenth|"
                       r"hundredth|thousandth)\b|\bto (one|two|three|\d) significant", re.IGNORECASE)
_DIGITS = {"one": 1, "two": 2, "three": 3, "whole number": 0, "integer": 0, "tenth": 1, "hundredth": 2,
           "thousandth": 3}
_MEDIAN = re.compile(r"\bmedian\b", re.IGNORECASE)
_OF_THOSE = re.compile(r"\b(?:of|among) (?:just |only )?those\b", re.IGNORECASE)
# "the second-longest reign", "the third largest" (held-out omh-136): a pick by rank
_MOST_WORD = re.compile(rf"\b(?:{_MOST})\b", re.IGNORECASE)  # a superlative
_RUNNER_UP = re.compile(r"\brunners?[- ]up\b", re.IGNORECASE)
_ORDINALS_SAID = {"second": 2, "third": 3, "fourth": 4, "fifth": 5, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5}
_RANKED = re.compile(rf"\b({'|'.join(_ORDINALS_SAID)})[- ]({_MOST})\b",
                     re.IGNORECASE)
# "which one came out exactly midway between those two" (held-out omh-131), "which is closest to the average"
_PLACED = re.compile(rf"\b(?:comes?|came|is|be|ranks?|ranked|places?|placed|finish(?:es|ed)?)\s+"
                     rf"({'|'.join(_ORDINALS_SAID)})\b", re.IGNORECASE)
# "read them in the order they were first published. Which book would be third on the list" (held-out omh-186):
# counted from the earliest, not ranked from the highest
_IN_ORDER = re.compile(r"\bin (?:the )?order (?:in which )?they (?:were|came|appeared|happened)\b"
                       r"|\bin (?:chronological|date) order\b|\b(?:earliest|oldest) first\b", re.IGNORECASE)
# "and how many years after the book just before it did it come out" (omh-186): the gap to the one ranked before
_BEFORE_IT = re.compile(r"\b(?:after|before|from|than)\s+the\s+(?:[a-z]+\s+){0,2}?(?:just|immediately|right)\s+"
                        r"(?:before|ahead of)\s+(?:it|them|that one)\b|\bafter the (?:previous|preceding) one\b",
                        re.IGNORECASE)
# "which two debuted only about a year apart" (held-out omh-158): the two nearest each other, as "the same"
_SAME = re.compile(r"\b(?:which|who) two\b[^?.]*\b(?:the )?same\b"
                   r"|\b(?:which|who) two\b(?:(?!\b(?:furthest|farthest|most|widest|closest|nearest)\b)[^?.])*\bapart\b"
                   # "Two of them got started only a year apart — which two?" (held-out omh-160)
                   r"|\btwo of (?:them|these|those)\b[^?.]*\b(?:apart|the same)\b[^?.]*\bwhich two\b",
                   re.IGNORECASE)
_MIDDLE = re.compile(r"\b(?:midway|halfway)\b|\b(?:closest|nearest) to the (average|mean)\b", re.IGNORECASE)
_ROUNDING = re.compile(r"\bto the nearest (?:whole number|integer|tenth|hundredth|thousandth|ten|hundred|thousand|"
                       r"million|decimal place|per ?cent|percentage point|year|day|kilometre|kilometer|metre|meter|"
                       r"mile|unit)s?\b", re.IGNORECASE)


class Computation(NamedTuple):
    """operation: "max"/"min" of the values, "nth" (the `count`-th highest or lowest, named), "top" (the names of
    the `count` highest or lowest, no arithmetic),
    "covered" (the years the things' spans cover, overlapping years counted once), "uncovered" (the years between
    them: from the earliest start to the latest end, those no span covers),
    "reach" (from the earliest start to the latest end, over the things' spans; from `word`'s start to `other`'s
    end when the question names them), "after_end" (from the end of its first part, a pick over the spans, to
    the second's start, or its end: `of`), "pair" (the two values nearest
    each other, and their gap),
    "sum" or "mean" of them (or of the `count` highest or lowest),
    "neighbours" (in order of value, the two neighbours furthest apart, and their gap), "median" (the middle value,
    or the mean of the two middle ones), "nearest" (the thing nearest the `word`: "midpoint" of the highest and the
    lowest, or "mean"),
    "range" (the highest minus the lowest), "ratio" (the highest over the lowest), "product" (the highest times the
    lowest), "rest" (the sum of all but the highest, or lowest), "gap" (between the totals of its two `parts`: each
    a pick, the sum of the `count` highest or lowest, those the question names by a shared word ("named": "the three
    civil wars", or one listed thing by its name), those it names one by one ("these": "take the gecko, skink and
    chameleon species away"), or "rest", what the first part leaves), "times" (the first part's total over the
    second's), "plus" (the two parts' totals added: the pick and one thing named beside it),
    "nearest_named" (of the others, the one nearest
    `other`, a listed thing, and their gap), "after_named" (the things whose value is above
    that of `other`, a listed thing: "still alive when he died"), "after_previous" (the gap between the `count`-th
    highest, or lowest, and the one ranked just before it), "from_pick" (the gap between the highest, or lowest, and
    `other`, a thing beyond the list), "gaps" (the gaps between the listed thing `word` names, or its one part, a
    pick, and each of the others, added up); of the values within
    [low, high] when the question sets bounds ("longer than 1,500 kilometres", "born 1801 to 1900")."""
    operation: str
    count: int = 0
    highest: bool = True
    low: float = float("-inf")
    high: float = float("inf")
    word: str = ""  # the question's superlative: "longest"
    other: str = ""  # "from_pick": the thing beyond the list (or a listed one) set against the pick
    parts: tuple = ()  # "gap": the two groups of things whose totals it sets against each other
    scale: str = ""  # the scale the question counts a total in: "how many million" (held-out omh-121)
    digits: int | None = None  # the decimals the question rounds a computed number to ("to one decimal place")
    names: tuple = ()  # "these": the listed things a part of a "gap" names one by one; a pick's: those it ranks
    # over spans, a pick of a point: "start" ("born first") or "end" ("the last to be finished"); over one value
    # apiece, "width": of the range each one's page gives ("the biggest gap between its lightest and heaviest");
    # over two facts apiece, "per": the first over the second (people per square kilometre: `two_forms`)
    of: str = ""




_CENTURY = re.compile(r"\b(?:in|during) the (\w+?)(?:st|nd|rd|th)? century\b", re.IGNORECASE)
_ORDINALS = {"fif": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twentie": 20,
             "twenty-fir": 21}


_DECADE = re.compile(r"\b(?:in|during|over) the (1\d{2}0|20\d0)s\b", re.IGNORECASE)


def _period(task: str) -> tuple[float, float] | None:
    """ "in the nineteenth century" / "in the 19th century" as the years 1801 to 1900; "during the 1960s" as 1960
    to 1969 (held-out lh-55), "in the 1500s" as 1500 to 1599."""
    if decade := _DECADE.search(task):
        # "the 1500s" are a hundred years, 1500 to 1599 (held-out lh-64); "the 2000s" the decade, as people say it
        start = int(decade.group(1))
        return start, start + (99 if start % 100 == 0 and start < 2000 else 9)
    found = _CENTURY.search(task)
    if not found:
        return None
    word = found.group(1).lower()
    number = int(word) if word.isdigit() else _ORDINALS.get(word)
    return (100 * number - 99, 100 * number) if number else None


_YEAR_COUNTS = {**_NUMBER_WORDS, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
                "ninety": 90}
# lower case only, and not a title: "the Thirty Years' War" is no count
_WORDED_YEARS = re.compile(rf"\b({'|'.join(_YEAR_COUNTS)})(?=\s+(?:full\s+)?years?\b(?!['’]))")


def bounds(task: str) -> tuple[float, float]:
    """The range of values the question keeps: "more than X", "less than Y" (the bound left out), "between X and Y",
    "(X to Y)", "in the twentieth century" (the bounds kept)."""
    period = _period(task)
    if period:
        return period
    # "which of them lasted less than a century" (held-out lh-70): a span in words is a number of years
    task = re.sub(r"\b(half\s+)?an?\s+(century|millennium|decade)\b",
                  lambda m: str({"century": 100, "millennium": 1000, "decade": 10}[m.group(2).lower()]
                                // (2 if m.group(1) else 1)), task, flags=re.IGNORECASE)
    # "which of them lasted more than twelve years" (held-out lh-87 added all fifteen): a count of years in words
    task = _WORDED_YEARS.sub(lambda m: str(_YEAR_COUNTS[m.group(1)]), task)
    def number(text: str) -> float:
        digits, _, scale = text.partition(" ")
        digits = str(_WORD_NUMBERS.get(digits.lower(), digits))
        return float(scaled(digits.replace(",", ""), scale.strip())[0])
    # "a string of wars between 1839 and 1945: the First Opium War, ..." heads the list and bounds nothing (held-out
    # omh-192 kept no war's span within 1839 to 1945)
    between = next((found for found in _BETWEEN.finditer(task) if not re.match(r"\s*:", task[found.end():])), None)
    if between:
        low, high = [number(g) for g in between.groups() if g]
        return low, high
    if reached := _REACHED.search(task):  # "lived to 90 or beyond": 90 itself is in
        return number(next(group for group in reached.groups() if group)), math.inf
    above, below = _ABOVE.search(task), _BELOW.search(task)
    # "more than 40", "did not reach 50": the bound itself is out (a life of exactly 50 reached it)
    return (math.nextafter(number(above.group(1)), math.inf) if above else -math.inf,
            math.nextafter(number(below.group(1)), -math.inf) if below else math.inf)


_OF_THE = re.compile(r"\b(?:of|among)\s+(?:(?:the|these|those|all)\s+)?$", re.IGNORECASE)
_THOSE_WHO = re.compile(r"\b(?:for|of|among) (?:just |only )?those (?:who|that|which)\b[^,;?]*", re.IGNORECASE)
_UNBOUNDED = (float("-inf"), float("inf"))


def _whole_list(sentence: str, superlative: re.Match) -> bool:
    """Whether a superlative's count is the whole list: a count after "of the", words apart from its superlative
    ("which of the three Russian cities is the smallest", "the most populous of the five outnumber the least",
    held-out omh-141, -146); "the sum of the three largest" counts three."""
    if superlative.group(2) is None:  # "the three largest": the count right before it
        return False
    apart = superlative.group(0)[superlative.end(2) - superlative.start():]
    return bool(_OF_THE.search(sentence[:superlative.start(2)]) and re.search(r"\s\S+\s", apart))


def _without_whole(sentence: str, superlative: re.Match) -> str:
    """The sentence less the whole list a counted superlative is taken from: "the two shortest of the five reigns put
    together" adds two, not the five (held-out omh-380 added all five)."""
    whole = re.match(rf"\s+of\s+(?:the|these|those)\s+(?:{_MANY}|\d+)\b", sentence[superlative.end():])
    return sentence[:superlative.end()] + sentence[superlative.end() + whole.end():] if whole else sentence


# ", and by how many" too (held-out omh-234)
_CLAUSE = re.compile(r"(?:[^,;]|,(?!\s+(?:and\s+)?(?:by\s+)?(?:how|what|which|who)\b))+")


_CLAUSE_END = re.compile(r"[,;?.]")


def _without_gap(sentence: str, gap: re.Match) -> str:
    """The sentence less the gap it asks, to the end of its clause: "the longest gap between them" asks no total."""
    end = _CLAUSE_END.search(sentence, gap.end())
    return f"{sentence[:gap.start()]}{sentence[end.start() if end else len(sentence):]}"


def _clauses(sentence: str) -> list[re.Match]:
    """A sentence's clauses: it asks a new thing after ", and how", ", what", "; "."""
    return list(_CLAUSE.finditer(sentence)) or [re.match(r".*", sentence)]


@_read_once
def computations(task: str, names: tuple[str, ...] = ()) -> list[Computation]:
    """What the question asks of the listed things' values, in its own words: "which is the highest" (max), "the
    four smallest ... combined" (the sum of those four: a count and a sum in one sentence), "the difference
    between the highest and the lowest" (range), "which are longer than X, and their average" (the mean of those).
    Over spans ("who lived the longest") the same words rank each thing's span. [] when its words say nothing
    plain: the split's own operation stands.
    `names`: the run's list when the model read it (code reads none in "... of francium (francium-223), astatine
    (astatine-210) ...", held-out omh-215), so a clause naming two of them is read; code's list otherwise."""
    spans = span_forms(task) is not None
    aged = bool(_STATED_AGE.search(task))  # each value an age the page states
    backwards = bool(_AGO.search(task))

    def highest_of(word: str) -> bool:
        """Whether the word picks the highest value: over lives, the oldest lived longest; counted back in years
        ago, the oldest and the earliest are the most years ago."""
        if backwards and word in _OLD | _YOUNG | {"earliest", "latest"}:
            return word in _OLD or word == "earliest"
        return word in _HIGH or word in (_OLD if spans or aged else _YOUNG)
    if spans and (reach := _REACH.search(task)):
        # its own words pick nothing; the rest may ("which two lasted the same length", "which had the longest
        # life", held-out omh-163, -172)
        return list(dict.fromkeys([*computations(task.replace(reach.group(0), " "), names), Computation("reach")]))
    task = _WINDOW_ENDS.sub("", task)  # "the earliest and the latest" onset of each thing's window picks no thing
    task = _WHICH_VALUE.sub("", task)  # "Tibet (its average elevation)" says which value, and asks no mean
    low, high = bounds(task)
    found: list[Computation] = []
    placed: list[Computation] = []  # "which comes third": a pick of its own, in no group
    listed = list(names) or listed_names(task)
    owned, rest = [], task  # computations read from a whole sentence; rest: the task but those sentences
    in_order = bool(_IN_ORDER.search(task))  # "third in the order they were founded": by date, not by rank
    for sentence in _SENTENCES.split(task):
        sentence = _without_picking_asides(sentence)
        if spans and (reach := _named_reach(sentence, listed)):  # its clause only: the rest reads as ever
            owned.append(reach)
            clause = _NAMED_REACH.search(sentence).group(0)
            sentence, rest = sentence.replace(clause, ""), rest.replace(clause, "")
        if spans and (between := _UNCOVERED.search(sentence)):
            owned.append(Computation("uncovered"))
            sentence, rest = sentence.replace(between.group(0), ""), rest.replace(between.group(0), "")
        if spans and (overlap := _COVERED.search(sentence)):
            # "if you count any overlapping years just once, how many years do the four cover altogether" (held-out
            # omh-176): the years the spans cover, and its clause asks no total of its own
            owned.append(Computation("covered"))
            for said in [overlap.group(0), *(c.group(0) for c in _clauses(sentence) if _SUM.search(c.group(0)))]:
                sentence, rest = sentence.replace(said, ""), rest.replace(said, "")
        if nearest := _closest_to(sentence, listed, task):  # "it" and "the two" in the sentence are its own
            owned.append(nearest)
            rest = rest.replace(sentence, "")
            continue
        if alive := _alive_when(sentence, listed):
            owned.append(alive[0])
            sentence, rest = sentence.replace(alive[1], ""), rest.replace(alive[1], "")
        if together := _named_together(sentence, listed):  # its clause only, as below
            owned.append(together[0])
            sentence, rest = sentence.replace(together[1], ""), rest.replace(together[1], "")
        if two := _two_named(sentence, listed):  # its clause only: "which is the largest" in the sentence reads on
            owned.append(two[0])
            sentence, rest = sentence.replace(two[1], ""), rest.replace(two[1], "")
        if own := (_gaps_from(sentence, listed) or _taken_away(sentence, listed)
                   or _after_named(sentence, listed, highest_of)):
            # its "add up", "after" and "the other four" are its own: no total, rest or gap of their own
            owned.append(own)
            rest = rest.replace(sentence, "")
            continue
        # "which of these cities goes back the furthest" is the earliest (held-out omh-194 took the latest)
        sentence = re.sub(r"\b(?:goes|go|went|dates?|dated|reach(?:es|ed)?)\s+back\s+(?:the\s+)?"
                          r"(?:furthest|farthest)\b", "is the earliest", sentence, flags=re.IGNORECASE)
        # not "the most" of a count: "most recent", "formed most recently" (held-out lh-41)
        sentence = re.sub(r"\bmost recent(?:ly)?\b", "latest", sentence, flags=re.IGNORECASE)
        # "which came to light last" was found last; "who received the prize latest" received it latest (held-out
        # omh-325, -326 read no pick)
        sentence = re.sub(r"\b(?:came|come|comes|coming) to light\b", "appeared", sentence, flags=re.IGNORECASE)
        sentence = re.sub(r"\b(\w{3,}ed|won|got|took)\s+(?:the|a|an|his|her|their|its)\s+[\w-]+\s+"
                          r"(?=(?:latest|earliest)\b)", r"\1 ", sentence, flags=re.IGNORECASE)
        # "how many years separate the first death from the most recent one" is the earliest's (held-out lh-83 set
        # those within the bound against the latest)
        # not "taking each career as running from the first year to the last year": the span's own ends (held-out
        # omh-287 read a pick of the earliest start, and the range of the spans)
        sentence = re.sub(r"(?<!\bfrom )\bthe first(?=\s+\w+\s+(?:from|to|and)\s+the\s+(?:latest|last|newest)\b)",
                          "the earliest", sentence, flags=re.IGNORECASE)
        sentence = _ROUNDING.sub("", sentence)  # "Round to the nearest whole number" picks nothing (held-out omh-99)
        # "which one outlived all the others" died the latest (held-out omh-94)
        sentence = re.sub(r"\boutlived (?:all )?(?:the )?others\b", "died latest", sentence, flags=re.IGNORECASE)
        for said, word in (("first", "earliest"), ("last", "latest")):  # "born first", "the last-born of them"
            # not "did the longest-lived last": the verb (held-out lh-89 added "Champa is the latest")
            # "which of them set out first" (held-out omh-344 read no pick of a start)
            sentence = re.sub(rf"\b(?<!-)(born|begun|built|written|came out|came|appeared|died|set out|set off|"
                              rf"\w{{3,}}ed)\s+{said}\b"
                              rf"|\b(?<=the\s){said}(?=\s+(?:of \w+\s+)?to\b)|\b{said}(?=[- ]born\b)"
                              # "before the last of the five was found" (held-out omh-320 read no range)
                              # "how many years later did the last of them arrive?" (held-out omh-349 read no range)
                              rf"|\b(?<=the\s){said}(?=\s+of\s+(?:the|them|these|those)\b(?:\s+\w+)?\s+"
                              rf"(?:was|were|arrive[ds]?|appear(?:ed|s)?|came|come)\b)",
                              lambda m: f"{m.group(1)} {word}" if m.group(1) else word, sentence, flags=re.IGNORECASE)
        # "which of these isotopes decays the fastest", "the one written most quickly" (held-out omh-215, -220): of a
        # time taken, the shortest
        sentence = _QUICKEST.sub(lambda m: f"{m.group(1)} shortest" if m.group(1) else "shortest", sentence)
        widest = _WIDEST_GAP.search(sentence)
        # the sentence's pick stays: "which came first, and ... the longest (shortest) gap between one and the next"
        # (held-out omh-360's answer gave the order and the gap, and never said which came first)
        if widest and _NEIGHBOURS.search(sentence):
            found.append(Computation("neighbours", 2, word=next(filter(None, widest.groups())).lower()))
            sentence = _without_gap(sentence, widest)
        if (narrowest := _NARROWEST_GAP.search(sentence)) and _NEIGHBOURS.search(sentence):
            found.append(Computation("pair", 2, word="closest"))
            sentence = _without_gap(sentence, narrowest)
        if _MEDIAN.search(sentence):  # "what is the median height of the five": the middle value, or two's mean
            found.append(Computation("median", 0, True, low, high))
        if middle := _MIDDLE.search(sentence):  # no pick of its own: "closest" here is to the middle
            found.append(Computation("nearest", 0, True, word="mean" if middle.group(1) else "midpoint"))
            continue
        for ranked in _RANKED.finditer(sentence):
            word = ranked.group(2).lower()
            found.append(Computation("nth", _ORDINALS_SAID[ranked.group(1).lower()],
                                     highest_of(word), word=ranked.group(0)))
        for rank in _PLACED.finditer(sentence):  # "ranked by their counts, which family comes third" (omh-143)
            placed.append(Computation("nth", _ORDINALS_SAID[rank.group(1).lower()], not in_order,
                                      word=f"{rank.group(1).lower()} in {'order' if in_order else 'rank'}"))
            found.append(placed[-1])
            if _BEFORE_IT.search(sentence):
                owned.append(placed[-1]._replace(operation="after_previous"))
        if same := _SAME.search(sentence):  # "which two of these poets died at the same age" (held-out omh-144)
            found.append(Computation("pair", 2, word="closest" if "apart" in same.group(0).lower() else "same"))
        sentence = _RANKED.sub("", sentence)  # no plain pick of its own
        # "the top two", "the bottom three": the two highest, the three lowest (held-out omh-143)
        sentence = re.sub(rf"\bthe (top|bottom) {_COUNT}\b",
                          lambda m: f"the {m.group(2)} {'highest' if m.group(1).lower() == 'top' else 'lowest'}",
                          sentence, flags=re.IGNORECASE)
        total = "mean" if _MEAN.search(sentence) else "sum" if _SUM.search(sentence) else None
        # "which three groups are the most species-rich, and how many species do the five smallest have
        # altogether": the total is the second clause's, the three a pick (held-out lh-54)
        totals = [c for c in _clauses(sentence) if (_MEAN if total == "mean" else _SUM).search(c.group(0))]
        selected = False
        # an ask in brackets asks nothing of the sentence: "a sprinting cheetah (take the top of its speed range),
        # ..., the most extreme tornado winds" describes the things (held-out omh-306 read a pick of the most)
        for match in _SUPERLATIVE.finditer(sentence) if _ASKS.search(_WORDED_ASIDE.sub("", sentence)) else ():
            count, word = match.group(1) or match.group(2), match.group(3).lower()
            if count and _whole_list(sentence, match):
                count = None
            own_total = total and any(c.start() <= match.start() < c.end() or not _SUPERLATIVE.search(c.group(0))
                                      for c in totals)
            highest = highest_of(word)
            if spans and not count and word in _OLD | _YOUNG and not _at_death(sentence, match):
                # over lives the youngest is the one born last, not the shortest life ("how many years after his
                # death was the youngest of the five born", held-out omh-372, -383); "died youngest" is an age
                found.append(Computation("max" if word in _YOUNG else "min", 1, word in _YOUNG, word=word,
                                         of="start"))
                continue
            if spans and not count and word in ("earliest", "latest"):
                # over spans a time is a start or an end, never a length: "who was born first" is the earliest
                # birth, not the shortest life; "the last to be finished" the latest end (held-out omh-224)
                found.append(Computation("max" if word == "latest" else "min", 1, word == "latest", word=word,
                                         of=_end_or_start(sentence, match)))
                continue
            # "which two were born closest together", "which two of the four are the closest in size" (held-out
            # omh-240 read the two smallest); not "the two closest to Paris"
            if count in ("two", "2") and word in ("closest", "nearest") and (
                    _TOGETHER.search(sentence) or not re.search(rf"\b{word}\s+to\b", sentence, re.IGNORECASE)):
                found.append(Computation("pair", 2, word=word))
            elif not count:
                # "the tallest and the lowest of those peaks": of those within the bounds (held-out omh-137)
                kept = (low, high) if _OF_THOSE.search(sentence) else (float("-inf"), float("inf"))
                # "and for those who first took office after 1900, ... the earliest start from the latest": those
                # of a bound of their own (held-out lh-100 took the range of all twelve)
                if (own := _THOSE_WHO.search(sentence, 0, match.start())) and bounds(own.group(0)) != _UNBOUNDED:
                    kept = bounds(own.group(0))
                found.append(Computation("max" if highest else "min", 1, highest, *kept, word=word))
            elif not own_total or _ALL.search(_without_whole(sentence, match)):
                # "which three are the biggest, and the mean of all twelve"
                found.append(Computation("top", _COUNTS.get(count.lower()) or int(count), highest, word=word))
            else:  # which k are ... and their combined ...: the sum of those k
                found.append(Computation(total, _COUNTS.get(count.lower()) or int(count), highest, low, high,
                                         word))
                selected = True
        bounded = (low, high) != (float("-inf"), float("inf"))
        how_many = _HOW_MANY_OF.search(sentence)
        if total and not selected and bounded and _ALL.search(sentence) and (_WHICH.search(sentence) or how_many):
            # "which are above 40, and what do all twelve add up to?": a pick, and a total of every thing; "of all
            # the ones that lasted under 25 years" is of those within (held-out lh-79 added every span); "how many
            # of the five have more than 80 million speakers, and how many ... do the five have between them": a
            # count, and the total of all five (held-out omh-230 added the three)
            kept = (low, high) if _THE_ONES.search(sentence) else ()
            found += [Computation("within", 0, True, low, high, word="how many" * bool(how_many)),
                      Computation(total, 0, True, *kept)]
        elif total and not selected:
            found.append(Computation(total, 0, True, low, high))
        elif not total and bounded and (how_many or _WHICH.search(sentence)):
            # "which cover more than X?": a pick; "how many of them lasted more than a century": and its count
            found.append(Computation("within", 0, True, low, high, word="how many" * bool(how_many)))
    if (picked := [c for c in found if c.operation in ("max", "min")]) and len(picked) == 1 and _RUNNER_UP.search(
            task) and not any(c.operation == "nth" for c in found):
        # "which animal is the heaviest, and by how many kilograms does it outweigh the runner-up?" (held-out omh-268
        # read the pick alone): the second in the pick's own order
        found.append(Computation("nth", 2, picked[0].highest, word="runner-up"))
    ops = {c.operation for c in found}
    picks = _distinct_picks(found)
    # a group whose total a question can set against another's: one pick, or the k highest or lowest added up
    groups = [c for c in found if c.operation in ("max", "min", "nth", "within") and c not in placed
              or c.operation == "sum" and (c.count or (c.low, c.high) != (float("-inf"), float("inf")))]
    # (a total of no count: of those within the question's bounds); one pick asked twice is one group ("Is the
    # biggest ... larger than the three smallest put together? Name the biggest ...", held-out omh-173)
    groups = list(dict.fromkeys(groups))
    beyond = beyond_names(task, listed)
    differs = _DIFFERENCE.search(rest)
    named = _named_group(rest, listed) if differs and not groups and _OTHERS.search(rest) else None
    against = _named_against(rest, listed) if differs else None
    # the pick against a thing beyond (not "the other four tenures put together": held-out omh-170 read "the Soviet
    # Union" that each of its leaders led as the thing beyond)
    # a listed thing the pick is set against by name before a thing beyond: "how many years after that award did
    # Wole Soyinka receive his?" (held-out omh-312 set the pick against the Nobel Prize, the question's own words)
    one = _set_against_pick(rest, listed, task) if len(picks) == 1 else None
    if spans and (after_end := _after_its_end(rest, picks)):
        found = [*picks, after_end]
    elif len(picks) == 1 and _EACH_OTHER.search(rest) and _SUM.search(rest) and _FROM_IT.search(rest):
        found = [*picks, Computation("gaps", 0, True, parts=(picks[0],))]  # each other's gap to the pick, added up
    elif (len(picks) == 1 and len(beyond) == 1 and differs and not _OTHERS.search(rest) and not one
          and not any(c.operation == "nth" for c in found)):  # "than the runner-up": the thing set against (omh-494)
        found.append(Computation("from_pick", 0, picks[0].highest, word=picks[0].word, other=beyond[0]))
    elif against:  # "how many more residents does Saint Petersburg have than the other two combined" (omh-146);
        # "how many times larger is Buddhism than the other two put together" (held-out omh-156): their ratio
        found = [*picks, Computation("times" if _RATIO.search(rest) else "gap", 0, True,
                                     parts=(against, Computation("rest")))]
    elif named:  # "how many more years did the three civil wars last than the other two" (held-out omh-134)
        found = [Computation("gap", 0, True, parts=(named, Computation("rest")))]
    elif one:
        # "which one has the most lines, and how many times the length of Beowulf is it" (held-out omh-242)
        against_one = (picks[0], Computation("named", 1, word=one[0].lower()))
        found = [*picks, Computation("times" if one[1] else "gap", 0, True,
                                     parts=against_one[::-1] if one[2] else against_one)]
    elif len(groups) == 2 and _DIVIDE.search(rest) and any(c.operation == "sum" for c in groups):
        found = [*picks, Computation("times", 0, groups[0].highest, parts=tuple(groups))]  # two totals' ratio
    elif len(picks) == 2 and differs and (set_off := _pick_against_the_others(rest, picks)):
        # "which has the fewest species, and by how many does the biggest group's count exceed the other three put
        # together" (held-out omh-491 added all four): the pick that clause names, against the rest's total
        found = [*picks, Computation("gap", 0, set_off.highest, parts=(set_off, Computation("rest", 0,
                                                                                           set_off.highest)))]
    elif len(groups) == 1 and _OTHERS.search(rest) and differs:
        # "how many more than the other four put together", "how many more years did the two longest last than the
        # other three" (held-out omh-112, -123): the group against the rest's total
        found = [*picks, Computation("gap", 0, groups[0].highest, parts=(groups[0], Computation("rest")))]
    elif len(picks) == 1 and differs and _OTHERS.search(rest) and (
            counted := [c for c in groups if c.operation == "sum" and c.count >= 2]):
        # "which family has the most, and how many more languages do the two biggest families hold between them than
        # the other three combined" (held-out omh-258 read the pick and the rest's total): the pick, and that gap
        found = [*picks, Computation("gap", 0, counted[0].highest, parts=(counted[0], Computation("rest")))]
    elif len(picks) == 1 and "sum" in ops and (joined := _joined_with_pick(rest, listed)):
        # "how many million people do it and the Anglican Communion have together" (held-out omh-295 added all
        # five): the pick's value and that one's
        found = [*(c for c in found if c.operation != "sum"),
                 Computation("plus", 0, True, parts=(picks[0], Computation("named", 1, word=joined.lower())))]
    elif len(picks) == 1 and "sum" in ops and _OTHERS.search(rest) and _RATIO.search(rest):
        # "the biggest of the four is how many times the size of the other three put together?" (held-out omh-420
        # read the pick and the rest's total, and divided nothing): the pick over the rest's total
        found = [*picks, Computation("times", 0, picks[0].highest, parts=(picks[0], Computation("rest")))]
    elif len(picks) == 1 and "sum" in ops and _OTHERS.search(rest):  # the pick, and the rest's total
        found = [c for c in found if c.operation != "sum"]
        found.append(Computation("rest", 0, picks[0].highest))
    elif len(picks) == 1 and len(groups) == 2 and _RATIO.search(rest) and len({g[1:5] for g in groups}) == 2:
        # "which lies deepest, and how many times as deep as the second-deepest is it" (held-out omh-263 read the
        # two picks and divided nothing): the pick over the other group
        found = [*picks, Computation("times", 0, picks[0].highest,
                                     parts=(picks[0], next(g for g in groups if g != picks[0])))]
    elif len(groups) == 2 and not {"max", "min"} <= ops and differs and len({g[1:5] for g in groups}) == 2:
        # "by how many years does the combined lifespan of the two longest-lived exceed that of the two
        # shortest-lived", "by how many years did his life outlast the two shortest added together" (omh-126, -127);
        # two groups of the same things are no gap (held-out omh-154's "which two arrived in the 1990s" and "add
        # those four gaps together" gave "the 2 within the bounds have 0 more than the 2 within the bounds")
        # "which died before reaching 50, and how many more years did the longest-lived get than he did": the pick
        # within the bounds is said too (omh-138's answer named Magellan only in the comparison)
        found = [*picks, *(c for c in groups if c.operation == "within"),
                 Computation("gap", 0, groups[0].highest, parts=tuple(groups))]
    elif {"max", "min"} <= ops and {c.of for c in picks} == {"start", "end"} and _DIFFERENCE.search(rest):
        found.append(Computation("reach"))  # "the years between the earliest start and that last finish"
    elif {"max", "min"} <= ops:
        among = (picks[0].low, picks[0].high)  # the picks' own bounds: those of "of those" (or none)
        if _RATIO.search(rest):
            found.append(Computation("ratio", 0, True, *among))
        elif _PRODUCT.search(rest):
            found.append(Computation("product", 0, True, *among))
        elif _DIFFERENCE.search(rest):
            # over the points both picks rank: "the earliest of their deaths from the latest" spans deaths, not
            # lives (held-out omh-484)
            points = {c.of for c in picks}
            found.append(Computation("range", 0, True, *among, of=points.pop() if len(points) == 1 else ""))
    elif (first_last := _FIRST_AND_LAST.search(rest)) and (
            _DIFFERENCE.search(rest) or re.search(r"\bhow many years\b", rest, re.IGNORECASE)):
        # "the first and the last of them" (of those within bounds); "the first of the twelve ... and the last": all
        whole = re.search(r"\bof the \w+", first_last.group(0)) or _ALL.search(rest)
        found.append(Computation("range", 0, True, *((float("-inf"), float("inf")) if whole else (low, high))))
    found = [*placed, *(c for c in found if c not in placed), *owned]
    picks = _distinct_picks(found)
    found = [c._replace(parts=tuple(picks[0] if part.operation == "pick" else part for part in c.parts)[::-1])
             if len(picks) == 1 and any(part.operation == "pick" for part in c.parts) else c for c in found]
    found = [c for c in found if not any(part.operation == "pick" for part in c.parts)]  # no pick: nothing to set
    if others := _the_others_picked(task, listed, owned):
        found = [c._replace(names=others) if c.operation in ("max", "min") else c for c in found]
    if _WIDTHS.search(task) or _WINDOWS.search(task) and _AGO.search(task):
        found = [c._replace(of="width") if not c.of else c for c in found]
    elif end := _RANGE_END.search(task):
        found = [c._replace(of="top" if end.group(1) or end.group(3) else "bottom") if not c.of else c for c in found]
    elif not spans and _DENSITY.search(task):
        found = [c._replace(of="per") if not c.of else c for c in found]
    if rounded := _DECIMALS.search(task):
        said = next(group for group in rounded.groups() if group).lower()
        digits = int(said) if said.isdigit() else _DIGITS.get(said)
        if rounded.group(3) is None:  # significant figures are no decimals: left as computed
            found = [c._replace(digits=digits) if c.operation in _ROUNDED_OPS else c for c in found]
    if scale := _IN_SCALE.search(task):
        word = (scale.group(1) or scale.group(2)).lower()
        found = [c._replace(scale=word) if c.operation in _SCALED_OPS else c for c in found]
    # one pick asked twice in other words ("which capital is the most crowded ... which one is the densest", held-out
    # omh-238): once, in its first words
    first_words = set(_distinct_picks(found))
    return [c for c in dict.fromkeys(found) if c.operation not in ("max", "min") or c in first_words]


def _joined_with_pick(task: str, names: list[str]) -> str:
    """The listed thing a total clause adds to the pick ("do it and the Anglican Communion have together"); ""
    when none."""
    for clause in _clauses(task):
        text = clause.group(0)
        if _SUM.search(text):
            for name in names:
                if re.search(rf"\b(?:it|that one|this one)\s+and\s+(?:the\s+)?{re.escape(name)}(?!\w)", text,
                             re.IGNORECASE):
                    return name
    return ""


# "how many years after his death was the youngest of the five born" (held-out omh-372, -383 took the range), "...
# did the last of the five to die pass away" (omh-385 read the pick alone)
_AFTER_ITS_END = re.compile(r"\bhow many years after\s+(?:his|her|its|their|(?:that|the)\s+[\w-]+['’]s)\s+"
                            r"(?:death|end|fall|collapse|dissolution|demise)\b[^?.;]*?\b(?:(?P<start>born|founded|"
                            r"established|begun|began|started)|(?P<end>die|died|pass(?:ed)? away|ended|fell|collapsed))"
                            r"\b", re.IGNORECASE)


def _after_its_end(text: str, picks: list[Computation]) -> Computation | None:
    """"after_end": from the end of the pick a clause calls "his" (or "that poet's") to the start, or the end, of
    the pick it names itself; None unless the text asks it of two picks."""
    asked = _AFTER_ITS_END.search(text)
    at = "start" if asked and asked.group("start") else "end"
    # "the last of the five to die": a pick of its own, in no other clause
    if asked and len(picks) == 1 and (said := re.search(r"\bthe (first|last) of (?:the |these |those )?\w+ to\b",
                                                         asked.group(0), re.IGNORECASE)):
        last = said.group(1).lower() == "last"
        picks = [*picks, Computation("max" if last else "min", 1, last, word=said.group(0), of=at)]
    if not asked or len(picks) != 2:
        return None
    named = [pick for pick in picks if pick.word and says(asked.group(0), pick.word)]
    if len(named) != 1:
        return None
    first = next(pick for pick in picks if pick is not named[0])
    return Computation("after_end", 0, True, parts=(first, named[0]), of=at)


def _distinct_picks(found: list[Computation]) -> list[Computation]:
    """The picks, one asked twice in other words once, in its first words ("which group goes back furthest ... as old
    as the oldest butterfly fossils": one pick, held-out omh-292 read two and set nothing against the butterflies)."""
    picks: dict[Computation, Computation] = {}
    for computation in found:
        if computation.operation in ("max", "min"):
            picks.setdefault(computation._replace(word=""), computation)
    return list(picks.values())


def _the_others_picked(task: str, listed: list[str], owned: list[Computation]) -> tuple[str, ...]:
    """The listed things a pick ranks when the question sets a group it names one by one against the rest and picks
    "of the three" (the rest's count): "which of the three Texas cities was the biggest", beside Chicago and
    Philadelphia; () otherwise."""
    group = next((c.parts[0] for c in owned if c.parts and c.parts[0].operation == "these"), None)
    of_the = _OF_THE_COUNT.search(task) if group else None
    if not of_the or _COUNTS.get(of_the.group(1).lower()) != len(listed) - group.count:
        return ()
    return tuple(name for name in listed if name not in group.names)


_EACH_OTHER = re.compile(r"\beach of the (?:other|remaining)\b", re.IGNORECASE)
# the gaps to the pick: "if you add up how many years after it each of the other four was published" (omh-395)
_FROM_IT = re.compile(r"\b(?:after|before|than|from|since|behind|ahead of)\s+(?:it|him|her|that one)\b", re.IGNORECASE)


def _gaps_from(sentence: str, names: list[str]) -> Computation | None:
    """The gaps between one listed thing and each of the others, added up, when a sentence asks so: "how many
    years after Unix each of the other four came along, and add those four gaps together", "add up the head
    start that each of the other four had on Alibaba" (held-out omh-154, -159: read as the total of all but the
    pick). The thing is named by its whole name or by a word of it no other listed name has."""
    if not (_EACH_OTHER.search(sentence) and _SUM.search(sentence)):
        return None
    named = [name for name in names if _naming(sentence, name, names)]
    return Computation("gaps", 0, True, word=named[0].lower()) if len(named) == 1 else None


def _naming(text: str, name: str, names: list[str]) -> re.Match | None:
    """Where a text names a listed thing: by its whole name, without the words every listed name opens with ("the
    inner core's radius" for Earth's inner core beside Earth's mantle, held-out omh-298), or by a word of it no other
    listed name has: a capitalised one ("the Sundarbans" for the Sundarbans mangrove forest), or the last of a name
    in lower case, in either number ("the dishwasher's range" for "spray water in a dishwasher", "the oldest
    butterfly fossils" for "butterflies": held-out omh-249, -292)."""
    shared = os.path.commonprefix([other.split() for other in names]) if len(names) > 1 else []
    own = " ".join(name.split()[len(shared):])
    head = name.split()[-1] if name.islower() and name.split() else ""
    heads = singular_forms(head) if head and not any(head in other.lower().split() for other in names
                                                     if other != name) else set()
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE) or own and re.search(
        rf"(?<!\w){re.escape(own)}(?!\w)", text, re.IGNORECASE) or next(
        (found for word in re.findall(r"[A-Z][\w'’-]{2,}", name)
         if not any(word in other for other in names if other != name)
         and (found := re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text))), None) or next(
        (found for found in re.finditer(r"[\w-]+", text) if singular_forms(found.group(0)) & heads), None)


def _two_named(sentence: str, names: list[str]) -> tuple[Computation, str] | None:
    """(computation, its clause): two listed things a clause sets against each other by name, as a ratio ("how many
    times the area of the Sundarbans is the area of the Pampas": the Pampas's over the Sundarbans's; "how many
    times larger is A than B": A's over B's) or a difference ("how much longer is A than B"); None otherwise.
    Held-out omh-223 read only "which is the largest" beside it."""
    for clause in _clauses(sentence):
        text = clause.group(0)
        ratio, differs = _RATIO.search(text), _DIFFERENCE.search(text)
        if not (ratio or differs):
            continue
        found, unread = [], text
        for name in sorted(names, key=len, reverse=True):  # "Guinea" inside "Guinea-Bissau" is that one's
            if match := _naming(unread, name, names):
                found.append((match.start(), name))
                unread = unread[:match.start()] + "#" * (match.end() - match.start()) + unread[match.end():]
        found.sort()
        if len(found) != 2:
            continue
        (_, first), (at, second) = found
        if ratio and not re.search(r"\bthan\b", text[:at], re.IGNORECASE):
            first, second = second, first  # "how many times A is B", "as large as A is B": B over A
        parts = (Computation("named", 1, word=first.lower()), Computation("named", 1, word=second.lower()))
        return Computation("times" if ratio else "gap", 0, True, parts=parts), text
    return None


# "the three Texas cities together outnumbered Chicago and Philadelphia combined" (held-out omh-234): listed things
# named one by one and added up, set against the rest
_OF_THE_COUNT = re.compile(rf"\b(?:which|who)\s+of\s+the\s+({'|'.join(_COUNTS)})\b", re.IGNORECASE)
_TOGETHER_NAMED = re.compile(r"\s+(?:combined|together|put together|added up|added together|taken together|between them"
                             r"|(?:laid |placed |put )?end to end)\b")  # "the Whirlpool and Triangulum galaxies laid
# end to end" (held-out omh-304)


def _named_together(sentence: str, names: list[str]) -> tuple[Computation, str] | None:
    """(computation, its clause): the total of two or more listed things a clause names one by one, joined by "and"
    and added up ("Chicago and Philadelphia combined"), against the rest's total; None otherwise."""
    # a name or its own first word, the kind after the last: "the Whirlpool and Triangulum galaxies" (omh-304),
    # or its last: "the Murakami and Amado figures added together" (held-out omh-314)
    own_words = [name.split()[at] for at in (0, -1) for name in names if len(name.split()) > 1 and name[:1].isupper()
                 and not any(other.split()[at] == name.split()[at] for other in names if other != name)]
    name = "|".join(re.escape(name) for name in sorted([*names, *own_words], key=len, reverse=True))
    joined = re.compile(rf"(?:the\s+)?(?:{name})(?:(?:,\s+(?:and\s+)?|\s+and\s+)(?:the\s+)?(?:{name}))+"
                        r"(?:\s+[a-z]+s)?$", re.IGNORECASE)
    for clause in _clauses(sentence) if names else ():
        text = clause.group(0)
        if not _DIFFERENCE.search(text):
            continue
        for added in _TOGETHER_NAMED.finditer(text):
            named = joined.search(text[:added.start()])
            these = [name for name in names if named and (_names(named.group(0), name)
                                                          or _naming(named.group(0), name, names))]
            if 2 <= len(these) < len(names) - 1:
                # "how many more species does it have than the cuckoos and the wrens put together": against the
                # pick the sentence reads (held-out omh-290 set the two against the rest), else the rest
                against = Computation("pick") if _IT.search(text[:named.start()]) else Computation("rest")
                return Computation("gap", 0, True, parts=(Computation("these", len(these), names=tuple(these)),
                                                          against)), text
    return None


def _names(text: str, name: str) -> bool:
    """Whether the text names a listed thing: by its whole name, or its first word in any number ("the gecko,
    skink and chameleon species" names geckos; "the lizard total" lizards as a whole)."""
    if says(text, name):
        return True
    first = singular_forms(name.split()[0])
    return len(name.split()[0]) > 3 and any(singular_forms(word) & first for word in re.findall(r"[\w'-]+", text))


# "if you take the gecko, skink and chameleon species away from the lizard total" (held-out omh-153)
_TAKE_AWAY = re.compile(r"\b(?:take|taking|subtract(?:ing)?|remove|removing|deduct(?:ing)?)\s+(?P<these>[^?.;]+?)"
                        r"\s+(?:away\s+)?from\s+(?P<whole>[^?.;,]+)", re.IGNORECASE)


def _taken_away(sentence: str, names: list[str]) -> Computation | None:
    """One listed thing less several others the sentence names: the gap of the one and those others' total."""
    found = _TAKE_AWAY.search(sentence)
    whole = [name for name in names if found and _names(found.group("whole"), name)]
    these = [name for name in names if found and _names(found.group("these"), name) and name not in whole]
    if len(whole) != 1 or not these:
        return None
    return Computation("gap", 0, True, parts=(Computation("named", 1, word=whole[0].lower()),
                                              Computation("these", len(these), names=tuple(these))))


# "how many years passed between Taejo's accession and the end of Jeongjo's reign?" (held-out omh-165)
_STARTED = r"(?:accession|start|birth|founding|beginning|rise|foundation)"
_NAMED_REACH = re.compile(rf"\b(?:between|from)\s+(?:the\s+)?(?:(?P<a1>[^?,]+?)'s\s+{_STARTED}|{_STARTED}\s+of\s+"
                          r"(?:the\s+)?(?P<a2>[^?,]+?))\s+(?:and|to|until)\s+(?:the\s+)?"
                          r"(?:end|death|fall|close)\s+of\s+(?:the\s+)?(?P<b>[^?,]+)", re.IGNORECASE)


def _named_reach(sentence: str, names: list[str]) -> Computation | None:
    """From one listed thing's start to another's end (each thing asked its start and end): Computation("reach",
    word=the first, other=the last)."""
    found = _NAMED_REACH.search(sentence)
    if not found:
        return None
    first = [name for name in names if _names(found.group("a1") or found.group("a2"), name)]
    last = [name for name in names if _names(found.group("b"), name)]
    if len(first) != 1 or len(last) != 1 or first == last:
        return None
    return Computation("reach", 0, True, word=first[0], other=last[0])


# "how long after the first Summer Games did the newest of the four begin?" (held-out omh-160)
# "how many years after Disney's death did the last of them pass away?" (held-out omh-187)
_AFTER_NAMED = re.compile(r"\bhow (?:long|many years)\s+(?:after|before|since)\s+(?:the\s+)?(?P<thing>[^?.,]+?)\s+"
                          r"(?:did|was|were|had|has)\s+the\s+(?P<word>[a-z]+est|last|first)\b", re.IGNORECASE)


def _capitals(text: str) -> set[str]:
    """The capitalised words of a text, without a possessive's 's ("Disney's death" names Walt Disney)."""
    return {re.sub(r"['’]s$", "", word) for word in re.findall(r"\b[A-Z][\w'’-]{2,}", text)}


def _meant(thing: str, names: list[str]) -> list[str]:
    """The listed names a phrase refers to: by name, or by a capitalised word they share ("Disney's death")."""
    return [name for name in names if _names(thing, name) or _capitals(thing) & _capitals(name)]


def _after_named(sentence: str, names: list[str], highest_of) -> Computation | None:
    """The gap between one listed thing, named in other words (a capitalised word of its name), and the pick of
    the rest."""
    found = _AFTER_NAMED.search(sentence)
    named = _meant(found.group("thing"), names) if found else []
    if len(named) != 1:
        return None
    word = {"last": "latest", "first": "earliest"}.get(found.group("word").lower(), found.group("word").lower())
    return Computation("from_pick", 0, highest_of(word), word=word, other=named[0])


# "which of the other four happened closest in time to the Great Dying, and how many million years apart were the
# two?" (held-out omh-189): the other thing nearest the named one, and their gap
_CLOSEST_TO = re.compile(r"\b(?:closest|nearest)\s+(?:in\s+(?:time|size|age|value)\s+)?to\s+(?:the\s+)?"
                         r"(?P<thing>[^?.,;]+?)(?=\s*[?.,;]|\s+and\b|\s+of\b)", re.IGNORECASE)


def _closest_to(sentence: str, names: list[str], task: str) -> Computation | None:
    """The listed thing nearest one the sentence names, by its name or the other name the question gives it in
    brackets ("the Permian–Triassic (the 'Great Dying')")."""
    found = _CLOSEST_TO.search(sentence)
    if not found or re.match(r"(?:the\s+)?(?:average|mean|midpoint|middle)\b", found.group("thing"), re.IGNORECASE):
        return None
    thing = found.group("thing").strip(" '\"‘’“”")
    named = [name for name in names if _meant(thing, [name]) or (aside := aside_of(task, name).strip(" '\"‘’“”"))
             and aside.lower() in (thing.lower(), f"the {thing.lower()}")]
    # or a thing beyond the list, asked like the list: "which of those three is nearest in age to Ur" (held-out
    # omh-239 picked the earliest)
    beyond = [] if named or not re.fullmatch(rf"{_FIRST}(?:\s+{_FIRST}){{0,3}}", thing) else [thing]
    named = named or beyond
    return Computation("nearest_named", 0, True, word="closest", other=named[0]) if len(named) == 1 else None


# "which of the other four were still alive when Walt Disney died" (held-out omh-187): those who died after him
_ALIVE_WHEN = re.compile(r"\b(?:still )?(?:alive|living) when (?P<thing>[^?.,;]+?) died\b", re.IGNORECASE)


# dated by death alone: "by the year each one died ... the death years in their short descriptions" (held-out lh-105:
# the split asked each of fourteen both ends of their lives, and two forms left nothing computed)
_DEATHS_ONLY = re.compile(r"\b(?:the )?years? (?:each (?:one )?|they |that each )?died\b|\bdeath years?\b"
                          r"|\byears? of (?:their |each one's |his |her )?deaths?\b", re.IGNORECASE)
_LIFE_WORDS = re.compile(r"\bborn\b|\bbirths?\b|\blived\b|\blives\b|\blife(?:span|time)?s?\b|\bage at death\b"
                         r"|\bages?\b|\b\w+-lived\b", re.IGNORECASE)


def end_form(task: str) -> str | None:
    """The one question each listed thing is asked when the question sets their deaths against one of theirs, or
    dates them by their deaths alone."""
    if _ALIVE_WHEN.search(task) or _DEATHS_ONLY.search(task) and not _LIFE_WORDS.search(task):
        return "When did {} die?"
    return None


def _alive_when(sentence: str, names: list[str]) -> tuple[Computation, str] | None:
    """(those whose death came after the named one's, the clause that asks it)."""
    found = _ALIVE_WHEN.search(sentence)
    named = _meant(found.group("thing"), names) if found else []
    if len(named) != 1:
        return None
    return Computation("after_named", 0, True, word=f"were still alive when {named[0]} died", other=named[0]), \
        found.group(0)


# the pick: "it", "its debut", "... is that?" (held-out omh-249, -254), "his lifespan", "is that figure" (omh-300, -298)
# "was that than", "how many times the BBC's staff is that, to the nearest ...", "does that beat", "after that award"
# (held-out omh-303, -313, -314, -312)
# "how many years after Fleming's award was that?", "how many years old was Apple by then" (held-out omh-326, -322)
_IT = re.compile(r"\b(?:its?|his|her|that one|this one|that (?:figure|number|value|total|amount|award|year|date))\b"
                 r"|\b(?:is|was) that\s*(?:[?.,]|$)|\b(?:is|was|does|did)\s+that\s+(?:than|beat|exceed|outnumber)"
                 r"|\bby then\b", re.IGNORECASE)


# "how many times its maximum weight is the guinea pig's": the guinea pig's over the pick's (held-out omh-324 divided
# the pick's by the guinea pig's)
_TIMES_IS = re.compile(r"\bhow many times\s+(.+?)\s+(?:is|are|was|were)\s+(.+)", re.IGNORECASE)


def _set_against_pick(task: str, names: list[str], whole: str = "") -> tuple[str, bool, bool] | None:
    """(name, whether divided, whether the pick divides): the one listed thing a clause sets the pick ("it") against
    by a ratio or a difference ("how many times the length of Beowulf is it": the pick over Beowulf; "how many times
    its weight is the guinea pig's": the guinea pig's over the pick's), or by what the whole question says is its
    ("how many years after the Mother of All Demos" of "Douglas Engelbart's 'Mother of All Demos'"); None when no
    clause does."""
    owned = {name: phrase for name in names if (phrase := _owned_phrase(whole, name))}
    for sentence in _SENTENCES.split(task):
        for clause in _clauses(sentence):
            text = clause.group(0)
            ratio = _RATIO.search(text)
            if (ratio or _DIFFERENCE.search(text)) and _IT.search(text):
                named = [name for name in names if _naming(text, name, names)
                         or name in owned and re.search(rf"(?<!\w){re.escape(owned[name])}(?!\w)", text)]
                if len(named) == 1:
                    times = _TIMES_IS.search(text) if ratio else None
                    return named[0], bool(ratio), bool(times and _IT.search(times.group(1))
                                                       and not _IT.search(times.group(2)))
    return None


def _owned_phrase(task: str, name: str) -> str:
    """The title the question gives as a listed thing's own, capitalised after its possessive: "Mother of All Demos"
    of "Douglas Engelbart's 'Mother of All Demos'" (held-out omh-288 set the pick against it, and code read no
    difference); "" when it gives none."""
    found = re.search(rf"(?<!\w){re.escape(name)}['’]s\s+['‘\"“]?([A-Z][\w-]*(?:\s+(?:of|the|and|a|an|in|[A-Z][\w-]*))"
                      r"{1,5})", task) if task else None
    return found.group(1).rstrip() if found else ""


def _named_against(task: str, names: list[str]) -> Computation | None:
    """One listed thing the question sets against the rest by name ("does Saint Petersburg have than the other
    two"), as a group of one; None when it names none so."""
    for name in names:
        if re.search(rf"\b(?:does|do|did|is|was|are|were)\s+(?:the\s+)?{re.escape(name)}\b[^?.,]*?\bthan "
                     r"(?:the |all the )?(?:other|remaining|rest)\b", task, re.IGNORECASE):
            return Computation("named", 1, word=name.lower())
    return None


_NAMED_GROUP = re.compile(rf"\bthe {_COUNT} ((?:[a-z]+ ){{0,2}}[a-z]+)\b", re.IGNORECASE)


def _named_group(task: str, names: list[str]) -> Computation | None:
    """A group the question names by words its things' names share, as many as it says ("the three civil wars"
    among the Chinese Civil War, the Angolan Civil War, ..., the Algerian War): Computation("named", count, word=
    "civil war"); None when no such words name exactly that many."""
    for match in _NAMED_GROUP.finditer(task):
        count = _COUNTS.get(match.group(1).lower()) or int(match.group(1))
        words = match.group(2).lower().split()
        for cut in range(len(words), 0, -1):  # "civil wars last in total": "civil wars" is the group
            singular = re.sub(r"(?<!s)s$", "", " ".join(words[:cut]))
            if sum(singular in name.lower() for name in names) == count:
                return Computation("named", count, word=singular)
    return None
