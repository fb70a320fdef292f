"""The verdict (ponder/bench/verdict.py) against the answers that fooled FanOutQA's string metric, and right answers
in many phrasings. Wrong answers are taken from committed bench runs (benchmarks/results/2026-12-03/) and their
kin; each must score wrong however many reference strings it contains."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ponder.bench.metrics import score as fanoutqa_score
from ponder.bench.suites import load_suite
from ponder.bench.verdict import derive_options, judge_answer, numbers_in, parse_tolerance, stance

SUITE = {q.id: q for q in load_suite("offline-multihop")}


def verdict(qid: str, prediction: str | None, **kwargs):
    q = SUITE[qid]
    return judge_answer(q.question, q.answers, prediction, options=kwargs.pop("options", q.options),
                        tolerance=kwargs.pop("tolerance", q.tolerance), **kwargs)


def free(question: str, answers: list, prediction: str | None, **kwargs):
    return judge_answer(question, answers, prediction, **kwargs)


KRISHNA_PASTE = ("The Krishna River is the third-longest in India, after the Ganga and Godavari. It is also the "
                 "fourth-largest in terms of water inflows and river basin area in India, after the Ganga, Indus and "
                 "Godavari. The river, also called the Krishnaveni, is 1,400 kilometres (870 mi) long and its "
                 "catchment area is 33% of the total area of Andhra Pradesh.")
GODAVARI_PASTE = ("The Godavari is India's second longest river after the Ganges River, and drains the third "
                  "largest basin in India, covering about 10% of the total geographical area. Its source is in "
                  "Trimbakeshwar, Nashik, Maharashtra. It flows east for 1,465 kilometres (910 mi), draining the "
                  "states of Maharashtra, Telangana, Andhra Pradesh, Chhattisgarh and Odisha, ultimately emptying "
                  "into the Bay of Bengal through an extensive network of tributaries.")
SUMMITS_LISTED = ("The highest summit of the Atlas Mountains is Toubkal, in central Morocco, with an elevation of "
                  "4,167 metres (13,671 ft). The highest summit of the Altai Mountains is Belukha, whose summit "
                  "reaches 4,506 m above sea level. The highest summit of the Zagros Mountains is Mount Dena, at "
                  "4,409 metres. The highest summit of the Pyrenees is Aneto, at 3,404 metres.")

# (suite question, prediction): wrong answers, each must be scored wrong
WRONG_ON_SUITE = [
    ("omh-01", KRISHNA_PASTE),                                   # a pasted intro that compares nothing
    ("omh-01", GODAVARI_PASTE),                                  # "second longest" is not "the longest"
    ("omh-01", "Godavari, Krishna or Yamuna."),                  # the candidates repeated
    ("omh-01", "The longest is either the Godavari or the Krishna."),
    ("omh-01", "The Krishna is the longest, not the Godavari."),
    ("omh-01", "The Godavari is not the longest; the Krishna is."),
    ("omh-02", SUMMITS_LISTED),                                  # every summit listed, no pick
    ("omh-02", "The highest summit of the Atlas Mountains is Mount Atlas, at 2,714 meters (8,900 feet)."),
    ("omh-02", "The Altai Mountains have the highest summit."),  # the summit's name is missing
    ("omh-02", "The Atlas Mountains have the highest summit, higher than Belukha in the Altai."),
    ("omh-03", "The highest mountain among the four mentioned is Mount Kilimanjaro, located in Tanzania, with an "
               "elevation of 5,898 meters (19,341 feet)."),
    ("omh-03", "Mount Kilimanjaro is the highest, though Denali is also very high."),
    ("omh-06", "Tang: 289 years; Song: 319 years; Ming: 276 years; Qing: 268 years."),
    ("omh-06", "The Tang dynasty ruled for 289 years, from 618 to 2026-12-04."),
    ("omh-07", "Frédéric Chopin died at 39 and Franz Schubert at 31."),
    ("omh-07", "The youngest to die was Mendelssohn, at 38, compared with Schubert at 31."),
    ("omh-09", "Roald Amundsen was born first, in 1872; Nansen was born in 1861."),
    ("omh-12", "Oxford is the oldest; teaching began at Bologna in 1088."),
    ("omh-12", "Bologna is the oldest; teaching there began around 1150."),
    ("omh-12", "Oxford, Cambridge, Bologna or Harvard: teaching began in 1088, 1096, 1209 and 1636."),
    ("omh-04", "The combined length of the Elbe, the Vistula, and the Loire is approximately 1,000 km."),
    ("omh-04", "The combined length is 31.47 km."),                # decimal points are kept: 31.47 is not 3147
    ("omh-04", "The combined length is about 3,100 km."),          # less precise than the reference
    ("omh-36", "The Andes are 36 times longer than the Atlas Mountains."),   # 36 is not 3.6
    ("omh-30", "The Nile is 2.4 times longer than the Danube."),
    ("omh-19", "Charles Darwin was born in 1809, and On the Origin of Species was published in 1859."),
    ("omh-20", "Sputnik 1 was launched in 1957 and Apollo 11 landed in 1969."),
    ("omh-21", "The span is 66.5 years."),
    ("omh-39", "Stanley Kubrick directed 2001: A Space Odyssey."),   # one part of two
    ("omh-46", "Shah Jahan commissioned it in 1632."),
    ("omh-10", "The combined population is 5.7 million."),
    ("omh-42", "The Eiffel Tower."),
    ("omh-45", "He was buried at Down House."),
    ("omh-47", "The Ganges is the longest river in India."),          # the length is missing
    ("omh-29", ""),
    ("omh-29", None),
]


@pytest.mark.parametrize("qid, prediction", WRONG_ON_SUITE)
def test_wrong_answers_score_wrong(qid, prediction):
    result = verdict(qid, prediction)
    assert result.correct is False, result.reason
    assert result.reason


def test_the_committed_false_positives_fooled_the_string_metric():
    """The cases above are not straw men: FanOutQA's string metric calls these right."""
    for qid, prediction in [("omh-01", KRISHNA_PASTE), ("omh-01", GODAVARI_PASTE), ("omh-02", SUMMITS_LISTED),
                            ("omh-01", "Godavari, Krishna or Yamuna."), ("omh-36", "It is 36 times longer.")]:
        assert fanoutqa_score(SUITE[qid], prediction).strict, (qid, prediction)
        assert not verdict(qid, prediction).correct


