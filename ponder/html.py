"""A run as one self-contained HTML page (`ponder trace RUN --html FILE`, or from Python/a notebook).

No CDN, no network: CSS, two small scripts and the SVG charts are inline, and a Content-Security-Policy lets only
those two scripts (by hash) run, so even a mistake in escaping could not run what a web page said. Every text
from the run is escaped (core/html.py).

    render_trace_html(read_trace(path))         # a trace file's events (old traces too), or agent.stream(...)
    render_result_html(result)                  # a RunResult
Both take `retrieved` ({step index: earlier step indices memory recalled into its prompt}, from
`Store.step_records`) and `summaries` (the store's Summary records); without `retrieved` a trace's recall links
come from the prompts themselves (the `[step N]` lines memory put there).
"""
from __future__ import annotations

import base64
import hashlib
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from core.html import CSS, esc, plural, result_table, step_html, step_link
from core.schema import ParseStatus, RunResult, Step, Timings, Usage
from core.text import clip

PAGE_CSS = """
body{margin:0;background:#f6f8fa}
.page{margin:0 auto;padding:16px 24px 40px}
.page h1{font-size:20px;margin:4px 0 8px}
.page h2{font-size:16px;margin:22px 0 6px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
.page section.card{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:8px 14px}
.chart{display:block;width:100%;height:auto;margin:6px 0 12px}
.chart text{font:11px system-ui,sans-serif;fill:#57606a}
.chart .title{font-size:12px;font-weight:600;fill:#1f2328}
.chart .axis{stroke:#8c959f;stroke-width:1}
.chart .grid{stroke:#eaeef2;stroke-width:1}
.chart a:hover rect,.chart a:hover circle{opacity:.7}
.chart .arc{fill:none;stroke:#8250df;stroke-width:1.5;opacity:.75}
.chart .bracket{fill:none;stroke:#bf8700;stroke-width:2}
.toolbar{display:flex;gap:8px;align-items:center;margin:6px 0}
.toolbar button{font:13px system-ui,sans-serif;padding:3px 10px;border:1px solid #d0d7de;border-radius:6px;
  background:#f6f8fa;cursor:pointer}
.toolbar input{font:13px system-ui,sans-serif;padding:3px 8px;border:1px solid #d0d7de;border-radius:6px;width:240px}
.plan,.lesson,.summary{border:1px dashed #54aeff;border-radius:6px;padding:6px 12px;margin:10px 0;background:#f6fbff}
.lesson{border-color:#d4a72c;background:#fffbeb}
.legend{font-size:12px;color:#57606a}
.legend i{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px;vertical-align:-1px}
footer{color:#8c959f;font-size:12px;margin-top:24px}
"""

# Runs first, in <head>: records script errors, failed loads and anything the CSP blocked, on <html> attributes
# (headless checks read them from the DOM; a person sees them in the console as usual).
RECORDER_JS = """(function(){var root=document.documentElement,errors=[],blocked=[];
window.addEventListener("error",function(e){var t=e.target;
errors.push(e.message?String(e.message):"failed to load "+(t&&t.tagName?t.tagName.toLowerCase():"resource"));
root.setAttribute("data-errors",errors.join(" | "));},true);
document.addEventListener("securitypolicyviolation",function(e){
blocked.push(e.violatedDirective+" "+(e.blockedURI||"inline"));
root.setAttribute("data-csp-violations",blocked.join(" | "));});})();"""

BEHAVIOUR_JS = """(function(){var root=document.documentElement,steps=document.querySelectorAll(".timeline .step");
function fold(open){document.querySelectorAll(".timeline details").forEach(function(d){d.open=open;});}
document.getElementById("expand-all").addEventListener("click",function(){fold(true);});
document.getElementById("collapse-all").addEventListener("click",function(){fold(false);});
document.querySelectorAll("[data-target]").forEach(function(link){
var target=document.getElementById("step-"+link.getAttribute("data-target"));if(!target)return;
link.addEventListener("mouseenter",function(){target.classList.add("hl");});
link.addEventListener("mouseleave",function(){target.classList.remove("hl");});});
var filter=document.getElementById("filter");
filter.addEventListener("input",function(){var q=filter.value.toLowerCase();steps.forEach(function(s){
s.style.display=!q||s.textContent.toLowerCase().indexOf(q)>=0?"":"none";});});
root.setAttribute("data-steps",String(steps.length));root.setAttribute("data-ready","1");})();"""

