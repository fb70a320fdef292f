"""HTML for steps and runs: Jupyter's rich display of `Step` and `RunResult`, and the building blocks of the page
`ponder trace --html` writes (ponder/html.py). Every text is escaped here; no markup ever comes from a run.

The markup is a fragment scoped under `.ponder` (its CSS must not restyle the notebook around it) and needs no
script: observations and inner calls fold with <details>.
"""
from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from typing import Any

# core.schema's Step and RunResult, duck-typed: schema renders itself through this module (Jupyter's _repr_html_),
# so naming them here by import would make the two files import each other.
Step = RunResult = Any

CSS = """
.ponder{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;max-width:1100px}
.ponder .step{border:1px solid #d0d7de;border-left:5px solid #8c959f;border-radius:6px;padding:8px 12px;
  margin:10px 0;background:#fff;scroll-margin-top:12px}
.ponder .step.o-tool{border-left-color:#2da44e}
.ponder .step.o-final{border-left-color:#0969da}
.ponder .step.o-final_sent_back,.ponder .step.o-repeat_warning,.ponder .step.o-tool_refused{border-left-color:#bf8700}
.ponder .step.o-parse_error,.ponder .step.o-reply_cut{border-left-color:#cf222e}
.ponder .step.hl,.ponder .step:target{box-shadow:0 0 0 3px #54aeff66}
.ponder .head{display:flex;gap:6px;align-items:baseline;flex-wrap:wrap;margin-bottom:4px}
.ponder .head .no{font-weight:700;color:#1f2328;text-decoration:none;margin-right:4px}
.ponder .badge{font-size:12px;padding:1px 7px;border-radius:10px;background:#eaeef2;color:#424a53}
.ponder .badge.action{background:#ddf4ff;color:#0550ae;font-family:ui-monospace,Menlo,monospace}
.ponder .badge.injected{background:#ffebe9;color:#a40e26;font-weight:600}
.ponder .badge.parse{background:#fff8c5;color:#7d4e00}
.ponder .field{margin:3px 0}
.ponder .label{font-weight:600;color:#57606a;margin-right:6px}
.ponder code,.ponder pre{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.ponder pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0;background:#f6f8fa;padding:6px 8px;
  border-radius:4px;max-height:420px;overflow:auto}
.ponder details>summary{cursor:pointer;color:#57606a}
.ponder .metrics{color:#57606a;font-size:12px;margin-top:4px}
.ponder .metrics b{color:#424a53;font-weight:600}
.ponder ul.verdicts{list-style:none;padding:0;margin:3px 0}
.ponder ul.verdicts li{font-size:13px}
.ponder ul.verdicts li.ok::before{content:"\\2713  ";color:#1a7f37}
.ponder ul.verdicts li.bad::before{content:"\\2717  ";color:#cf222e}
.ponder ol.calls{margin:3px 0;padding-left:22px}
.ponder .recalled a{margin-right:6px}
.ponder table.run{border-collapse:collapse;margin:6px 0}
.ponder table.run th{text-align:left;color:#57606a;font-weight:600;padding:2px 14px 2px 0;vertical-align:top}
.ponder table.run td{padding:2px 0;vertical-align:top;white-space:pre-wrap;overflow-wrap:anywhere}
.ponder .answer{font-weight:600}
.ponder .muted{color:#57606a}
"""

_STYLE = f"<style>{CSS}</style>"


def esc(value: object) -> str:
    """Text as HTML, quotes included (safe in element content and in quoted attributes)."""
    return html.escape("" if value is None else str(value), quote=True)


def _field(label: str, body: str, css: str = "") -> str:
    return f'<div class="field {css}"><span class="label">{esc(label)}</span>{body}</div>'


def _folded(summary: str, text: str, css: str, open_: bool = False) -> str:
    return (f'<details class="{css}"{" open" if open_ else ""}><summary>{esc(summary)}</summary>'
            f"<pre>{esc(text)}</pre></details>")


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def step_link(index: int) -> str:
    return f'<a href="#step-{int(index)}" data-target="{int(index)}">step {int(index)}</a>'


def tokens_text(step: Step) -> str:
    usage = step.usage
    cached = usage.cached_prompt_tokens
    evaluated = f" ({usage.evaluated_prompt_tokens} evaluated)" if cached is not None else ""
    return f"{usage.prompt_tokens} prompt{evaluated} + {usage.completion_tokens} completion"


def duration(seconds: float) -> str:
    if seconds >= 0.01 or seconds == 0:
        return f"{seconds:.2f} s"
    return f"{seconds * 1000:.2g} ms"  # scripted and cached steps: 0.00 s would hide which part took the time


def seconds_text(step: Step) -> str:
    t = step.timings
    return f"LLM {duration(t.llm_seconds)} · tool {duration(t.tool_seconds)} · memory {duration(t.memory_seconds)}"