RIGHT_ON_SUITE = [
    ("omh-01", "The Godavari is the longest, at 1,465 km."),
    ("omh-01", "Godavari"),
    ("omh-01", "Of the Godavari, the Krishna and the Yamuna, the Godavari is the longest."),
    ("omh-01", "The longest is the Godavari (1,465 km), followed by the Krishna (1,400 km) and the Yamuna "
               "(1,376 km)."),
    ("omh-01", "The Godavari (1,465 km) is longer than the Krishna (1,400 km) and the Yamuna (1,376 km)."),
    ("omh-02", "The Altai Mountains have the highest summit: Belukha, at 4,506 m."),
    ("omh-02", "Belukha (4,506 m), in the Altai Mountains, is the highest summit of the four ranges."),
    ("omh-03", "Denali, at 6,190 m, is the highest of the four."),
    ("omh-03", "Denali is the highest mountain among the given four."),
    ("omh-03", "Mount McKinley is the highest."),                # the reference's other name
    ("omh-06", "The Song dynasty ruled the longest: 319 years (960–1279)."),
    ("omh-07", "Franz Schubert died at the youngest age, 31."),
    ("omh-09", "Fridtjof Nansen was born first (1861)."),
    ("omh-09", "Nansen, born in 1861, was the earliest-born of the four."),
    ("omh-12", "Bologna is the oldest; teaching there began around 1088."),
    ("omh-18", "Claude Monet lived the longest (86 years), longer than Renoir (78)."),
    ("omh-04", "3,147 km"),
    ("omh-04", "The combined length is 3147.0 kilometres."),
    ("omh-04", "About 3,147 kilometres in total (1,094 + 1,047 + 1,006)."),
    ("omh-05", "The total area is 2,016,208 km²."),
    ("omh-10", "Their combined 2021 population was 5,780,837."),
    ("omh-10", "About 5.78 million people."),
    ("omh-14", "Roughly 170 million square kilometres."),
    ("omh-30", "The Nile is about 2.49 times longer than the Danube."),
    ("omh-30", "6,650 / 2,850 = 2.4878, so about 2.49 times."),
    ("omh-36", "The Andes are 3.56 times longer."),
    ("omh-20", "Twelve years passed."),
    ("omh-29", "Mount Kilimanjaro is 5,895 meters high, and Mount Kosciuszko is 2,228 meters high. Therefore, Mount "
               "Kilimanjaro is 3,667 meters higher than Mount Kosciuszko."),
    ("omh-34", "The vertical distance is 19,783.86 m."),
    ("omh-39", "Stanley Kubrick directed 2001: A Space Odyssey in 1968, and he died in 1999."),
    ("omh-48", "The Irtysh, which flows through China, Kazakhstan and Russia."),
    ("omh-40", "Mount Elbrus lies in Kabardino-Balkaria."),
]


