"""The name and multi-part final-answer checks, on the cases that motivated them."""
from __future__ import annotations

import pytest

from agent.checks import every_part_answered, names, names_are_grounded, question_parts
from agent.outcomes import FinalCandidate
from core.schema import Step

PHOTOGRAPHY = ("Photography, art and practice of creating images (offline Wikipedia): Photography is the art of "
               "creating durable images by recording light. The daguerreotype of Louis Daguerre was announced in 1839.")
EDISON = ("Thomas Edison, American inventor (1847–1931): He developed many devices, including the phonograph, the "
          "motion picture camera and a long-lasting light bulb.")


def candidate(task: str, answer: str, *observations: str) -> FinalCandidate:
    steps = [Step(index=i, action="wikipedia_summary", action_input="x", observation=o)
             for i, o in enumerate(observations)]
    return FinalCandidate(answer=answer, task=task, today="2026-12-03", steps=steps)


def test_a_name_no_observation_about_the_question_supports_is_sent_back():
    verdict = names_are_grounded(candidate("Who invented the phonograph?",
                                           "The phonograph was invented by Louis Daguerre.", PHOTOGRAPHY))
    assert verdict and "Louis Daguerre" in verdict
    assert names_are_grounded(candidate("Who invented the phonograph?",
                                        "The phonograph was invented by Thomas Edison.", PHOTOGRAPHY, EDISON)) is None


def test_names_named_by_the_question_or_starting_a_sentence_need_no_source():
    assert names("The answer is Paris. It is in France, says Victor Hugo.") == ["Paris", "France", "Victor Hugo"]
    assert names_are_grounded(candidate("Where is Thomas Edison buried?", "Thomas Edison is buried there.")) is None


def test_question_parts():
    assert question_parts("What is Python, and what is 15 raised to the power of 2?") == [
        "What is Python", "what is 15 raised to the power of 2"]
    assert question_parts("Who wrote Hamlet and Macbeth?") == ["Who wrote Hamlet and Macbeth"]


def test_an_answer_that_leaves_a_part_out_is_sent_back():
    task = "What is Python, and what is 15 raised to the power of 2?"
    assert every_part_answered(candidate(task, "Python is a programming language; 15 squared is 225.")) is None
    verdict = every_part_answered(candidate(task, "15 raised to the power of 2 is 225."))
    assert verdict and '"What is Python"' in verdict
    assert every_part_answered(candidate(task, "Python is a programming language.")) is not None
    assert every_part_answered(candidate("Who invented the phonograph?", "Edison.")) is None  # one part


def test_a_check_may_be_an_llm_call_and_its_verdict_is_on_the_final_step():
    from agent.checks import answer_judge, checks_named
    from agent.config import AgentConfig
    from agent.llm.replay import Replay
    from agent.loop import Agent
    from tools.base import ToolRegistry
    from tools.calculator import calculator

    judge_llm = Replay(["NO: the answer names no product.", "YES"])
    steps = ["Thought: Compute.\nAction: calculator\nAction Input: 6*7",
             "Thought: Done.\nAction: Final\nAction Input: It is large.",
             "Thought: Be precise.\nAction: Final\nAction Input: 6 times 7 is 42."]
    config = AgentConfig(final_answer_checks=checks_named("numbers,judge", llm=judge_llm))
    result = Agent(Replay(steps), ToolRegistry([calculator]), config=config).run("What is 6 times 7?")
    assert result.answer == "6 times 7 is 42."
    sent_back, accepted = result.steps[1], result.steps[2]
    assert sent_back.outcome == "final_sent_back" and "a reviewer says the answer names no product." in \
        sent_back.observation
    assert sent_back.verdicts["answer_judge"].startswith("Check before finishing")
    assert accepted.verdicts == {"numbers_are_grounded": "ok", "answer_judge": "ok"}
    judged = judge_llm.calls[0][0].content
    assert "calculator('6*7'): 42" in judged and "Proposed final answer: It is large." in judged
    assert judge_llm.grammars == [answer_judge(judge_llm).__globals__["JUDGE_GBNF"]] * 2
    with pytest.raises(ValueError):
        checks_named("judge")  # no model to judge with