COLORS = {"sent": "#9ec5fe", "evaluated": "#0969da", "llm": "#8250df", "tool": "#2da44e", "memory": "#d4a72c"}
RECALL_LINE = re.compile(r"^\[step (\d+)\]", re.MULTILINE)  # memory.base.render_steps and compact's recall lines
PROMPT_SHOWN_CHARS = 6_000


@dataclass
class _Run:
    result: RunResult | None = None
    steps: dict[int, Step] = field(default_factory=dict)
    prompts: dict[int, list[dict]] = field(default_factory=dict)
    recalled: dict[int, list[int]] = field(default_factory=dict)  # what the trace says memory recalled
    plans: list[dict] = field(default_factory=list)
    lessons: list[dict] = field(default_factory=list)
    source: str = ""

    @property
    def ordered(self) -> list[Step]:
        return [self.steps[i] for i in sorted(self.steps)]

    @property
    def task(self) -> str:
        if self.result is not None:
            return self.result.task
        for messages in self.prompts.values():
            if len(messages) > 1 and str(messages[1].get("content", "")).startswith("Question: "):
                return str(messages[1]["content"]).splitlines()[0].removeprefix("Question: ")
        return ""


def render_trace_html(events: Iterable[dict | BaseModel], *, retrieved: Mapping[int, Sequence[int]] | None = None,
                      summaries: Sequence[Any] = (), source: str = "") -> str:
    """The page for a trace's events (dicts as read_trace yields them, or the events of `Agent.stream`).
    Raises ValueError/KeyError/TypeError on events that are not a Ponder trace's."""
    return _page(_read_events(events, source), retrieved, summaries)


def render_result_html(result: RunResult, *, retrieved: Mapping[int, Sequence[int]] | None = None,
                       summaries: Sequence[Any] = ()) -> str:
    run = _Run(result=result, steps={step.index: step for step in result.steps})
    return _page(run, retrieved, summaries)


def _read_events(events: Iterable[dict | BaseModel], source: str) -> _Run:
    run, old = _Run(source=source), {}  # old: index -> fields of traces written before steps were stored once
    for event in events:
        raw = event.model_dump(mode="json") if isinstance(event, BaseModel) else event
        kind = raw.get("type")
        if kind == "prompt":
            run.prompts[int(raw["index"])] = list(raw.get("messages") or [])
            if raw.get("recalled") is not None:
                run.recalled[int(raw["index"])] = [int(n) for n in raw["recalled"]]
        elif kind == "step_recorded":
            step = Step(**raw["step"])
            run.steps[step.index] = step  # a step stored again (resume) replaces the earlier record
        elif kind == "plan":
            run.plans.append({"index": int(raw["index"]), "plan": str(raw.get("plan", "")),
                              "revision": int(raw.get("revision", 0))})
        elif kind == "lesson":
            run.lessons.append({"attempt": raw.get("attempt"), "failure": str(raw.get("failure", "")),
                                "lesson": str(raw.get("lesson", ""))})
        elif kind in ("llm_output", "action", "observation"):
            old.setdefault(int(raw["index"]), {})[kind] = raw
        elif kind == "final":
            run.result = RunResult(**raw["result"])
    for index, parts in old.items():
        if index not in run.steps and "action" in parts:
            run.steps[index] = _old_step(index, parts)
    if run.result is not None and not run.result.steps:
        run.result = run.result.model_copy(update={"steps": run.ordered})  # a trace stores each step once
    return run


def _old_step(index: int, parts: dict) -> Step:
    action, observation, output = parts["action"], parts.get("observation", {}), parts.get("llm_output", {})
    return Step(index=index, thought=action.get("thought", ""), action=action.get("action", ""),
                action_input=action.get("action_input", ""),
                parse_status=action.get("parse_status", ParseStatus.ok), raw=output.get("text", ""),
                observation=observation.get("observation", ""), usage=Usage(**output.get("usage", {})),
                timings=Timings(llm_seconds=output.get("seconds", 0.0), tool_seconds=observation.get("seconds", 0.0)))


def _recalled_in_prompt(messages: list[dict], index: int) -> list[int]:
    """Earlier steps memory wrote into the prompt as `[step N]` lines (the conversation's own turns are not
    recall)."""
    found = set()
    for message in messages:
        if message.get("role") == "user":
            found.update(int(n) for n in RECALL_LINE.findall(str(message.get("content", ""))))
    return sorted(n for n in found if n < index)


