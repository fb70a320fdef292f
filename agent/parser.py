"""Turn raw model text into (thought, action, action input), leniently, without ever raising.

Layers, first usable result wins:
1. strict ``Thought: / Action: / Action Input:`` lines (any case, extra spaces, markdown bold, numbered labels
   like ``Action 2:``, full-width colons, ``Final Answer: ...``, ReAct-paper ``search[Paris]``);
2. a JSON object (bare or in a fenced block) with keys such as thought / action / action_input;
3. lenient fallbacks: labels in the middle of a line, ``Tool:`` / ``Input:`` / ``Answer:`` lines;
4. otherwise a parse error whose message, written for the model, says what was wrong and the exact format.

Choices worth knowing:
- When the text holds both a tool action and a final answer, the first tool action wins: the model wrote the
  answer before seeing the observation, so it gets to see it first. (LangChain raises here instead.)
- With two tool actions, the first one wins; the rest is ignored.
- Text the model invented after its action (``Observation: ...``, or ``Result: ...`` after the Action Input) is
  cut off: it never ran.
- ``Answer: X`` counts as a final answer only on a line of its own and only when there is no action at all.
- An Action with no Action Input is an error, except ``search[Paris]`` / ``search(Paris)`` forms and a one-line
  ``Action: search Paris`` (first word is the tool, the rest its input; status lenient).
"""
from __future__ import annotations

import json
import re
from typing import Iterator

from pydantic import BaseModel

from core.schema import FINAL_ACTION as FINAL
from core.schema import ParseStatus
from core.text import clip

FORMAT_HELP = """Reply in exactly this format:
Thought: <your reasoning>
Action: <one tool name>
Action Input: <the input for the tool>
or, when you know the answer:
Thought: <your reasoning>
Action: Final
Action Input: <the complete answer>"""
CUT_OFF = ("Your reply was cut off at the length limit, so none of it was used. Write the three lines again, "
           "shorter: a short Thought and a short Action Input.")


class Parsed(BaseModel):
    thought: str = ""
    action: str = ""          # "Final" for a final answer, a tool name otherwise, "" on error
    action_input: str = ""    # the answer text when action == "Final"
    status: ParseStatus = ParseStatus.ok
    error: str | None = None  # for the model: what was wrong and the format to use
    cut: bool = False         # the reply stopped on the token limit (status error: nothing in it is used)

    @property
    def is_final(self) -> bool:
        return self.action == FINAL


# ---- labels ----

_COLON = r"[ \t]*[:：]"  # small models (Qwen) sometimes write the full-width colon
_KINDS = {  # normalised label text -> kind
    "thought": "thought", "thoughts": "thought",
    "action": "action", "tool": "action", "toolname": "action",
    "actioninput": "input", "actioninputs": "input", "input": "input", "toolinput": "input",
    "finalanswer": "final", "answer": "final",
    "observation": "observation",
}
# Line-start labels, any case: optional markdown/list prefix, optional step number, optional bold close.
_STRICT_LABEL = re.compile(
    r"^[ \t>#*_\-]*(?P<label>thoughts?|action[ _\-]?inputs?|final[ _\-]?answer|action|observation)"
    r"(?:[ \t]*\d+)?[ \t*_]*[:：](?:[ \t]*\*\*(?=\s))?[ \t]*",
    re.IGNORECASE | re.MULTILINE)
# Lenient extras: the canonical labels in mid-line (exact capitalisation only, to avoid "my next action: ...")
# and key-value lines with other common names.
_INLINE_LABEL = re.compile(r"(?<!\w)(?P<label>Thought|Action Input|Final Answer|Action|Observation)" + _COLON
                           + r"[ \t]*")
_EXTRA_LABEL = re.compile(
    r"^[ \t>#*_\-]*(?P<label>tool[ _\-]?input|tool[ _\-]?name|tool|input|answer)[ \t*_]*[:：][ \t]*",
    re.IGNORECASE | re.MULTILINE)
