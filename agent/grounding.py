"""Is a final answer's every number backed by the question or an observation?

Small models like to finish with a number they worked out in their head (an age, a product) instead of
with a tool. The loop checks a Final answer (a bounded number of times a run): numbers that appear in no
observation, nor in the question or today's date, are sent back to the model, which can then compute or look
them up, or answer again.
"""
from __future__ import annotations

import re

from agent.reading import listed_names
from core.schema import StepOutcome
from core.support import backing_text, numbers, ungrounded_numbers
from core.text import SENTENCE_BREAK
from core.units import scaled_numbers
from memory.ledger import ledger


def numbers_are_grounded(candidate) -> str | None:
    """The final-answer check for numbers (agent.outcomes.FinalCheck): None if every number is backed."""
    sources = [candidate.task, candidate.today,
               *(backing_text(step) for step in candidate.steps if not step.is_final)]
    missing = ungrounded_numbers(candidate.answer, _written_out(sources))
    if not missing:
        return None
    still = "still " if candidate.rejections else ""
    return (f"Check before finishing: your answer {still}states {', '.join(missing)}, which no Observation "
            "shows. Work it out with a tool (calculator, date_diff) or look it up, then write a new Final "
            "answer that uses the Observations' numbers; if it is right as it is, repeat the same Final answer.")


def answer_from_facts(candidate) -> str | None:
    """The final-answer check of a run with a facts ledger (--research): each number of the answer is a ledger
    value, the question's, today's date's, or a result a computing tool (calculator, date_diff) gave: a number
    read somewhere but never established, or remembered, goes back naming what is missing."""
    facts = ledger(candidate.steps)
    if not facts:
        return None  # nothing established yet: the other checks judge
    computed = [step.observation for step in candidate.steps
                if step.outcome is StepOutcome.tool and step.findings is None and not step.is_final]
    sources = [candidate.task, candidate.today, *(f"{fact.value} {fact.quote}" for fact in facts), *computed]
    missing = ungrounded_numbers(candidate.answer, _written_out(sources))
    if not missing:
        return None
    return (f"Check before finishing: your answer states {', '.join(missing)}, which is neither in your facts "
            "table nor a calculator or date_diff result. Establish it (research the fact, or compute it from the "
            "table's values), then answer again; if it is right as it is, repeat the same Final answer.")


def _written_out(sources: list[str]) -> list[str]:
    """The sources, and the numbers they state with a scale written out ("7 million" backs 7,000,000)."""
    return [*sources, " ".join(number for source in sources for number in scaled_numbers(source))]


_PICKED = re.compile(r"\(= F\d+: ([^,;)]+)")
_GENERIC = {"river", "mount", "mountains", "lake", "sea", "island", "islands", "city", "the", "of"}


def answer_names_the_computed_pick(candidate) -> str | None:
    """The final-answer check of a lead: when a max() or min() over the facts named its row ("1465 (= F1: Godavari
    River, ...)"), the answer names that thing. Measured with the 1.5B model: after max() named the Godavari, the
    lead answered with the table's largest number, a glacier's height in metres, and its river. An answer that
    states the computed value, or names the pick and none of the other things listed, passes."""
    for step in reversed(candidate.steps):
        if step.action != "calculator" or not step.action_input.startswith(("max(", "min(")):
            continue
        picked = _PICKED.findall(step.observation)
        if not picked:
            continue  # a repeat's warning: the named result is further back
        result = numbers(step.observation, single_digits=True)[:1]  # the pick's value may be one digit: "max(4, 9)"
        others = [name for name in listed_names(candidate.task) if not any(_named(name, s) for s in picked)]
        # an answer's lone digits count only against a one-digit result ("Of the 3 rivers" states no max of 1465)
        if set(result) & set(numbers(candidate.answer, single_digits=len(result[0]) == 1 if result else False)):
            return None  # it states the computed value
        if any(_named(s, candidate.answer) for s in picked) and not any(_named(o, candidate.answer) for o in others):
            return None  # it names the pick, and only the pick (not the question's list again)
        which = "largest" if step.action_input.startswith("max(") else "smallest"
        return (f"Check before finishing: the calculator at step {step.index} found the {which} value: "
                f"{step.observation}. Your answer does not name {picked[0]}. Answer from that result (repeat the "
                "same Final answer only if it is right as it is).")
    return None


def _named(subject: str, answer: str) -> bool:
    words = [w for w in re.findall(r"[\w'-]+", subject.lower()) if w not in _GENERIC] or [subject.lower()]
    said = answer.lower()
    return any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", said) for w in words)


def answer_is_not_the_question(candidate) -> str | None:
    """The final-answer check against an answer that restates the question (measured: the 1.5B lead, its helpers'
    facts in the table, gave the question itself as its Final answer, twice in 19 held-out questions)."""
    said, asked = _words(candidate.answer), _words(candidate.task)
    # the question's own words cut mid-way are no answer either (held-out lh-50: "... more than 50,000 species,")
    copied = len(said) >= 8 and " ".join(candidate.answer.split()).rstrip(",.;: ") in " ".join(candidate.task.split())
    if not said or len(said & asked) < 0.8 * len(said) or not (candidate.answer.rstrip().endswith("?") or copied):
        return None
    return ("Check before finishing: your answer repeats the question. Answer it: name what it asks for and give "
            "the values your Observations and facts table show (compute with the calculator first if it asks for "
            "a number).")


# the question restated is no answer, even after the send-backs run out (held-out omh-69 and lh-29 ended
# "answered" with their own question): the run stops unanswered instead
answer_is_not_the_question.no_answer = True


def answer_is_not_the_page(candidate) -> str | None:
    """A helper's final-answer check: an answer that copies two sentences or more of a page it read is the page,
    not the fact asked (held-out omh-405's helper, asked what ranking system is attributed to Kanō Jigorō, answered
    with his page's intro, cut before the sentence that says "dan ranking")."""
    read = [" ".join(step.observation.split()) for step in candidate.steps if not step.is_final and step.findings]
    sentences = [sentence for sentence in SENTENCE_BREAK.split(" ".join(candidate.answer.split()))
                 if len(sentence.split()) >= PASTED_WORDS]
    if sum(any(sentence.rstrip(".!?") in page for page in read) for sentence in sentences) < 2:  # or cut short
        return None
    return (f"Check before finishing: your answer copies the page. Answer the question, \"{candidate.task}\", in "
            "one short sentence with only the fact it asks for, in the page's words.")


PASTED_WORDS = 5  # a sentence this long found word for word in a page was copied from it


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))