def _memory_part(messages: list[dict], previous: list[dict] | None, prior_observation: str | None) -> str:
    """What memory added to a prompt: the question message when it changed (background, plan, lessons), and
    what follows the latest observation (recall, the plan's progress)."""
    parts = []
    if len(messages) > 1:
        question = str(messages[1].get("content", ""))
        before = str(previous[1].get("content", "")) if previous and len(previous) > 1 else None
        extra = question.split("\n", 1)[1].strip() if "\n" in question else ""
        if extra and question != before:
            parts.append(extra)
    if len(messages) > 2 and prior_observation is not None and messages[-1].get("role") == "user":
        last, head = str(messages[-1].get("content", "")), f"Observation: {prior_observation}"
        if last.startswith(head) and last[len(head):].strip():
            parts.append(last[len(head):].strip())
    text = "\n\n".join(parts)
    return clip(text, PROMPT_SHOWN_CHARS, marker=" ...", strip=False, within=False)


def _page(run: _Run, retrieved: Mapping[int, Sequence[int]] | None, summaries: Sequence[Any]) -> str:
    steps = run.ordered
    links = _links(run, steps, retrieved)
    label = "retrieved" if retrieved is not None else "recalled in prompt"
    timeline, plans = [], sorted(run.plans, key=lambda p: (p["index"], p["revision"]))
    previous_prompt, previous_observation = None, None
    for step in steps:
        while plans and plans[0]["index"] <= step.index:
            timeline.append(_plan_html(plans.pop(0)))
        extra = ""
        if step.index in run.prompts:
            messages = run.prompts[step.index]
            size = sum(len(str(m.get("content", ""))) for m in messages)
            shown = _memory_part(messages, previous_prompt, previous_observation)
            body = f"<pre>{esc(shown)}</pre>" if shown else '<div class="muted">nothing new from memory</div>'
            extra = (f'<details class="prompt"><summary>prompt: {plural(len(messages), "message")}, '
                     f'{size:,} chars (what memory put in it)</summary>{body}</details>')
            previous_prompt = messages
        previous_observation = step.observation
        timeline.append(step_html(step, recalled=links.get(step.index, ()), recalled_label=label, extra=extra))
    timeline.extend(_plan_html(plan) for plan in plans)

    if run.result is not None:
        head = result_table(run.result.model_copy(update={"steps": steps}))
    else:
        head = (f'<table class="run"><tr><th>question</th><td>{esc(run.task)}</td></tr>'
                f'<tr><th>answer</th><td class="muted">(the trace has no final event: the run was killed, crashed '
                f'or is still running)</td></tr><tr><th>steps</th><td>{len(steps)}</td></tr></table>')
    sections = [f'<section class="card">{head}</section>']
    if run.lessons:
        sections.append("<h2>Lessons</h2>" + "".join(
            f'<div class="lesson"><b>attempt {esc(item["attempt"])} failed:</b> {esc(item["failure"])}<br>'
            f'<b>lesson:</b> {esc(item["lesson"])}</div>' for item in run.lessons))
    summary_rows = [_summary_fields(s) for s in summaries]
    if summary_rows:
        sections.append("<h2>Summaries</h2>" + "".join(
            f'<div class="summary"><b>summary of {step_link(first)} to {step_link(upto)}</b>'
            f"<pre>{esc(text)}</pre></div>" for text, first, upto in summary_rows))
    if steps:
        sections.append('<h2>Per step</h2><section class="card">' + _tokens_chart(steps) + _seconds_chart(steps)
                        + _recall_chart(steps, links, summary_rows, label, retrieved is not None or bool(run.prompts))
                        + "</section>")
    sections.append(
        '<h2>Steps</h2><div class="toolbar"><button type="button" id="expand-all">expand all</button>'
        '<button type="button" id="collapse-all">collapse all</button>'
        '<input id="filter" type="search" placeholder="filter steps by text" aria-label="filter steps"></div>'
        f'<div class="timeline">{"".join(timeline) or "<p class=muted>no steps</p>"}</div>')
    source = f", from {esc(run.source)}" if run.source else ""
    sections.append(f"<footer>Ponder run page{source}</footer>")
    title = esc(f"Ponder: {run.task[:90]}" if run.task else "Ponder run")
    csp = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; "
           f"script-src {_script_hash(RECORDER_JS)} {_script_hash(BEHAVIOUR_JS)}")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{title}</title><style>{CSS}{PAGE_CSS}</style><script>{RECORDER_JS}</script></head>"
            f'<body><div class="ponder page"><h1>{title}</h1>{"".join(sections)}</div>'
            f"<script>{BEHAVIOUR_JS}</script></body></html>\n")


