"""The `long-recall` suite: scripted runs of 50-150 steps through the real loop, the real offline tools and the
real memory, whose last answer needs facts observed in the first few steps. No LLM: a Replay model plays the
agent, so it runs anywhere, in CI too.

The scripted agent looks up 4 people at the start (their years are in the offline pages' descriptions), then
works through background pages and arithmetic, and at the end answers with the birth years it can find in its
prompt. It knows nothing the prompt does not show: the answer is right exactly when the memory strategy kept
the early facts reachable. In half the scenarios the agent's next thought restates each fact ("Noted: ..."), as
models often do; in the other half the facts live only in the observations.

The model is given the embedded model's context window (4,096 tokens, counted as about 4 characters a token),
so a strategy whose prompt outgrows it dies of context overflow, as it would with the local model.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

from ponder.bench.suites import BenchQuestion
from agent.llm.replay import Replay
from core.llm import LLMError, Message
from core.schema import step_call

CONTEXT_WINDOW = 4096
PEOPLE = [  # each has "(birth–death)" in its offline description
    ["Thomas Edison", "Marie Curie", "Isaac Newton", "Charles Darwin"],
    ["Ada Lovelace", "Nikola Tesla", "Galileo Galilei", "Johannes Kepler"],
    ["Louis Pasteur", "Michael Faraday", "Alan Turing", "Gregor Mendel"],
    ["Dmitri Mendeleev", "Leonhard Euler", "Carl Friedrich Gauss", "Niels Bohr"],
]
SCENARIOS = [(50, False), (80, True), (120, False), (150, True)]  # (steps, thoughts restate the facts)
_YEARS = re.compile(r"\((\d{3,4})–(\d{3,4})\)")
_SUMMARISER_SYSTEM = "You keep the working notes"  # the summariser's system prompt begins so
_COMPACT_REQUEST = "Pause the research"            # ... and its request inside the agent's conversation


@dataclass(frozen=True)
class Scenario:
    id: str
    people: tuple[str, ...]
    born: tuple[str, ...]
    steps: int
    restate: bool
    background: tuple[str, ...]  # other pages to read in between (people with years too: hard distractors)

    @property
    def question(self) -> str:
        return (f"Look up {', '.join(self.people[:-1])} and {self.people[-1]} first; then work through the "
                f"background reading. At the end, give the birth year of each of the four.")


def scenarios(docs, limit: int | None = None) -> list[Scenario]:
    """The suite's scenarios, built from the offline corpus `docs` (title, description)."""
    by_title = {doc.title: doc for doc in docs}
    pool = sorted(doc.title for doc in docs if _YEARS.search(doc.description)
                  and not any(doc.title in group for group in PEOPLE))
    built = []
    for number, ((steps, restate), people) in enumerate(zip(SCENARIOS, PEOPLE), 1):
        born = tuple(_YEARS.search(by_title[name].description).group(1) for name in people)
        background = tuple(random.Random(number).sample(pool, steps))
        built.append(Scenario(f"long-recall-{steps}", tuple(people), born, steps, restate, background))
    return built[:limit]


def questions(items: list[Scenario]) -> list[BenchQuestion]:
    return [BenchQuestion(id=s.id, question=s.question, answers=[list(s.born)], evidence=list(s.people),
                          kind="restated" if s.restate else "observed", lookups=len(s.people)) for s in items]


def _step(thought: str, action: str, action_input: str) -> str:
    return step_call(thought, action, action_input)