@pytest.mark.parametrize("qid, prediction", RIGHT_ON_SUITE)
def test_right_answers_score_right(qid, prediction):
    result = verdict(qid, prediction)
    assert result.correct is True, result.reason


@pytest.mark.parametrize("question, answers, prediction, kwargs, correct", [
    ("Is the Nile longer than the Amazon?", ["yes"], "Yes, by most measurements.", {}, True),
    ("Is the Nile longer than the Amazon?", ["no"], "No. The Amazon is longer by some measures.", {}, True),
    ("Is the Nile longer than the Amazon?", ["no"], "I do not know.", {}, False),
    ("Is the Nile longer than the Amazon?", ["no"], "Nobody has measured both the same way.", {}, False),
    ("Is the Nile longer than the Amazon?", [True], "Yes.", {}, True),
    ("Is the Nile longer than the Amazon?", ["yes"], "The answer is yes: 6,650 km against 6,400 km.", {}, True),
    ("How high is Lake Titicaca above Kosciuszko?", ["1584"], "1,585 m", {"tolerance": 2}, True),
    ("How high is Lake Titicaca above Kosciuszko?", ["1584"], "1,585 m", {}, False),
    ("How far is it?", ["19784"], "About 19,800 m.", {"tolerance": "1%"}, True),
    ("How far is it?", ["19784"], "About 21,000 m.", {"tolerance": "1%"}, False),
    ("What is 2,292 minus 2,000?", ["292"], "2,292", {}, False),          # thousands separators are read
    ("When did Darwin die?", ["1882"], "Charles Darwin (1809–1882).", {}, True),   # a range is not a minus sign
    ("What was the low?", ["-5"], "It was −5 °C.", {}, True),
    ("What was the low?", ["-5"], "It was 5 °C.", {}, False),              # signs are kept
    ("When were they born?", [{"Tesla": 1856, "Edison": 1847}], "Tesla was born in 1856 and Edison in 1847.", {},
     True),
    ("When were they born?", [{"Tesla": 1856, "Edison": 1847}], "Tesla was born in 1856.", {}, False),
    ("Was the Nile or the Amazon longer?", ["Nile"], "The Nile or the Amazon.", {}, False),   # options derived
    ("Was the Nile or the Amazon longer?", ["Nile"], "The Nile is longer.", {}, True),
    # a decade is said as one, not as a number in another sense (held-out omh-472)
    ("Until which decade of his life?", ["twenties", "20s"], "He mastered English in the early 20th century.", {},
     False),
    ("Until which decade of his life?", ["twenties", "20s"], "Not until his 20s.", {}, True),
    # "of the five" counts the question's things (held-out omh-522 was credited with 5 for "15 years younger than the
    # next-youngest of the five")
    ("Of the five, who was youngest, and how many years younger than the next?", [["Ann", "5"]],
     "Ann, 15 years younger than the next of the five.", {"options": []}, False),
    ("Of the five, who was youngest, and how many years younger than the next?", [["Ann", "5"]],
     "Ann, five years younger than the next of the five.", {"options": []}, True),
])
def test_other_shapes(question, answers, prediction, kwargs, correct):
    assert judge_answer(question, answers, prediction, **kwargs).correct is correct