def _script_hash(script: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii") + "'"


def _links(run: _Run, steps: list[Step], retrieved: Mapping[int, Sequence[int]] | None) -> dict[int, list[int]]:
    known = {step.index for step in steps}
    if retrieved is not None:
        found = {int(i): sorted({int(j) for j in earlier}) for i, earlier in retrieved.items()}
    else:
        # the trace's record of what memory recalled; a trace written before it had one is read from its prompts
        found = {i: run.recalled[i] if i in run.recalled else _recalled_in_prompt(messages, i)
                 for i, messages in run.prompts.items()}
    return {i: [j for j in earlier if j in known and j != i] for i, earlier in found.items() if i in known and earlier}


def _summary_fields(summary: Any) -> tuple[str, int, int]:
    get = summary.get if isinstance(summary, Mapping) else lambda name: getattr(summary, name)
    return str(get("text")), int(get("first")), int(get("upto"))


def _plan_html(plan: dict) -> str:
    title = "plan" if plan["revision"] == 0 else f"plan, revision {plan['revision']}"
    body = f"<pre>{esc(plan['plan'])}</pre>" if plan["plan"] else \
        '<div class="muted">no readable plan in the model&#39;s reply; going on without one</div>'
    index = int(plan["index"])
    return f'<div class="plan" data-before="{index}"><b>{esc(title)}</b> (before step {index}){body}</div>'


# ---- inline SVG charts: one bar group per step, each a link to its step ----

_W, _LEFT, _RIGHT, _TOP, _BOTTOM = 1000, 56, 10, 26, 22


def _axis_max(value: float) -> float:
    if value <= 0:
        return 1.0
    magnitude = 10 ** math.floor(math.log10(value))
    return next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= value)


def _bars(steps: list[Step], series: list[tuple[str, list[float]]], *, stacked: bool, title: str, unit: str,
          css: str, height: int = 190) -> str:
    n = len(steps)
    totals = [sum(values[i] for _, values in series) if stacked else max(values[i] for _, values in series)
              for i in range(n)]
    top = _axis_max(max(totals, default=0.0))
    plot_w, plot_h = _W - _LEFT - _RIGHT, height - _TOP - _BOTTOM
    band = plot_w / max(n, 1)
    width = max(1.0, band * 0.72)

    def y(value: float) -> float:
        return _TOP + plot_h - plot_h * value / top

    out = [f'<svg class="chart {css}" viewBox="0 0 {_W} {height}" role="img" aria-label="{esc(title)}">',
           f'<text class="title" x="{_LEFT}" y="14">{esc(title)}</text>']
    legend_x = _W - _RIGHT
    for name, _ in reversed(series):  # right-aligned: swatch, name; about 7 px a character at 11 px
        out.append(f'<text x="{legend_x}" y="14" text-anchor="end">{esc(name)}</text>')
        legend_x -= 7 * len(name) + 6
        out.append(f'<rect x="{legend_x - 10}" y="5" width="10" height="10" fill="{COLORS[name]}"/>')
        legend_x -= 26
    for fraction in (0, 0.5, 1):
        gy = y(top * fraction)
        out.append(f'<line class="{"axis" if fraction == 0 else "grid"}" x1="{_LEFT}" x2="{_W - _RIGHT}" '
                   f'y1="{gy:.1f}" y2="{gy:.1f}"/>')
        out.append(f'<text x="{_LEFT - 6}" y="{gy + 4:.1f}" text-anchor="end">{_number(top * fraction)}</text>')
    label_every = max(1, math.ceil(n / 25))
    for i, step in enumerate(steps):
        x = _LEFT + band * i + (band - width) / 2
        tip = f"step {step.index}: " + ", ".join(f"{name} {_number(values[i])}{unit}" for name, values in series)
        rects, base = [], 0.0
        for name, values in series:
            value = values[i]
            low = base if stacked else 0.0
            rects.append(f'<rect x="{x:.1f}" y="{y(low + value):.1f}" width="{width:.1f}" '
                         f'height="{max(0.0, y(low) - y(low + value)):.1f}" fill="{COLORS[name]}"/>')
            base += value if stacked else 0.0
        out.append(f'<a href="#step-{step.index}"><g><title>{esc(tip)}</title>{"".join(rects)}</g></a>')
        if i % label_every == 0:
            out.append(f'<text x="{x + width / 2:.1f}" y="{height - 6}" text-anchor="middle">{step.index}</text>')
    out.append("</svg>")
    return "".join(out)


