"""Live rendering of a run's events on stderr (stdout is kept for the answer)."""
from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from agent.events import (ActionEvent, Event, FinalEvent, LessonWritten, LLMOutput, ObservationEvent, PlanMade,
                          StepStarted)
from core.schema import ParseStatus, RunResult, Step
from core.text import clip


class LiveView:
    def __init__(self, console: Console | None = None, max_observation_chars: int = 600):
        self.console = console or Console(stderr=True, highlight=False)
        self.max_observation_chars = max_observation_chars

    def __call__(self, event: Event) -> None:
        c = self.console
        if isinstance(event, StepStarted):
            c.rule(f"step {event.index}", style="dim")
        elif isinstance(event, LLMOutput) and event.truncated:
            c.print("[yellow]the reply was cut off at the token limit[/yellow]")
        elif isinstance(event, ActionEvent):
            if event.parse_status is ParseStatus.error:
                c.print("[red]could not parse the model's output[/red]")
                return
            c.print(f"[cyan]Thought:[/cyan] {escape(event.thought)}")
            c.print(f"[bold magenta]Action:[/bold magenta] {escape(event.action)}")
            c.print(f"[magenta]Action Input:[/magenta] {escape(event.action_input)}")
        elif isinstance(event, ObservationEvent):
            text = clip(event.observation, self.max_observation_chars, marker=" ...", strip=False, within=False)
            c.print(f"[green]Observation:[/green] {escape(text)} [dim]({event.seconds:.2f} s)[/dim]")
        elif isinstance(event, PlanMade):
            title = "plan" if event.revision == 0 else f"plan, revision {event.revision}"
            c.print(f"[blue]{title}:[/blue]\n{escape(event.plan)}" if event.plan
                    else "[yellow]no readable plan in the model's reply; going on without one[/yellow]")
        elif isinstance(event, LessonWritten):
            c.print(f"[yellow]attempt {event.attempt} failed: {escape(event.failure)}[/yellow]\n"
                    f"[blue]lesson:[/blue] {escape(event.lesson)}")
        elif isinstance(event, FinalEvent):
            r = event.result
            note = " (answer forced from the work so far)" if r.forced_answer else ""
            note += f" · attempt {r.attempts}" if r.attempts > 1 else ""
            cached = r.usage.cached_prompt_tokens
            reused = f" ({r.usage.evaluated_prompt_tokens} evaluated, {cached} reused from cache)" if cached else ""
            c.print(f"[dim]stop: {r.stop_reason.value}{note} · {len(r.steps)} steps · "
                    f"{r.usage.prompt_tokens}+{r.usage.completion_tokens} tokens{reused} · {r.wall_seconds:.1f} s · "
                    f"{escape(r.model)}[/dim]")
            if r.error:
                c.print(f"[red]error:[/red] {escape(r.error)}")
            if r.trace_path:
                c.print(f"[dim]trace: {escape(r.trace_path)}[/dim]")


def print_trace(events, console: Console) -> None:
    """`ponder trace FILE`: the same live view, replayed from a trace, plus the prompts sent."""
    view = LiveView(console, max_observation_chars=2_000)
    steps: list[Step] = []
    for raw in events:
        kind = raw.get("type")
        if kind == "step_started":
            view(StepStarted(**raw))
        elif kind == "prompt":
            size = sum(len(m.get("content", "")) for m in raw.get("messages", []))
            console.print(f"[dim]prompt: {len(raw.get('messages', []))} messages, {size} chars[/dim]")
        elif kind == "llm_output":
            usage = raw.get("usage", {})
            cached = usage.get("cached_prompt_tokens")
            reused = f" ({cached} reused from cache)" if cached else ""
            cut = ", cut off at the token limit" if raw.get("truncated") else ""
            console.print(f"[dim]llm: {raw.get('seconds', 0):.2f} s, {usage.get('prompt_tokens', 0)} prompt{reused} + "
                          f"{usage.get('completion_tokens', 0)} completion tokens{cut}[/dim]")
        elif kind == "step_recorded":
            step = Step(**raw["step"])
            steps.append(step)
            view(ActionEvent(index=step.index, thought=step.thought, action=step.action,
                             action_input=step.action_input, parse_status=step.parse_status))
            for call in step.tool_calls:
                console.print(f"[dim]  inner call: {escape(call.get('name', ''))}({escape(repr(call.get('input', '')))})"
                              f" {call.get('seconds', 0):.2f} s[/dim]")
            if step.findings and step.findings.subrun:
                console.print(f"[dim]  sub-agent run: {escape(step.findings.subrun)} (ponder trace it for its steps)"
                              "[/dim]")
            if step.observation:
                view(ObservationEvent(index=step.index, observation=step.observation,
                                      seconds=step.timings.tool_seconds))
            for fact in step.facts:
                console.print(f"[green]  fact: {escape(fact.as_row())}[/green]")
        elif kind == "plan":
            view(PlanMade(**raw))
        elif kind == "action":  # traces written before steps were stored once
            view(ActionEvent(**raw))
        elif kind == "observation":
            view(ObservationEvent(**raw))
        elif kind == "final":
            result = RunResult(**raw["result"])
            result.steps = result.steps or steps  # a trace stores each step once, before the result
            view(FinalEvent(result=result))
            console.print(f"[bold]Answer:[/bold] {escape(result.answer or '(none)')}")
