"""How a prompt is laid out: the question with what memory recalls, then the recent steps as turns."""
from __future__ import annotations

from agent import prompts
from core.schema import ParseStatus, Step
from memory.base import Context


def test_first_step_is_the_system_prompt_and_the_question():
    messages = prompts.build_messages("Who wrote Hamlet?", Context(), "- calculator: math", "2026-12-03")
    assert [m.role for m in messages] == ["system", "user"]
    assert "Today's date is 2026-12-03" in messages[0].content and "- calculator: math" in messages[0].content
    assert "57 years ago" in messages[0].content  # the date example agrees with today's date (2026 - 1969)
    assert messages[1].content == "Question: Who wrote Hamlet?"


def test_recent_steps_are_turns_and_the_background_goes_with_the_question():
    recent = [Step(index=4, thought="look", action="wikipedia_summary", action_input="Hamlet",
                   observation="A tragedy by Shakespeare."),
              Step(index=5, raw="I think the answer is", parse_status=ParseStatus.error,
                   observation="Error: could not parse your output")]
    context = Context(background="Summary of steps 0-3:\n- Hamlet is a play", recent=recent)
    messages = prompts.build_messages("Who wrote Hamlet?", context, "tools", "2026-12-03")
    assert [m.role for m in messages] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert messages[1].content.startswith("Question: Who wrote Hamlet?\n\nWhat you already know from memory")
    assert "- Hamlet is a play" in messages[1].content
    assert messages[2].content == "Thought: look\nAction: wikipedia_summary\nAction Input: Hamlet"
    assert messages[3].content == "Observation: A tragedy by Shakespeare."
    assert messages[4].content == "I think the answer is"  # an unparsable reply is shown as written
    assert messages[5].content == "Observation: Error: could not parse your output"
    assert "[step 4]" in context.text and context.text.startswith("Summary of steps 0-3")


def test_the_forced_final_prompt_carries_all_the_work_as_text():
    context = Context(recent=[Step(index=0, thought="t", action="calculator", action_input="2*3", observation="6")])
    messages = prompts.build_forced_final("What is 2*3?", context, "2026-12-03")
    assert "Observation: 6" in messages[-1].content and "run out of steps" in messages[-1].content