def _number(value: float) -> str:
    if value >= 100 or value == int(value):
        return f"{value:,.0f}"
    return f"{value:.3g}"


def _tokens_chart(steps: list[Step]) -> str:
    # Overlaid, not stacked: evaluated tokens are the part of the sent ones the prefix cache did not serve.
    return _bars(steps, [("sent", [float(s.usage.prompt_tokens) for s in steps]),
                         ("evaluated", [float(s.usage.evaluated_prompt_tokens) for s in steps])],
                 stacked=False, title="Prompt tokens per step (sent, and evaluated by the backend)", unit=" tokens",
                 css="chart-tokens")


def _seconds_chart(steps: list[Step]) -> str:
    return _bars(steps, [("llm", [s.timings.llm_seconds for s in steps]),
                         ("tool", [s.timings.tool_seconds for s in steps]),
                         ("memory", [s.timings.memory_seconds for s in steps])],
                 stacked=True, title="Seconds per step (LLM, tool, memory)", unit=" s", css="chart-seconds")


def _recall_chart(steps: list[Step], links: dict[int, list[int]], summaries: list[tuple[str, int, int]],
                  label: str, known: bool) -> str:
    """Steps as dots on a line, an arc from each step back to every earlier step memory recalled into its prompt,
    and a bracket under the steps each summary folded."""
    if not any(links.values()) and not summaries:
        if not known:
            return ('<p class="legend">what memory recalled is not known here: a RunResult keeps no prompts '
                    '(render_result_html takes retrieved=, from Store.step_records)</p>')
        return f'<p class="legend">memory recalled no earlier steps into the prompts ({esc(label)})</p>'
    n = len(steps)
    band = (_W - _LEFT - _RIGHT) / max(n, 1)
    x_of = {step.index: _LEFT + band * (i + 0.5) for i, step in enumerate(steps)}
    span = max((abs(x_of[i] - x_of[j]) for i, earlier in links.items() for j in earlier), default=0.0)
    arc_h = min(140.0, span / 2 + 10) if span else 10.0
    base = _TOP + arc_h + 6
    height = int(base + 40)
    out = [f'<svg class="chart chart-recall" viewBox="0 0 {_W} {height}" role="img" aria-label="recall">',
           ('<defs><marker id="recall-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
            'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#8250df"/></marker></defs>'),
           (f'<text class="title" x="{_LEFT}" y="14">Recall: arcs from a step back to the earlier steps in its '
            f'prompt ({esc(label)})</text>'),
           f'<line class="axis" x1="{_LEFT}" x2="{_W - _RIGHT}" y1="{base:.1f}" y2="{base:.1f}"/>']
    for i, earlier in sorted(links.items()):
        for j in earlier:
            x1, x2 = x_of[i], x_of[j]
            lift = max(6.0, arc_h * abs(x1 - x2) / span)  # a quadratic peaks halfway to its control point
            out.append(f'<path class="arc" d="M{x1:.1f},{base - 4:.1f} Q{(x1 + x2) / 2:.1f},{base - 2 * lift:.1f} '
                       f'{x2:.1f},{base - 4:.1f}" marker-end="url(#recall-arrow)" data-from="{i}" data-to="{j}">'
                       f"<title>step {i} recalled step {j}</title></path>")
    label_every = max(1, math.ceil(n / 25))
    for k, step in enumerate(steps):
        x = x_of[step.index]
        color = "#8250df" if links.get(step.index) else "#8c959f"
        out.append(f'<a href="#step-{step.index}"><circle cx="{x:.1f}" cy="{base:.1f}" r="4" fill="{color}">'
                   f"<title>step {step.index}</title></circle></a>")
        if k % label_every == 0:
            out.append(f'<text x="{x:.1f}" y="{base + 16:.1f}" text-anchor="middle">{step.index}</text>')
    for _, first, upto in summaries:
        if first in x_of and upto in x_of:
            x1, x2, yb = x_of[first] - 4, x_of[upto] + 4, base + 24
            out.append(f'<path class="bracket" d="M{x1:.1f},{yb - 4:.1f} V{yb:.1f} H{x2:.1f} V{yb - 4:.1f}">'
                       f"<title>summary of steps {first} to {upto}</title></path>")
    out.append("</svg>")
    return "".join(out)