def test_the_table_is_large_enough():
    assert len(WRONG_ON_SUITE) + len(RIGHT_ON_SUITE) >= 40


# how a suite's pick questions say what to pick: an answer says the pick the same way
CUES = ("longest", "highest", "youngest", "first", "oldest", "lowest", "smallest", "earliest", "tallest")


@pytest.mark.parametrize("qid", [q.id for q in SUITE.values() if q.options])
def test_options_read_from_the_question_are_the_suites_own(qid):
    assert derive_options(SUITE[qid].question) == SUITE[qid].options


@pytest.mark.parametrize("qid", [q.id for q in SUITE.values() if q.options])
def test_repeating_the_candidates_never_scores_right_and_committing_to_the_answer_does(qid):
    q = SUITE[qid]
    right = [o for o in q.options if any(str(part).lower() in o.lower() or o.lower() in str(part).lower()
                                         for a in q.answers for part in (a if isinstance(a, list) else [a]))]
    assert len(right) == 1
    assert not judge_answer(q.question, q.answers, ", ".join(q.options) + ".", options=q.options).correct
    assert not judge_answer(q.question, q.answers, " ".join(f"{o} is a candidate." for o in q.options)).correct
    others = " ".join(str(part) for a in q.answers[:1] for part in (a if isinstance(a, list) else [a])
                      if str(part).lower() not in right[0].lower())
    cue = next(w for w in CUES if w in q.question)
    answer = f"{right[0]} is the {cue}. {others}".strip()
    assert judge_answer(q.question, q.answers, answer, options=q.options).correct, answer
    wrong = next(o for o in q.options if o != right[0])
    assert not judge_answer(q.question, q.answers, f"{wrong} is the {cue}. {others} {right[0]}",
                            options=q.options).correct


@pytest.mark.parametrize("qid", ["omh-04", "omh-10", "omh-13", "omh-14", "omh-39", "omh-42", "omh-43", "omh-48"])
def test_questions_that_offer_no_candidates_get_no_options(qid):
    assert derive_options(SUITE[qid].question) == []


@pytest.mark.parametrize("text, values", [
    ("3,147.0 km", [3147.0]), ("31.47", [31.47]), ("2,292", [2292.0]), ("5.78 million", [5780000.0]),
    ("−10,994 m", [-10994.0]), ("1809–1882", [1809.0, 1882.0]), ("twelve", [12.0]), ("3.6 and 36", [3.6, 36.0]),
])
def test_numbers_are_read_as_numbers(text, values):
    assert [n.value for n in numbers_in(text)] == values


def test_stance_reads_the_first_word_not_a_substring():
    assert stance("No, it is not.") == "no" and stance("Yes.") == "yes"
    assert stance("I do not know.") is None and stance("Nobody knows") is None and stance("No one knows") is None


@pytest.mark.parametrize("bad", [True, -1, "ten", {"absolute": "x"}, {"other": 1}, [1]])
def test_a_bad_tolerance_is_refused(bad):
    with pytest.raises(ValueError):
        parse_tolerance(bad)


def test_the_reason_names_the_clash():
    result = verdict("omh-03", "Mount Kilimanjaro is the highest, though Denali is also very high.")
    assert result.pick == "Mount Kilimanjaro" and "Denali" in result.reason
    assert "3147" in verdict("omh-04", "About 1,000 km.").reason


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300), st.sampled_from(sorted(SUITE)))
def test_the_verdict_never_raises(prediction, qid):
    result = verdict(qid, prediction)
    assert isinstance(result.correct, bool) and 0.0 <= result.f1 <= 1.0


