"""`ponder`: ask a question, replay a trace, resume a run, inspect memory.

stdout carries only the result (the answer, or --json); live steps, progress and logs go to stderr.
Exit codes: 0 answered, 1 error, 2 bad usage, 3 stopped by a limit or without an answer, 130 interrupted.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from core.chroma import ChromaServerError
from core.paths import StorageError
from core.secrets import RedactingFilter, RedactingStream
from core.settings import SettingsError, load_settings
from memory.strategies import DEFAULT_STRATEGY, STRATEGIES
from ponder.bench.speed import NAMES as SPEED_BENCHES

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_LIMIT, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


MAX_QUESTION_CHARS = 20_000  # a research question, not a document: longer ones are refused (exit 2)


class UsageError(Exception):
    """Bad input from the user: printed as one clear line, exit 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (what is wrong, and where help is) rather than a usage block."""

    def error(self, message: str):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see: {self.prog} --help)\n")


# The CLI is the application: it, and no library module, sets how the process behaves. The embedder loads from
# local files only; these keep Hugging Face libraries quiet on stderr and off the network.
_PROCESS_ENVIRONMENT = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_HUB_DISABLE_PROGRESS_BARS": "1",
                        "TRANSFORMERS_VERBOSITY": "error", "TOKENIZERS_PARALLELISM": "false"}


def main(argv: list[str] | None = None) -> int:
    # Whatever the command writes passes through redaction: no API key or Chroma token in output, logs or errors.
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = RedactingStream(sys.stdout), RedactingStream(sys.stderr)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = saved


def _main(argv: list[str] | None) -> int:
    for name, value in _PROCESS_ENVIRONMENT.items():
        os.environ.setdefault(name, value)
    parser = _parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # what was asked, for a bench's provenance
    err = Console(stderr=True, highlight=False, soft_wrap=True)  # no hard wraps: ids and paths stay whole in logs
    logging.basicConfig(level=logging.DEBUG if getattr(args, "verbose", False) else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, RedactingFilter) for f in handler.filters):
            handler.addFilter(RedactingFilter())
    try:
        settings = load_settings()  # every environment variable, checked before any work
    except SettingsError as exc:
        err.print(f"[red]ponder: {escape(str(exc))}[/red]")
        return EXIT_USAGE
    try:
        return args.handler(args, err)
    except UsageError as exc:
        err.print(f"[red]ponder: {exc}[/red]")
        return EXIT_USAGE
    except KeyboardInterrupt:
        err.print("[yellow]interrupted[/yellow]")
        return EXIT_INTERRUPTED
    except ChromaServerError as exc:  # its message names the server and what went wrong
        if settings.debug:
            raise
        err.print(f"[red]ponder: {escape(str(exc))}[/red]")
        return EXIT_ERROR
    except StorageError as exc:  # PONDER_HOME or the store cannot be used: its message names the path
        if settings.debug:
            raise
        err.print(f"[red]ponder: {escape(str(exc))}[/red]")
        return EXIT_ERROR
    except Exception as exc:  # last resort: a clear line instead of a traceback (set PONDER_DEBUG=1 for it)
        if settings.debug:
            raise
        err.print(f"[red]ponder: {type(exc).__name__}: {exc}[/red]")
        return EXIT_ERROR


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="ponder", description="A memory-augmented ReAct research agent.")
    sub = p.add_subparsers(dest="command", required=True)

    ask = sub.add_parser("ask", help="answer a question")
    ask.add_argument("question")
    _run_options(ask)
    ask.set_defaults(handler=cmd_ask)

    resume = sub.add_parser("resume", help="continue an interrupted run from its stored steps")
    resume.add_argument("run_id")
    _run_options(resume)
    resume.set_defaults(handler=cmd_resume)

    trace = sub.add_parser("trace", help="print a run's JSONL trace readably, or write it as an HTML page")
    trace.add_argument("file", help="trace.jsonl file, run directory or run id")
    trace.add_argument("--html", type=Path, metavar="FILE",
                       help="write the run as one self-contained HTML page (works offline) instead of printing it")
    trace.set_defaults(handler=cmd_trace)

    bench = sub.add_parser("bench", help="run a question suite under several memory strategies and compare them")
    source = bench.add_mutually_exclusive_group()
    source.add_argument("--suite", help="offline-multihop, long-horizon, short-tasks, long-recall, fanoutqa-dev, "
                        "fanoutqa-dev-offline")
    source.add_argument("--questions", metavar="FILE.jsonl",
                        help="your own suite: JSONL of question, answers (alternatives), optional evidence")
    source.add_argument("--speed", choices=SPEED_BENCHES, metavar="NAME",
                        help=f"a speed benchmark instead of a suite, with its defaults ({', '.join(SPEED_BENCHES)}); "
                        "figures on stdout. Its options: python -m ponder.bench.speed.NAME --help")
    bench.add_argument("--strategies", help=f"comma-separated memory strategies (of {', '.join(STRATEGIES)}); "
                       "default full,mask,retrieval+summary")
    bench.add_argument("--model", help="model name (PONDER_MODEL); for the local backend a GGUF path also works")
    bench.add_argument("--base-url", help="OpenAI-compatible server URL (OPENAI_BASE_URL)")
    bench.add_argument("--backend", choices=("local", "openai"), help="LLM backend (PONDER_BACKEND)")
    bench.add_argument("--wiki", choices=("offline", "live", "auto"),
                       help="Wikipedia backend (default: live for fanoutqa-dev, else offline)")
    bench.add_argument("--limit", type=_positive_int, help="only the first N questions")
    bench.add_argument("--ids", metavar="ID,ID,...", help="only the questions with these ids, in the suite's order")
    bench.add_argument("--per-kind", type=_positive_int, metavar="N",
                       help="only the first N questions of each kind (a stratified sample)")
    bench.add_argument("--max-steps", type=_positive_int, default=16, help="step limit per run")
    bench.add_argument("--ctx", type=_positive_int, help="the model's context window (local default 4096)")
    bench.add_argument("--max-seconds", type=_positive_seconds, default=900.0, help="wall-time limit per run")
    bench.add_argument("--concurrency", type=_positive_int, default=1,
                       help="runs in flight at once (OpenAI-compatible servers; the local model runs one)")
    bench.add_argument("--out", type=Path, help="output directory (default: $PONDER_HOME/bench/<suite>-<time>)")
    bench.add_argument("--resume", type=Path, metavar="DIR", help="finish an interrupted bench in DIR")
    source.add_argument("--rescore", type=Path, metavar="DIR",
                        help="re-score a stored bench in DIR with today's scorer and rewrite its report and plots")
    bench.add_argument("--judge", metavar="MODEL", help="also ask this model (an OpenAI-compatible server's model, "
                                                        "or a GGUF path) whether each answer is right; stored beside "
                                                        "the rule-based verdict, with their agreement")
    bench.add_argument("--corpus", type=Path, metavar="FILE.jsonl",
                       help="the documents the Wikipedia tools search (records of title and text, as "
                            "PONDER_WIKI_CORPUS reads them) instead of the default offline corpus")
    bench.set_defaults(handler=cmd_bench)

    score = sub.add_parser("score", help="score predictions from any system: one JSON verdict a line on stdout")
    score.add_argument("file", type=Path, metavar="FILE.jsonl",
                       help="lines of question, answers, prediction, and optionally options and tolerance")
    score.add_argument("--judge", metavar="MODEL", help="also ask this model for its verdict (beside the rules')")
    score.add_argument("--base-url", help="OpenAI-compatible server URL for --judge (OPENAI_BASE_URL)")
    score.set_defaults(handler=cmd_score)

    mem = sub.add_parser("memory", help="list runs, or show what a run stored and retrieved")
    mem.add_argument("run_id", nargs="?")
    mem.add_argument("--json", action="store_true", help="machine-readable output")
    mem.set_defaults(handler=cmd_memory)
    return p


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, got {text}")
    return value


def _retries(text: str) -> int:
    value = _positive_int(text)
    if value > 5:
        raise argparse.ArgumentTypeError(f"at most 5 retries, got {value}")
    return value


def _run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", help="model name (PONDER_MODEL); for the local backend a GGUF path also works")
    p.add_argument("--base-url", help="OpenAI-compatible server URL (OPENAI_BASE_URL)")
    p.add_argument("--backend", choices=("local", "openai"), help="LLM backend (PONDER_BACKEND); default: "
                   "openai when OPENAI_API_KEY/OPENAI_BASE_URL is set, else the embedded local model")
    p.add_argument("--max-steps", type=_positive_int, default=12)
    p.add_argument("--ctx", type=_positive_int, help="the model's context window in tokens (local default 4096); "
                   "the memory's token budget follows it")
    p.add_argument("--max-seconds", type=_positive_seconds, default=600.0, help="wall-time limit for the run")
    p.add_argument("--memory", choices=STRATEGIES, default=DEFAULT_STRATEGY, help="context strategy")
    p.add_argument("--aux-model", metavar="MODEL", help="a second model for side work (the summariser): a GGUF "
                   "path for the local backend, or a model name on the same OpenAI-compatible server")
    p.add_argument("--check", default="numbers", metavar="NAMES",
                   help="final-answer checks that may send an answer back: numbers (default), names (every name "
                   "it gives must appear in an observation about the question), parts (every part answered), judge "
                   "(the --aux-model, or the model, reviews the answer against the observations)")
    p.add_argument("--plan", action="store_true", help="write a numbered plan first; every prompt shows it with "
                   "the items done so far checked off, and it is rewritten when a lookup for an item finds nothing")
    p.add_argument("--research", action=argparse.BooleanOptionalAction, default=None,
                   help="the default (PONDER_RESEARCH=0 turns it off): the question is split into sub-questions, each "
                   "answered by a sub-agent with its own context; the prompt shows the facts established (each quoted "
                   "from a page) and a Final answer's numbers must come from them or from a calculation. "
                   "--no-research: plain ReAct")
    p.add_argument("--reflect", nargs="?", type=_retries, const=1, default=0, metavar="N",
                   help="after a failed attempt (a limit stopped it, or the checks still reject its answer) write a "
                   "lesson and try again with it, at most N more times (default 1)")
    p.add_argument("--step", action="store_true", help="pause before each action: Enter runs it, e edits it, o "
                   "writes its observation yourself, c continues without pausing, q stops (the run stays resumable)")
    p.add_argument("--remember", nargs="?", const="default", metavar="SPACE",
                   help="keep and recall facts across runs in a named memory space (default: 'default')")
    p.add_argument("--wiki", choices=("offline", "live", "auto"), help="Wikipedia backend (PONDER_WIKI)")
    p.add_argument("--approve", metavar="TOOLS", default="",
                   help="comma-separated tools whose every call you approve or deny at a prompt (no terminal: denied)")
    p.add_argument("--tool", action="append", default=[], metavar="NAME",
                   help="add an optional tool: wikipedia_fact (entity | what: summary, then the sentences holding "
                   "the keyword, in one call; its inner calls are in the trace)")
    p.add_argument("--trace-dir", type=Path, help="where runs write trace.jsonl (default: $PONDER_HOME/runs)")
    p.add_argument("--json", action="store_true", help="print the whole result as JSON on stdout")
    p.add_argument("-q", "--quiet", action="store_true", help="don't stream steps to stderr")
    p.add_argument("-v", "--verbose", action="store_true", help="debug logging on stderr")


# ---- commands ----------------------------------------------------------------------------------------------

def cmd_ask(args, err: Console) -> int:
    question = args.question.strip()
    if not question:
        raise UsageError("the question is empty: ponder ask \"What is 15 raised to the power of 2?\"")
    raw = question.encode("utf-8", "surrogateescape")  # undecodable argv bytes arrive as lone surrogates
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"the question is not valid UTF-8 text (byte 0x{raw[exc.start]:02x} at byte {exc.start}); "
                         "pass it in UTF-8") from None
    if len(question) > MAX_QUESTION_CHARS:
        raise UsageError(f"the question is {len(question):,} characters long; the limit is {MAX_QUESTION_CHARS:,}: "
                         "ask the question itself, the agent looks up the material")
    from agent.loop import new_run_id
    return _run(args, err, question, new_run_id())


def cmd_resume(args, err: Console) -> int:
    store = _store()
    run = _run_info(store, args.run_id)
    if run is None:
        raise UsageError(f"no run {args.run_id!r}; `ponder memory` lists the runs")
    if run.status in ("finished", "final_answer"):
        raise UsageError(f"run {args.run_id} already finished; its answer: {run.answer or '(none)'}")
    err.print(f"[dim]resuming {args.run_id} after {run.steps} stored steps[/dim]")
    args.memory = run.strategy or args.memory
    args.remember = args.remember or run.space or None
    annotations = store.run_annotations(args.run_id)
    args.plan = args.plan or bool(annotations.get("plan"))  # a planned run keeps planning
    if args.research is None:  # a run goes on as it began, with sub-agents or without
        args.research = bool(annotations.get("research"))
    return _run(args, err, run.task, args.run_id, store=store)


def _store():
    from memory.store import Store
    return Store()


def _run_info(store, run_id: str):
    try:
        return store.run_info(run_id)
    except ValueError as exc:  # not a valid run id at all
        raise UsageError(str(exc)) from None


def _run(args, err: Console, task: str, run_id: str, store=None) -> int:
    from agent.checks import check_names, checks_named
    from agent.config import AgentConfig
    from ponder.display import LiveView
    from agent.llm.select import select_llm
    from agent.loop import Agent
    from agent.reflection import solve
    from agent.runs import attempt_id, attempts
    from core.llm import LLMError
    from core.paths import ponder_home, writable_dir
    from tools.defaults import default_tools
    from tools.wiki_select import make_backend

    try:
        check_names(args.check)  # before any model loads; the judge check gets its model below
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.step and args.reflect:
        raise UsageError("--step and --reflect do not go together: a stepped run is yours to steer")
    config = AgentConfig(max_steps=args.max_steps, max_wall_seconds=args.max_seconds,
                         trace_dir=args.trace_dir or ponder_home() / "runs", plan=args.plan,
                         research=load_settings().research if args.research is None else args.research,
                         reflect_retries=args.reflect, approver=_terminal_approver(err))
    writable_dir(config.trace_dir, "the trace directory")  # before the run is stored: no run without its trace
    try:
        llm = select_llm(model=args.model, base_url=args.base_url, backend=args.backend, n_ctx=args.ctx,
                         prompt_cache=True)
        aux = llm
        if args.aux_model:
            local_aux = args.aux_model.lower().endswith(".gguf")
            aux = select_llm(model=args.aux_model, base_url=None if local_aux else args.base_url,
                             backend="local" if local_aux else args.backend)
    except LLMError as exc:
        err.print(f"[red]ponder: {exc}[/red]")
        return EXIT_ERROR
    config.final_answer_checks = checks_named(args.check, llm=aux)
    aux_name = f" · side work: {aux.name}" if aux is not llm else ""
    err.print(f"[dim]model: {llm.name}{aux_name} · memory: {args.memory} · run: {run_id}[/dim]")
    try:
        tools = default_tools(make_backend(args.wiki), extra=args.tool)
        tools.require_approval([name.strip() for name in args.approve.split(",") if name.strip()])
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    opened: list[str] = []  # attempts whose run is open in the store
    build = attempts(task, run_id, llm, tools, store=store, strategy=args.memory, config=config, aux_llm=aux,
                     n_ctx=args.ctx, memory_settings={"space": args.remember}, on_open=opened.append)

    def attempt(number: int, lessons: list[str]) -> Agent:
        if number:
            err.print(f"[yellow]retrying as {attempt_id(run_id, number)} with {len(lessons)} lesson(s)[/yellow]")
        try:
            return build(number, lessons)
        except ValueError as exc:  # a bad --remember space name
            raise UsageError(str(exc)) from None

    view = None if args.quiet else LiveView(err)
    try:
        if args.step:
            result = _step_through(attempt(0, []), task, err, view)
            if result is None:  # q: the run is stored as interrupted
                err.print(f"[yellow]stopped; continue with: ponder resume {run_id}[/yellow]")
                return EXIT_INTERRUPTED
        else:
            result = solve(task, attempt, llm=aux, retries=config.reflect_retries, on_event=view)
    except KeyboardInterrupt:  # the agent stored every finished step and marked the run interrupted
        err.print(f"[yellow]continue with: ponder resume {run_id}[/yellow]")
        raise
    except ChromaServerError as exc:  # every step finished before it is stored on the server
        if load_settings().debug:
            raise
        err.print(f"[red]ponder: {escape(str(exc))}[/red]")
        if opened:
            err.print(f"[yellow]once the Chroma server is back, continue with: ponder resume {opened[-1]}[/yellow]")
        return EXIT_ERROR
    if args.json:
        print(result.model_dump_json(indent=2))
    elif result.answer:
        print(result.answer)
    if result.stop_reason.value == "final_answer":
        return EXIT_OK
    if result.stop_reason.value == "llm_error":
        if args.quiet:  # the live view, which shows the error, is off
            err.print(f"[red]ponder: {escape(result.error or 'the LLM call failed')}[/red]")
        # every finished step is stored: once the model answers again the run goes on from them
        err.print(f"[yellow]continue with: ponder resume {result.run_id}[/yellow]")
        return EXIT_ERROR
    err.print(f"[yellow]stopped: {result.stop_reason.value}[/yellow]")
    return EXIT_LIMIT


def _terminal_approver(err: Console):
    """Asks the person at the terminal about each call of a tool that needs approval; without one, denies."""
    def approve(tool: str, action_input: str) -> bool:
        if not sys.stdin.isatty():
            err.print(f"[yellow]denied {escape(tool)}: no terminal to ask for approval[/yellow]")
            return False
        try:
            answer = err.input(f"Allow [bold]{escape(tool)}[/bold]({escape(repr(action_input[:200]))})? \\[y/N] ")
        except EOFError:
            return False
        return answer.strip().lower() in ("y", "yes")
    return approve


STEP_KEYS = "[bold]Enter[/bold] run it · [bold]e[/bold] edit the action · [bold]o[/bold] write the observation · " \
            "[bold]c[/bold] continue without pausing · [bold]q[/bold] stop > "


def _step_through(agent, task: str, err: Console, view):
    """`--step`: pause before each action the model proposes; None if the person stopped the run."""
    run = agent.start(task, on_event=view)
    pausing = True
    while not run.done:  # bounded by the run's own limits
        if not pausing:
            return run.finish()
        proposed = run.propose()
        if run.done:
            break
        try:
            choice = err.input(STEP_KEYS).strip().lower()
            if choice == "e":
                action = err.input("Action: ").strip()
                run.inject_action(action, err.input("Action Input: "))
            elif choice == "o" and proposed.action != "Final":
                run.inject_observation(err.input("Observation: "))
        except EOFError:  # stdin closed: stop, as q does
            choice = "q"
        except ValueError as exc:  # an action that cannot be one
            err.print(f"[red]{escape(str(exc))}; the model's action stands[/red]")
        if choice == "q":
            run.stop()
            return None
        pausing = choice != "c"
        run.step()
    return run.result


def cmd_bench(args, err: Console) -> int:
    from ponder.bench.command import BenchUsageError, rescore, run

    if args.speed:
        return _speed_bench(args)
    try:
        return rescore(args, err) if args.rescore else run(args, err)
    except BenchUsageError as exc:
        raise UsageError(str(exc)) from None


def _speed_bench(args) -> int:
    """A speed benchmark runs with its own defaults: any other bench option would be silently ignored, so it is
    refused."""
    defaults = vars(_parser().parse_args(["bench"]))
    given = [f"--{name.replace('_', '-')}" for name, value in vars(args).items()
             if name in defaults and name != "speed" and value != defaults[name]]
    if given:
        raise UsageError(f"--speed runs {args.speed} with its own defaults; it takes no {', '.join(given)} "
                         f"(its options: python -m ponder.bench.speed.{args.speed} --help)")
    from ponder.bench.speed import run
    return run(args.speed)


def cmd_score(args, err: Console) -> int:
    from ponder.bench.command import BenchUsageError, score_file

    try:
        return score_file(args, err)
    except BenchUsageError as exc:
        raise UsageError(str(exc)) from None


def cmd_trace(args, err: Console) -> int:
    from ponder.display import print_trace
    from agent.trace import read_trace
    from core.paths import ponder_home

    path = Path(args.file)
    if not path.exists():
        path = ponder_home() / "runs" / args.file  # a bare run id
    if path.is_dir():
        path = path / "trace.jsonl"
    if not path.is_file():
        raise UsageError(f"no trace at {args.file!r} (give a trace.jsonl file, a run directory or a run id)")
    try:
        events = list(read_trace(path))
    except (ValueError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path} is not a Ponder trace: {exc}") from None
    if not events or not all(isinstance(event, dict) and "type" in event for event in events):
        raise UsageError(f"{path} is not a Ponder trace: no trace events in it")
    try:
        if args.html:
            from ponder.html import render_trace_html
            page = render_trace_html(events, source=str(path))
        else:
            print_trace(events, Console(highlight=False, soft_wrap=True))
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:  # fields of the wrong shape
        raise UsageError(f"{path} is not a Ponder trace: {exc}") from None
    if args.html:
        try:
            args.html.write_text(page, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {escape(str(args.html))}: {exc.strerror or exc}") from None
        err.print(f"wrote {escape(str(args.html))}", highlight=False)
    return EXIT_OK


def cmd_memory(args, err: Console) -> int:
    import dataclasses
    import json
    import time

    from rich.table import Column, Table

    store, out = _store(), Console(highlight=False)
    if not args.run_id:
        runs = store.list_runs()
        if args.json:
            print(json.dumps([dataclasses.asdict(r) for r in runs], indent=2))
            return EXIT_OK
        # Run ids and statuses are what people copy or grep: never wrapped, the other columns give way.
        table = Table(Column("run", no_wrap=True), "created", Column("status", no_wrap=True), "steps", "strategy",
                      "task")
        for r in runs:
            table.add_row(r.run_id, time.strftime("%Y-%m-%d %H:%M", time.localtime(r.created)), r.status,
                          str(r.steps), r.strategy, escape(r.task[:60]))
        out.print(table if runs else "no runs stored yet")
        return EXIT_OK
    run = _run_info(store, args.run_id)
    if run is None:
        raise UsageError(f"no run {args.run_id!r}; `ponder memory` lists the runs")
    records, summaries = store.step_records(args.run_id), store.summaries(args.run_id)
    if args.json:
        print(json.dumps({"run": dataclasses.asdict(run), "summaries": [dataclasses.asdict(s) for s in summaries],
                          "steps": [{"step": r.step.model_dump(), "retrieved": r.retrieved,
                                     "context_tokens": r.context_tokens} for r in records]}, indent=2))
        return EXIT_OK
    out.print(f"[bold]{run.run_id}[/bold] · {run.status} · {run.strategy} · {escape(run.task)}")
    for summary in summaries:
        out.print(f"[cyan]summary of steps {summary.first}-{summary.upto}:[/cyan] {escape(summary.text)}")
    for r in records:
        retrieved = ", ".join(map(str, r.retrieved)) or "none"
        out.print(f"[dim]step {r.step.index} · prompt {r.context_tokens or '?'} memory tokens · retrieved "
                  f"steps: {retrieved}[/dim]\n{escape(r.step.as_text())}")
    if run.answer:
        out.print(f"[bold]Answer:[/bold] {escape(run.answer)}")
    return EXIT_OK


def run() -> None:
    """Console-script entry point."""
    code = main()
    from agent.observations import abandoned_tool_threads
    if abandoned_tool_threads():
        # A timed-out tool is still inside native code (e.g. Chroma); interpreter shutdown under it aborts
        # the process. Everything is persisted and flushed by now, so leave without finalisation.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    run()
