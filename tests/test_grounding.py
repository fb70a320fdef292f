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