@pytest.mark.parametrize("suite", ["offline-multihop", "long-horizon", "short-tasks"])
def test_suite_answers_read_as_their_own_answers(suite):
    """Each reference, given as the answer (with the pick said as the question asks), scores right."""
    questions = load_suite(suite)
    for q in questions:
        for answer in q.answers:
            parts = answer if isinstance(answer, list) else [answer]
            text = " ".join(map(str, parts))
            if q.options:
                cue = next(w for w in CUES if w in q.question)
                text = f"{parts[0]} is the {cue}. " + " ".join(map(str, parts[1:]))
            assert judge_answer(q.question, q.answers, text, options=q.options).correct, (q.id, text)
    json.dumps([q.model_dump() for q in questions])   # the suite stays serialisable with its options


@pytest.mark.parametrize("question, options", [
    ("Which of Trinidad and Tobago, Jamaica or Cuba is largest?", ["Trinidad and Tobago", "Jamaica", "Cuba"]),
    ("Which is bigger, France or Spain?", ["France", "Spain"]),
    ("Is Bosnia and Herzegovina or Serbia larger?", ["Bosnia and Herzegovina", "Serbia"]),
    ("What is the sum of the atomic numbers of iron, copper, silver and gold?", []),
    ("Who directed the film 2001: A Space Odyssey, and in what year did he die?", []),
    ("Zambezi, Limpopo, Niger, Orange: which of those rivers is longest?", ["Zambezi", "Limpopo", "Niger", "Orange"]),
    ("Paris, Lyon, Nice: what is their combined population?", []),
])
def test_options_read_from_other_questions(question, options):
    assert derive_options(question) == options


def test_a_total_in_the_questions_scale_is_read_in_that_scale():
    """"How many million native speakers ... altogether?" is answered by "1,028 million" as by "1,028"; a number
    that is not the total, in any scale, stays wrong, and without the question's scale "1,028 million" is not 1028."""
    question = "Of Spanish, Portuguese and Bengali, how many million native speakers do they have altogether?"
    for said in ("Together they come to 1,028 million.", "They have 1,028 million native speakers.", "1,028."):
        assert judge_answer(question, ["1028"], said).correct, said
    assert not judge_answer(question, ["1028"], "Together they come to 1,029 million.").correct
    assert not judge_answer("How many native speakers do they have altogether?", ["1028"],
                            "Together they come to 1,028 million.").correct
    # under a million in the question's scale: "0.69 million" is 0.69 (held-out omh-234 read 690,000 only)
    by = "By how many million did the three together outnumber the other two?"
    assert judge_answer(by, ["0.69"], "They have 0.69 million more than the other two.").correct
    assert not judge_answer(by, ["0.69"], "They have 690 more than the other two.").correct


def test_a_pick_among_things_the_question_describes_must_be_said():
    """omh-161 describes its four things ("the launch of the two Voyager probes, ...") and asks which got going
    first: no list the question's words show, so the things looked up are the options. An answer that lists all
    four with their dates names Voyager but never says it came first (the verdict credited it; overturned by
    hand). Saying where it ranks is right; a clause that ranks another thing, or denies Voyager's rank, is not."""
    q = SUITE["omh-161"]
    listed = ("The launch of the two Voyager probes was in 1977, the Space Shuttle's years in service were 30 years, "
              "the Mir station's time in orbit was 2000, and the Hubble Space Telescope was launched in 1990. The "
              "Shuttle's operating years and Mir's operating years add up to 45 years.")
    assert q.options == [] and not judge_answer(q.question, q.answers, listed, options=q.options,
                                                evidence=q.evidence).correct
    for right in ("The Voyager program is the earliest, in 1977. Together they come to 45 years.",
                  "Voyager got going first (1977); the Shuttle and Mir operated 30 + 15 = 45 years."):
        assert judge_answer(q.question, q.answers, right, options=q.options, evidence=q.evidence).correct, right
    for wrong in ("Mir is the earliest; Voyager came in 1977. 45 years.",
                  "Voyager was not the first. 45 years."):
        assert not judge_answer(q.question, q.answers, wrong, options=q.options, evidence=q.evidence).correct, wrong