# The invented tool result a small model writes after its Action Input.
_RESULT_LINE = re.compile(r"^[ \t>#*_\-]*results?[ \t*_]*[:：]", re.IGNORECASE | re.MULTILINE)

_FINAL_NAMES = {"final", "finalanswer", "finish", "answer"}
_NO_ACTION_NAMES = {"none", "na", "null", "nothing", "noaction", "notool", "noneneeded"}
_BRACKET_CALL = re.compile(r"^(?P<name>[A-Za-z_][\w.\-]*)[ \t]*(?:\[(?P<sq>.*)\]|\((?P<paren>.*)\))$", re.DOTALL)
_FINAL_INLINE = re.compile(r"^final[ _\-]?answer[ \t]*[:：\-][ \t]*(?P<answer>.+)$", re.IGNORECASE | re.DOTALL)
_FENCE = re.compile(r"^```[\w\-]*[ \t]*\n?(?P<body>.*?)\n?```$", re.DOTALL)
_FENCED_BLOCKS = re.compile(r"```[\w\-]*[ \t]*\n(?P<body>.*?)```", re.DOTALL)
_MAX_JSON_STARTS = 20  # bounds the scan for a JSON object in long text


def _norm(label: str) -> str:
    return re.sub(r"[\s_\-/]+", "", label.lower())


def cut_invented_observation(text: str) -> str:
    """Drop what the model wrote after its action as if the tool had answered.

    Cuts at the first ``Observation:`` line after an ``Action:`` line, and at the first ``Result:`` line after
    an ``Action Input:`` line. Text without an Action line is returned unchanged.
    """
    labels = list(_STRICT_LABEL.finditer(text))
    first_action = next((m for m in labels if _KINDS[_norm(m["label"])] == "action"), None)
    if first_action is None:
        return text
    cut = len(text)
    observation = next((m for m in labels if m.start() > first_action.start()
                        and _KINDS[_norm(m["label"])] == "observation"), None)
    if observation is not None:
        cut = observation.start()
    first_input = next((m for m in labels if m.start() > first_action.start()
                        and _KINDS[_norm(m["label"])] == "input"), None)
    if first_input is not None:
        result = _RESULT_LINE.search(text, first_input.end())
        if result is not None:
            cut = min(cut, result.start())
    return text[:cut].rstrip()


# ---- interpretation shared by every layer ----

class _Problem(Exception):
    """Internal: this layer found something, but not something usable; carries the message for the model."""


def _unwrap(value: str, quotes: bool = False) -> str:
    """Strip one layer of code fence, bold, backticks (and quotes when asked) around a value."""
    value = value.strip()
    fence = _FENCE.match(value)
    if fence:
        value = fence["body"].strip()
    elif value.endswith("```") and value.count("```") == 1:  # the close of a fence around the whole reply
        value = value[:-3].strip()
    pairs = [("**", "**"), ("`", "`")] + ([('"', '"'), ("'", "'"), ("“", "”")] if quotes else [])
    for left, right in pairs:
        if len(value) > len(left) + len(right) - 1 and value.startswith(left) and value.endswith(right):
            inner = value[len(left):len(value) - len(right)].strip()
            if inner and (len(left) > 1 or (left not in inner and right not in inner)):  # not `a` and `b`
                value = inner
    return value


def _split_action(raw: str) -> tuple[str, str | None]:
    """The tool name and, for ``search[x]`` / ``search(x)`` / ``Final Answer: x`` forms, its input."""
    name = _unwrap(raw, quotes=True).rstrip(".,;:").strip()
    final_inline = _FINAL_INLINE.match(name)
    if final_inline:
        return FINAL, final_inline["answer"].strip()
    call = _BRACKET_CALL.match(name)
    if call:
        inner = call["sq"] if call["sq"] is not None else call["paren"]
        return call["name"], inner.strip()
    return name, None


