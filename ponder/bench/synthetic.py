"""Synthetic research steps for memory tests and benchmarks: varied, Wikipedia-like, deterministic.

`research_run` builds a scripted run in which some facts are observed early and needed much later, so a
benchmark can ask: when the agent needs the fact, is the step that observed it in the prompt?
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from core.schema import Step

_CITIES = ["Tarnów", "Aveiro", "Kutaisi", "Trondheim", "Bendigo", "Salta", "Jinja", "Ouidah", "Matsue", "Hué",
           "Kotor", "Zlín", "Tromsø", "Jaffna", "Puno", "Tulle", "Ghent", "Ivrea", "Lamu", "Esbjerg"]
_PEOPLE = ["Ada Kessler", "Tomas Virta", "Imre Halasz", "Lucia Ferro", "Oskar Lindqvist", "Mira Sato",
           "Pavel Orlov", "Nadia Bensaid", "Jonas Aukstas", "Elif Demir", "Rui Tavares", "Hana Novak"]
_RIVERS = ["Dunajec", "Vouga", "Rioni", "Nidelva", "Campaspe", "Arenales", "Ohře", "Scheldt", "Dora Baltea"]
_FIELDS = ["crystallography", "glaciology", "numismatics", "phonology", "mycology", "hydraulics", "cartography",
           "ornithology", "metallurgy", "seismology", "paleobotany", "acoustics"]
_INDUSTRIES = ["textiles", "shipbuilding", "wine", "tourism", "fishing", "ceramics", "software", "copper mining"]
_COUNTRIES = ["Poland", "Portugal", "Georgia", "Norway", "Australia", "Argentina", "Uganda", "Benin", "Japan",
              "Vietnam", "Montenegro", "Czechia", "Sri Lanka", "Peru", "France", "Belgium", "Italy", "Kenya"]

_TEMPLATES = [
    ("city", "{city} is a city in {country} on the {river} river, with a population of about {n} at the {year} "
             "census. It was first mentioned in a charter of {year2}. Its economy rests on {industry}, and its old "
             "town hall, rebuilt after a fire, is the seat of the district council."),
    ("person", "{person} ({year2}–{year}) was a scientist known for work on {field}. Educated in {city}, "
               "{person} published {n2} papers and led an expedition to {country}. A prize in {field} is named "
               "after {person}."),
    ("river", "The {river} is a river in {country}, about {n2} km long. It rises in the uplands near {city} "
              "and was used for timber rafting until {year}. A hydroelectric dam built in {year2} forms a "
              "reservoir popular for {industry_or_sport}."),
    ("event", "The {city} Conference of {year} was a meeting of delegates from {country} and its neighbours on "
              "questions of {field}. It produced a treaty signed by {n2} states, later revised in {year2} after "
              "protests by the {industry} guilds."),
    ("institution", "The {city} Institute of {field} was founded in {year2} by {person}. It has about {n} "
                    "students and runs an observatory in {country}. Its library holds the largest collection of "
                    "{field} manuscripts in the region."),
    ("search", "Search results for \"{query}\": 1. {city} (city in {country}) 2. {person} ({field}) 3. {river} "
               "(river) 4. List of {field} topics 5. {city} Conference of {year}"),
]
_THOUGHTS = ["I should look up {topic} to check the details.", "The previous page mentioned {topic}; let me read it.",
             "Maybe {topic} has the figure I need.", "Let me search for {topic}.",
             "That was not useful. I will try {topic} instead.", "I want to verify what the article says about {topic}."]


def distractor_observation(rng: random.Random) -> tuple[str, str]:
    """(topic, observation text) of a few hundred characters on a random Wikipedia-like subject."""
    topic, first = _paragraph(rng)
    _, second = _paragraph(rng)  # pages mention other subjects too, as real extracts do
    return topic, f"{first} See also: {second}"


def _paragraph(rng: random.Random) -> tuple[str, str]:
    kind, template = rng.choice(_TEMPLATES)
    values = dict(city=rng.choice(_CITIES), country=rng.choice(_COUNTRIES), river=rng.choice(_RIVERS),
                  person=rng.choice(_PEOPLE), field=rng.choice(_FIELDS), industry=rng.choice(_INDUSTRIES),
                  industry_or_sport=rng.choice(["rowing", "angling", "sailing", "swimming"]),
                  n=f"{rng.randint(2, 900) * 1000:,}", n2=rng.randint(12, 400), year=rng.randint(1850, 2020),
                  year2=rng.randint(1100, 1849))
    values["query"] = f"{values['field']} {values['city']}"
    topic = {"city": values["city"], "person": values["person"], "river": values["river"],
             "event": f"{values['city']} Conference", "institution": f"{values['city']} Institute",
             "search": values["query"]}[kind]
    return topic, template.format(**values)


def distractor_step(index: int, rng: random.Random) -> Step:
    topic, observation = distractor_observation(rng)
    action = "wiki_search" if observation.startswith("Search") else "wiki_page"
    return Step(index=index, thought=rng.choice(_THOUGHTS).format(topic=topic), action=action,
                action_input=topic, observation=observation, started_at=float(index))


@dataclass(frozen=True)
class Fact:
    """A fact observed in one step and needed again later."""
    entity: str
    observation: str
    need: str  # the thought of the step that shows the agent needs the fact again


FACTS = [
    Fact("Voynich manuscript", "The Voynich manuscript is an illustrated codex written in an unknown script. "
         "Its vellum was carbon-dated to 1404–1438. It is held by the Beinecke Library at Yale University as "
         "MS 408 and is named after the book dealer Wilfrid Voynich, who bought it in 1912.",
         "The catalogue refers back to the Voynich manuscript; I need the carbon dating of its vellum."),
    Fact("Peace of Westphalia", "The Peace of Westphalia is the collective name for two peace treaties signed in "
         "October 1648 in the Westphalian cities of Osnabrück and Münster. They ended the Thirty Years' War and "
         "brought peace to the Holy Roman Empire.",
         "To finish the timeline I need the year and the cities where the Peace of Westphalia was signed."),
    Fact("Mount Erebus", "Mount Erebus is the second-highest volcano in Antarctica, 3,794 m high, on Ross Island. "
         "It hosts one of the few persistent lava lakes on Earth and was first climbed in 1908 by a party of "
         "Shackleton's Nimrod Expedition.",
         "Now I need the height of Mount Erebus and who first climbed it."),
    Fact("Tardigrade", "Tardigrades, known as water bears, are eight-legged micro-animals about 0.5 mm long. They "
         "survive extreme conditions by entering cryptobiosis and were first described by Johann August Ephraim "
         "Goeze in 1773.",
         "The answer also needs who first described tardigrades, and in which year."),
    Fact("Antikythera mechanism", "The Antikythera mechanism is an ancient Greek hand-powered orrery, found in a "
         "shipwreck off the island of Antikythera in 1901. It used at least 30 bronze gears to predict eclipses "
         "and is dated to about 100 BC.",
         "I should recall how many gears the Antikythera mechanism had and when it was found."),
    Fact("Lake Baikal", "Lake Baikal in Siberia is the deepest lake in the world, 1,642 m at its deepest, and "
         "holds about 23% of the world's fresh surface water. It is home to the Baikal seal, the only freshwater "
         "seal species.",
         "For the comparison I need the maximum depth of Lake Baikal again."),
    Fact("Rosetta Stone", "The Rosetta Stone is a granodiorite stele inscribed with a decree of 196 BC in "
         "hieroglyphic, Demotic and ancient Greek scripts. French soldiers found it in 1799 near Rashid; it is "
         "in the British Museum.",
         "I must cite where the Rosetta Stone was found and what year its decree dates from."),
    Fact("Hedy Lamarr", "Hedy Lamarr was an Austrian-American actress and inventor. With George Antheil she "
         "patented a frequency-hopping system for torpedo guidance in 1942, a forerunner of spread-spectrum "
         "radio used in Wi-Fi and Bluetooth.",
         "The report needs the year of Hedy Lamarr's frequency-hopping patent and her co-inventor."),
]


def fact_step(index: int, fact: Fact) -> Step:
    return Step(index=index, thought=f"Let me read the article on {fact.entity}.", action="wiki_page",
                action_input=fact.entity, observation=fact.observation, started_at=float(index))


def need_step(index: int, fact: Fact, rng: random.Random) -> Step:
    """A step whose thought says the fact is needed; the next prompt should show the fact's step."""
    _, observation = distractor_observation(rng)
    return Step(index=index, thought=fact.need, action="wiki_search", action_input=fact.entity,
                observation="No exact match. " + observation[:200], started_at=float(index))


TASK = ("Write a short research note comparing old documents, natural wonders and inventions, with exact dates, "
        "figures and places for each.")


def research_run(n_steps: int, *, gap: int = 20, seed: int = 0) -> tuple[list[Step], dict[int, int]]:
    """Scripted steps 1..n_steps and {need step index: fact step index}, each fact needed >= gap steps later."""
    rng = random.Random(seed)
    steps: dict[int, Step] = {}
    needs: dict[int, int] = {}
    start = 2
    for fact in FACTS:  # fact k observed at start, needed at start + gap + a few
        need_at = start + gap + rng.randint(0, 6)
        while need_at in steps:
            need_at += 1
        if need_at > n_steps:
            break
        steps[start] = fact_step(start, fact)
        steps[need_at] = need_step(need_at, fact, rng)
        needs[need_at] = start
        start += max(3, (n_steps - gap) // len(FACTS))
        while start in steps:
            start += 1
    return [steps.get(i) or distractor_step(i, rng) for i in range(1, n_steps + 1)], needs