def test_the_things_looked_up_are_no_options_when_the_answer_is_found_not_picked():
    """Who directed a film the question names is found, not picked among its pages (omh-39: "Stanley Kubrick
    directed 2001: A Space Odyssey"); an answer naming several things (lh-63's three groups) is no single pick."""
    q = SUITE["omh-39"]
    said = "Stanley Kubrick directed 2001: A Space Odyssey in 1968, and he died in 1999."
    assert judge_answer(q.question, q.answers, said, options=q.options, evidence=q.evidence).correct
    lh = {item.id: item for item in load_suite("long-horizon")}["lh-63"]
    said = "Those within the question's bounds are echinoderms, starfish and sea cucumbers; together 11,286 species."
    assert judge_answer(lh.question, lh.answers, said, options=lh.options, evidence=lh.evidence).correct


def test_a_plural_names_its_option():
    """"chameleons is the fewest" names the Chameleon (held-out omh-153's code answer), and a plural of another
    option is a pick of that other one."""
    question = ("We use the species counts for lizards as a whole, geckos, skinks, chameleons and turtles. Which of "
                "the five groups has the fewest species?")
    pages = ["Lizard", "Gecko", "Skink", "Chameleon", "Turtle"]
    assert judge_answer(question, [["chameleon"]], "chameleons is the fewest, at 200.", options=[],
                        evidence=pages).correct
    assert not judge_answer(question, [["chameleon"]], "geckos are the fewest, at 1,500; chameleons 200.",
                            options=[], evidence=pages).correct


def test_a_rank_said_of_the_one_option_a_sentence_names_is_a_pick():
    """"Stalin, who led the Soviet Union from 1924 to 1953, was in charge the longest" picks Stalin (held-out
    omh-170's forced answer; its clauses part the name from its rank); a sentence that names two options and a
    rank picks neither."""
    question = ("Lenin, Stalin, Khrushchev, Brezhnev and Gorbachev each led the Soviet Union. Who was in charge the "
                "longest, and by how many years do the other four tenures put together exceed his?")
    pages = ["Vladimir Lenin", "Joseph Stalin", "Nikita Khrushchev", "Leonid Brezhnev", "Mikhail Gorbachev"]
    said = ("Stalin, who led the Soviet Union from 1924 to 1953, was in charge the longest, with a tenure of 29 years. "
            "The other four exceed it by 8 years.")
    assert judge_answer(question, [["Stalin", "8"]], said, options=[], evidence=pages).correct
    both = "Stalin, who followed Lenin in 1924, was in charge the longest. The other four exceed it by 8 years."
    assert not judge_answer(question, [["Stalin", "8"]], both, options=[], evidence=pages).correct


def test_a_thing_named_only_as_one_without_a_value_is_not_in_the_answer():
    """An answer computed without one thing's value says so ("No value was found for Iraq."): that names Iraq as
    missing, not among those within the bound (held-out omh-67's gold lists Iraq, Thailand and Vietnam)."""
    question = ("Which of Bhutan, Bangladesh, Iraq, Thailand and Vietnam cover more than 300,000 km², and what is the "
                "total area of those countries?")
    gold = [["Iraq", "Thailand", "Vietnam", "1282432"]]
    missing = "Those within the question's bounds are Thailand and Vietnam; together 1,282,432. No value was found for Iraq."
    assert not judge_answer(question, gold, missing).correct
    assert judge_answer(question, gold, missing.replace("Thailand and Vietnam", "Iraq, Thailand and Vietnam")).correct