def _interpret(preamble: str, segments: list[tuple[str, str]], status: ParseStatus) -> Parsed:
    """Build a result from labelled segments in text order; raise _Problem when they are not usable."""
    kinds = [kind for kind, _ in segments]
    first_act = next((i for i, k in enumerate(kinds) if k in ("action", "final")), len(segments))
    thought = next((v for k, v in segments[:first_act] if k == "thought"), preamble).strip()
    final_text = next((v for k, v in segments if k == "final"), None)
    said_no_action = None
    for i, (kind, value) in enumerate(segments):
        if kind != "action":
            continue
        first_line, _, rest = value.strip().partition("\n")
        if not first_line.strip() and rest.strip():
            raise _Problem("put the tool name on the same line as 'Action:'")
        name, inline_input = _split_action(first_line)
        has_label_input = i + 1 < len(segments) and segments[i + 1][0] == "input"
        label_input = segments[i + 1][1].strip() if has_label_input else None
        key = _norm(name)
        if key in _FINAL_NAMES:
            answer = _unwrap(label_input or inline_input or final_text or "", quotes=True)
            if not answer:
                raise _Problem("'Action: Final' needs the complete answer in 'Action Input:'")
            return Parsed(thought=thought, action=FINAL, action_input=answer, status=status)
        if key in _NO_ACTION_NAMES or not key:
            said_no_action = name or "(empty)"
            continue
        action_input = label_input if has_label_input else inline_input
        if action_input is None:
            words = name.split()
            if 1 < len(words) <= 6 and re.fullmatch(r"[A-Za-z_][\w.\-]*", words[0]):
                name, action_input, status = words[0], name[len(words[0]):].strip(), ParseStatus.lenient
            else:
                raise _Problem(f"'Action: {_shown(name)}' has no 'Action Input:' line")
        if len(name) > 64 or len(name.split()) > 3 or not re.fullmatch(r"[\w.\- ]+", name):
            raise _Problem(f"'Action:' must be one tool name, not '{_shown(name)}'")
        action_input = _unwrap(action_input)
        if action_input.startswith('{"') and not _is_json(action_input):
            raise _Problem("the Action Input starts like a JSON object but is not valid JSON (was it cut off?)")
        return Parsed(thought=thought, action=name, action_input=action_input, status=status)
    if final_text is not None:
        answer = _unwrap(final_text, quotes=True)
        if not answer:
            raise _Problem("the final answer is empty")
        return Parsed(thought=thought, action=FINAL, action_input=answer, status=status)
    if said_no_action is not None:
        raise _Problem(f"'Action: {_shown(said_no_action)}' is not a tool; to answer, write 'Action: Final'")
    if "thought" in kinds or thought:
        raise _Problem("it has a Thought but no Action")
    raise _Problem("it has no 'Action:' line")


def _shown(text: str) -> str:
    """The model's text as an error message quotes it: on one line, at most 60 characters."""
    return clip(" ".join(text.split()), 60, marker="...", strip=False)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def _segments(text: str, matches: list[re.Match]) -> tuple[str, list[tuple[str, str]]]:
    matches = sorted(matches, key=lambda m: m.start())
    kept: list[re.Match] = []
    for m in matches:  # the same label can be found by two patterns; keep the first, drop overlaps
        if not kept or m.start() >= kept[-1].end():
            kept.append(m)
    segments = [(_KINDS[_norm(m["label"])], text[m.end(): nxt.start() if nxt else len(text)].strip())
                for m, nxt in zip(kept, kept[1:] + [None])]
    preamble = text[: kept[0].start()].strip() if kept else text.strip()
    return preamble, segments


# ---- layers ----

def _parse_labels(text: str, patterns: list[re.Pattern], status: ParseStatus) -> Parsed | None:
    matches = [m for pattern in patterns for m in pattern.finditer(text)]
    if not matches:
        return None
    preamble, segments = _segments(text, matches)
    return _interpret(preamble, segments, status)


