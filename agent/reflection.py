"""`--reflect`: after a failed attempt the model writes a short lesson (what went wrong, what to do instead) and the
question is tried again from scratch with the lessons in the prompt, as Reflexion does (Shinn et al., 2023).

An attempt failed when a limit stopped it (steps, repeats, time, tokens, parse errors) or when its Final answer was
accepted only because the checks had run out of send-backs. The lesson is kept as an annotation of the failed run, and
with a memory space (`--remember`) later runs on related questions recall it.
"""
from __future__ import annotations

from typing import Callable

from agent.events import Event, LessonWritten
from agent.loop import Agent
from core.llm import LLM, LLMError, Message
from core.schema import RunResult, StopReason, Usage

MAX_LESSON_CHARS = 400
_NOT_RETRIED = (StopReason.final_answer, StopReason.interrupted, StopReason.llm_error)

LESSON_SYSTEM = "You review a failed attempt at a research question and say what to do differently next time."
LESSON = """Question: {task}

The attempt's steps:
{steps}

How it ended: {failure}
Its answer: {answer}

In one or two sentences, write the lesson for the next attempt: what went wrong and what to do instead (which \
tool, which page title or search keywords, which part of the question still needs an answer). Start with "Lesson:"."""


def failure(result: RunResult) -> str | None:
    """Why the attempt failed, or None if it answered (or cannot be helped by another try)."""
    if result.stop_reason not in _NOT_RETRIED:
        forced = "; its answer was forced from the work so far" if result.forced_answer else ""
        return f"a limit stopped it ({result.stop_reason.value}) after {len(result.steps)} steps{forced}"
    if result.stop_reason is StopReason.final_answer and result.steps:
        objections = [message for message in result.steps[-1].verdicts.values() if message != "ok"]
        if objections:
            return f"its Final answer was accepted only because the checks ran out of send-backs: {objections[0]}"
    return None


def _step_lines(result: RunResult) -> str:
    lines = [f"{step.index}. {step.action}({step.action_input[:80]!r}) -> {' '.join(step.observation.split())[:140]}"
             for step in result.steps[-12:]]  # the latest steps: a bounded prompt however long the attempt
    return "\n".join(lines) or "(no steps)"


def write_lesson(llm: LLM, result: RunResult, why: str) -> tuple[str, Usage]:
    prompt = LESSON.format(task=result.task, steps=_step_lines(result), failure=why, answer=result.answer or "none")
    completion = llm.complete([Message(role="system", content=LESSON_SYSTEM), Message(role="user", content=prompt)])
    text = " ".join(completion.text.split())
    text = text.split("Lesson:", 1)[1].strip() if "Lesson:" in text else text
    return text[:MAX_LESSON_CHARS] or "The attempt failed; take another route to the missing facts.", completion.usage


def solve(task: str, attempt: Callable[[int, list[str]], Agent], *, llm: LLM, retries: int,
          on_event: Callable[[Event], None] | None = None) -> RunResult:
    """Run attempt 0, and after each failed attempt write a lesson and run the next, at most `retries` more.

    attempt(n, lessons) makes the agent of attempt n (its own run id and memory). The result is the last
    attempt's, with the usage and wall time of all of them and the lessons."""
    lessons: list[str] = []
    usage, seconds = Usage(), 0.0
    for number in range(retries + 1):
        agent = attempt(number, list(lessons))
        result = agent.run(task, on_event=on_event)
        usage, seconds = usage + result.usage, seconds + result.wall_seconds
        why = failure(result)
        if why is None or number == retries:
            break
        try:
            lesson, lesson_usage = write_lesson(llm, result, why)
        except LLMError:
            break  # no lesson, no better retry: the attempt's own result stands
        usage = usage + lesson_usage
        lessons.append(lesson)
        if agent.memory is not None:
            agent.memory.annotate("lesson", lesson)
        if on_event:
            on_event(LessonWritten(attempt=number, failure=why, lesson=lesson, usage=lesson_usage))
    return result.model_copy(update={"usage": usage, "wall_seconds": seconds, "attempts": number + 1,
                                     "lessons": lessons})