def step_html(step: Step, *, recalled: Sequence[int] = (), recalled_label: str = "recalled",
              injected: Iterable[str] | None = None, extra: str = "") -> str:
    """One step as a `.step` element with `data-index`; `recalled` are earlier steps memory put in its prompt,
    `extra` is trusted markup the caller built (and escaped) itself."""
    injected = list(injected if injected is not None else getattr(step, "injected", None) or [])
    outcome = str(step.outcome) or ("final" if step.is_final else "")
    badges = [f'<span class="badge action">{esc(step.action or "(no action)")}</span>']
    if outcome:
        badges.append(f'<span class="badge outcome">{esc(outcome)}</span>')
    if step.parse_status.value != "ok":
        badges.append(f'<span class="badge parse">parse: {esc(step.parse_status.value)}</span>')
    if injected:
        badges.append(f'<span class="badge injected">injected: {esc(", ".join(injected))}</span>')
    parts = [f'<div class="head"><a class="no" href="#step-{step.index}">step {step.index}</a>{"".join(badges)}</div>']
    for cut in getattr(step, "cut_replies", None) or []:
        parts.append(_folded(f"reply cut off at the token limit, asked again ({len(cut)} chars)", cut, "raw"))
    if step.parse_status.value == "error":
        what = "reply cut off at the token limit" if outcome == "reply_cut" else "unparsable reply"
        parts.append(_folded(f"{what} ({len(step.raw)} chars)", step.raw, "raw", open_=True))
    else:
        if step.thought:
            parts.append(_field("Thought", esc(step.thought), "thought"))
        label = "Answer" if step.is_final else "Action Input"
        parts.append(_field(label, f"<code>{esc(step.action_input)}</code>", "input"))
    if step.observation:
        short = len(step.observation) <= 240
        parts.append(_folded(f"Observation ({len(step.observation)} chars)", step.observation, "observation",
                             open_=short))
    if step.tool_calls:
        calls = "".join(
            f'<li><code>{esc(call.get("name", ""))}</code>(<code>{esc(call.get("input", ""))}</code>)'
            f' <span class="muted">{duration(float(call.get("seconds") or 0))}</span>'
            f'<pre>{esc(call.get("observation", ""))}</pre></li>' for call in step.tool_calls)
        parts.append(f'<details class="calls"><summary>{plural(len(step.tool_calls), "inner call")}</summary>'
                     f'<ol class="calls">{calls}</ol></details>')
    subrun = step.findings.subrun if step.findings else ""
    if subrun:
        parts.append(_field("Sub-agent run", f"<code>{esc(subrun)}</code>", "subrun"))
    if step.facts:
        rows = "".join(f"<li>{esc(fact.as_row(quote_chars=400))}</li>" for fact in step.facts)
        parts.append(f'<div class="field facts"><span class="label">facts established</span><ul>{rows}</ul></div>')
    if step.verdicts:
        items = "".join(f'<li class="{"ok" if message == "ok" else "bad"}"><b>{esc(name)}</b>: {esc(message)}</li>'
                        for name, message in step.verdicts.items())
        parts.append(f'<ul class="verdicts">{items}</ul>')
    if recalled:
        links = "".join(step_link(i) for i in recalled)
        parts.append(_field(recalled_label, links, "recalled"))
    parts.append(f'<div class="metrics"><b>tokens</b> {esc(tokens_text(step))} · <b>time</b> '
                 f'{esc(seconds_text(step))}</div>')
    parts.append(extra)
    css = " o-" + re.sub(r"[^A-Za-z0-9_-]", "_", outcome) if outcome else ""
    return (f'<div class="step{css}" id="step-{step.index}" data-index="{step.index}">'
            f'{"".join(parts)}</div>')


def usage_text(result: RunResult) -> str:
    usage = result.usage
    evaluated = (f" ({usage.evaluated_prompt_tokens} evaluated, {usage.cached_prompt_tokens} reused from cache)"
                 if usage.cached_prompt_tokens is not None else "")
    return f"{usage.prompt_tokens} prompt{evaluated} + {usage.completion_tokens} completion tokens"


def result_table(result: RunResult) -> str:
    """The run at a glance: question, answer, how it stopped, what it cost."""
    stop = result.stop_reason.value + (" (answer forced from the work so far)" if result.forced_answer else "")
    rows = [("question", esc(result.task)),
            ("answer", f'<span class="answer">{esc(result.answer if result.answer is not None else "(none)")}</span>'),
            ("stop reason", esc(stop)),
            ("steps", esc(len(result.steps))),
            ("usage", esc(usage_text(result))),
            ("time", esc(f"{result.wall_seconds:.1f} s")),
            ("model", esc(result.model)),
            ("run", esc(result.run_id))]
    if result.attempts > 1:
        rows.append(("attempts", esc(result.attempts)))
    if result.error:
        rows.append(("error", esc(result.error)))
    if result.plan:
        rows.append(("plan", f"<pre>{esc(result.plan)}</pre>"))
    if result.lessons:
        rows.append(("lessons", "<ol>" + "".join(f"<li>{esc(lesson)}</li>" for lesson in result.lessons) + "</ol>"))
    return '<table class="run">' + "".join(f"<tr><th>{name}</th><td>{cell}</td></tr>" for name, cell in rows) + \
        "</table>"


def step_fragment(step: Step) -> str:
    """`Step._repr_html_`: the step with its styles, for a notebook."""
    return f'{_STYLE}<div class="ponder">{step_html(step)}</div>'


def result_fragment(result: RunResult) -> str:
    """`RunResult._repr_html_`: the run at a glance, then its steps folded under one <details>."""
    steps = "".join(step_html(step) for step in result.steps)
    return (f'{_STYLE}<div class="ponder">{result_table(result)}'
            f'<details class="steps"><summary>{plural(len(result.steps), "step")}</summary>{steps}</details></div>')


def fragment(body: str) -> str:
    """Trusted markup built with this module's helpers, with the styles, for a notebook."""
    return f'{_STYLE}<div class="ponder">{body}</div>'