class ScriptedResearcher:
    """Replay's responder for one scenario: its step script, an extractive summary for the summariser, and a final
    answer from what the prompt shows."""

    def __init__(self, scenario: Scenario):
        self.s, self.step = scenario, 0

    def __call__(self, messages: list[Message]) -> str:
        prompt = "\n".join(m.content for m in messages)
        if messages and messages[0].content.startswith(_SUMMARISER_SYSTEM):
            return _extractive_summary(messages[-1].content)
        if messages and messages[-1].content.startswith(_COMPACT_REQUEST):
            return _extractive_summary_in_turns(messages)
        index, self.step = self.step, self.step + 1
        s, k = self.s, len(self.s.people)
        if index < k:
            restated = ""
            if s.restate and index:
                restated = f"Noted: {s.people[index - 1]} was born in {s.born[index - 1]}. "
            return _step(f"{restated}I look up {s.people[index]}.", "wikipedia_summary", s.people[index])
        if index < s.steps - 2:
            j = index - k
            if s.restate and j == 0:
                lead = f"Noted: {s.people[-1]} was born in {s.born[-1]}. "
            else:
                lead = ""
            if j % 3 == 2:
                return _step(f"{lead}A side calculation for the notes.", "calculator", f"{j * 37 + 11}*{j % 7 + 3}")
            page = s.background[j]
            return _step(f"{lead}Background reading: {page}.", "wikipedia_summary", page)
        if index == s.steps - 2:
            return _step(f"Now I need the birth years of {', '.join(s.people)}, which I looked up at the start.",
                         "calculator", "2+2")
        found = [f"{person} was born in {year}" for person, year in zip(s.people, s.born)
                 if _shows(prompt, person, year)]
        answer = "; ".join(found) + "." if found else "I can no longer see the years I looked up."
        return _step("I answer from what my notes show.", "Final", answer)


def _shows(prompt: str, person: str, year: str) -> bool:
    """Does the prompt state this person's birth year near their name?"""
    return any(year in prompt[at.start():at.start() + 300] for at in re.finditer(re.escape(person), prompt))


def _extractive_summary(summariser_prompt: str) -> str:
    """The current summary, then each new step's observation head, with its step number."""
    current = summariser_prompt.split("Current notes:\n", 1)[-1].split("\n\nNew steps:", 1)[0].strip()
    lines = [] if current.startswith("(none") else [line for line in current.splitlines() if line.strip()]
    for number, observation in re.findall(r"\[step (\d+)\].*?Observation: ([^\n]*)", summariser_prompt, re.S):
        lines.append(f"- {observation[:160]} (step {number})")
    return "Facts:\n" + "\n".join(line for line in lines if line != "Facts:")


def _extractive_summary_in_turns(messages: list[Message]) -> str:
    """An extractive summary when asked inside the conversation: the summary the question shows, then each
    observation in the conversation, numbered from the first step the request names."""
    first = int(re.search(r"from step (\d+)", messages[-1].content).group(1))
    question = messages[1].content
    current = question.split("):\n", 1)[1].strip() if "Your notes on steps" in question else ""
    lines = [line for line in current.splitlines() if line.strip() and not line.startswith("Facts:")]
    observations = [m.content for m in messages[2:-1] if m.role == "user" and m.content.startswith("Observation: ")]
    for offset, observation in enumerate(observations):
        lines.append(f"- {observation[len('Observation: '):][:160]} (step {first + offset})")
    return "Facts:\n" + "\n".join(lines[-12:])  # a summary is kept short


class WindowedReplay(Replay):
    """A Replay with a context window: a prompt over it fails as the local model's would."""

    def __init__(self, *args, n_ctx: int = CONTEXT_WINDOW, **kwargs):
        super().__init__(*args, **kwargs)
        self.n_ctx = n_ctx

    def count_tokens(self, text: str) -> int:
        return len(text) // 4  # the window's own measure, so the memory budgets in the same units

    def complete(self, messages, stop=(), tool_names=(), grammar=None):
        tokens = sum(len(m.content) for m in messages) // 4
        if tokens > self.n_ctx:
            self.calls.append(list(messages))
            raise LLMError(f"The local model could not take this prompt: Requested tokens ({tokens}) exceed "
                           f"context window of {self.n_ctx}")
        return super().complete(messages, stop=stop, tool_names=tool_names)


def llm_for(scenario: Scenario) -> WindowedReplay:
    return WindowedReplay(responder=ScriptedResearcher(scenario), name="scripted-researcher")
