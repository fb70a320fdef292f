"""`--judge MODEL`: an LLM's verdict on a bench answer, stored beside the rule-based verdict, never instead of it.

Any model Ponder can run serves: an OpenAI-compatible server's model, or a local GGUF (then the reply is
grammar-constrained to CORRECT/WRONG and a reason). The report shows how often the judge agrees with the rules.
"""
from __future__ import annotations

import re
from typing import Any, Sequence

from ponder.bench.runner import JudgeVerdict
from core.llm import LLM, LLMError, Message

JUDGE_SYSTEM = "You grade answers to research questions against reference answers. You are strict and brief."
JUDGE_PROMPT = """Question: {question}
Reference answer (every part is needed): {references}
Answer to grade: {prediction}

The answer is correct only if it commits to the reference answer with all its parts. Listing several candidates \
without choosing one, choosing a wrong one, a different number (rounding aside), or text that does not answer the \
question is wrong. Reply with one line: CORRECT: <reason> or WRONG: <reason>."""
JUDGE_GBNF = 'root ::= ("CORRECT" | "WRONG") ": " [^\\n]{1,200}\n'
_REPLY = re.compile(r"^\W*(CORRECT|WRONG|INCORRECT)\b\W*(.*)", re.I | re.S)
MAX_REASON = 200


def _references(answers: Sequence[Any]) -> str:
    return " | or | ".join(" + ".join(map(str, a)) if isinstance(a, (list, tuple)) else str(a) for a in answers)


def judge(llm: LLM, question: str, answers: Sequence[Any], prediction: str | None) -> JudgeVerdict:
    """The judge's verdict; a reply it cannot read, or a model it cannot reach, is correct=None with why."""
    if not prediction or not prediction.strip():
        return JudgeVerdict(model=llm.name, correct=False, reason="no answer")
    prompt = JUDGE_PROMPT.format(question=question, references=_references(answers),
                                 prediction=" ".join(prediction.split())[:1500])
    try:
        reply = llm.complete([Message(role="system", content=JUDGE_SYSTEM), Message(role="user", content=prompt)],
                             grammar=JUDGE_GBNF).text.strip()
    except LLMError as exc:
        return JudgeVerdict(model=llm.name, correct=None, reason=f"judge unavailable: {exc}"[:MAX_REASON])
    match = _REPLY.match(reply)
    if not match:
        return JudgeVerdict(model=llm.name, correct=None, reason=f"unreadable reply: {reply[:120]!r}")
    reason = " ".join(match[2].split())[:MAX_REASON]
    return JudgeVerdict(model=llm.name, correct=match[1].upper() == "CORRECT", reason=reason)
