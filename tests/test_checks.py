"""The name and multi-part final-answer checks, on the cases that motivated them."""
from __future__ import annotations

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
