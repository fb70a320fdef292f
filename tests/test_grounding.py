"""Which numbers of a final answer are backed by the question or an observation."""
from __future__ import annotations

import pytest

from agent.grounding import ungrounded_numbers


@pytest.mark.parametrize("answer, sources, missing", [
    ("Edison (1847–1931) would be 89 today.", ["American inventor (1847–1931)"], ["89"]),
    ("15 squared is 225.", ["What is 15 squared?", "225"], []),
    ("It is 225.0.", ["225"], []),                                  # a trailing .0 is the same number
    ("He registered 1093 patents.", ["Edison registered 1,093 patents"], []),
    ("Pi is about 3.14.", ["3.141592653589793"], []),               # a rounded observation
    ("Pi is about 3.15.", ["3.141592653589793"], ["3.15"]),
    ("Born 1847-02-11, he is 179.", ["start 1847-02-11 to end 2026-12-03: 179 years"], []),
    ("The 2 parts: 7 and 9.", [], []),                              # single digits are not checked
    ("Costs 40 and 40 again, 41 too.", ["40"], ["41"]),
    ("No numbers at all.", ["123"], []),
])
def test_ungrounded_numbers(answer, sources, missing):
    assert ungrounded_numbers(answer, sources) == missing


def test_a_not_found_message_does_not_back_the_numbers_it_echoes_from_the_input():
    """Measured on held-out omh-69: a helper looked up its own claim, the page did not hold it, and the message
    quoting the claim backed its 150 pounds."""
    from core.schema import Findings, Step, ToolStatus
    from core.support import backing_text
    claim = "The maximum weight of a beaver is 150 pounds (68 kg)"
    not_found = Step(index=0, thought="", action="wikipedia_lookup", action_input=f"Beaver | {claim}",
                     observation=f'"{claim}" does not appear in the Wikipedia page "Beaver" (1,000 kinds).',
                     findings=Findings(status=ToolStatus.not_on_page, pages=["Beaver"]))
    assert ungrounded_numbers("It weighs 150 pounds.", [backing_text(not_found)]) == ["150"]
    assert ungrounded_numbers("There are 1,000 kinds.", [backing_text(not_found)]) == []  # not from the input
    found = not_found.model_copy(update={"observation": "1. It can weigh 150 pounds (68 kg).",
                                         "findings": Findings(status=ToolStatus.found, pages=["Beaver"])})
    assert ungrounded_numbers("It weighs 150 pounds.", [backing_text(found)]) == []