def _json_candidates(text: str) -> Iterator[dict]:
    decoder = json.JSONDecoder()
    sources = [m["body"] for m in _FENCED_BLOCKS.finditer(text)] + [text]
    for source in sources:
        starts = [m.start() for m in re.finditer(r"\{", source)][:_MAX_JSON_STARTS]
        for start in starts:
            try:
                value, _ = decoder.raw_decode(source, start)
            except (ValueError, RecursionError):  # RecursionError: deeply nested JSON ({"a": {"a": ...)
                continue
            if isinstance(value, dict):
                yield value


_JSON_KEYS = {
    "thought": {"thought", "thoughts", "reasoning", "thinking"},
    "action": {"action", "tool", "toolname", "name", "function"},
    "input": {"actioninput", "input", "toolinput", "args", "arguments", "parameters"},
    "final": {"finalanswer", "answer", "final"},
}


def _as_text(value: object) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _from_mapping(data: dict, depth: int = 0) -> Parsed | None:
    fields: dict[str, object] = {}
    for key, value in data.items():
        for kind, names in _JSON_KEYS.items():
            if isinstance(key, str) and _norm(key) in names and kind not in fields:
                fields[kind] = value
    action = fields.get("action")
    if isinstance(action, dict) and depth == 0:  # {"action": {"name": ..., "input": ...}}
        inner = _from_mapping(action, depth + 1)
        if inner is not None:
            return inner.model_copy(update={"thought": _as_text(fields.get("thought", "")), "status": ParseStatus.json})
    if action is None and "final" not in fields:
        return None
    segments = [("thought", _as_text(fields.get("thought", "")))]
    if action is not None:
        segments.append(("action", _as_text(action)))
        if "input" in fields:
            segments.append(("input", _as_text(fields["input"])))
    if "final" in fields:
        segments.append(("final", _as_text(fields["final"])))
    return _interpret("", segments, ParseStatus.json)


def _parse_json(text: str) -> Parsed | None:
    problem = None
    for candidate in _json_candidates(text):
        try:
            parsed = _from_mapping(candidate)
        except _Problem as exc:
            problem = problem or exc
            continue
        except RecursionError:  # a value nested too deep to re-encode is no step
            continue
        if parsed is not None:
            return parsed
    if problem is not None:
        raise problem
    return None


def _error(problem: str) -> Parsed:
    return Parsed(status=ParseStatus.error, error=f"Your reply could not be used: {problem}.\n{FORMAT_HELP}")


def parse(text: str, cut: bool = False) -> Parsed:
    """Parse one model reply. Never raises; on failure status is error and .error tells the model why.

    cut: the reply stopped on the backend's token limit (core.llm.Completion.truncated). Its last field may end
    mid-way (a truncated answer, half an input), so none of it is used: status error, .cut set, .error asks for a
    shorter reply."""
    if cut:
        return Parsed(status=ParseStatus.error, error=CUT_OFF, cut=True)
    if not isinstance(text, str) or not text.strip():
        return _error("it was empty")
    text = text.replace("\r\n", "\n").replace("\u00a0", " ").strip()
    fence = _FENCE.match(text)
    if fence:  # code models like to wrap the whole step in a fence
        text = fence["body"].strip()
    text = cut_invented_observation(text)
    layers = [
        lambda: _parse_labels(text, [_STRICT_LABEL], ParseStatus.ok),
        lambda: _parse_json(text),
        lambda: _parse_labels(text, [_STRICT_LABEL, _INLINE_LABEL, _EXTRA_LABEL], ParseStatus.lenient),
    ]
    first_problem = None
    for layer in layers:
        try:
            parsed = layer()
        except _Problem as exc:
            first_problem = first_problem or str(exc)
            continue
        if parsed is not None:
            return parsed
    return _error(first_problem or "it has no 'Action:' line")
