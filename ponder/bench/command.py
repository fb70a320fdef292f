"""`ponder bench`: the command around the runner: choose questions, model and tools, show progress on stderr,
write results, summary, report and plots into the output directory, and print the report on stdout."""
from __future__ import annotations

import contextlib
import json
import time
from collections import Counter
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ponder.bench import long_recall, provenance, report, runner, speed
from ponder.bench.suites import SuiteError, load_questions, load_suite, suite_corpus, suite_names
from core.clock import SYSTEM_CLOCK, pinned_today
from memory.strategies import STRATEGIES

LONG_RECALL = "long-recall"
DEFAULT_STRATEGIES = "full,mask,retrieval+summary"


class BenchUsageError(ValueError):
    """Bad arguments: the CLI prints the message and exits 2."""


def all_suite_names() -> list[str]:
    return [*suite_names(), LONG_RECALL]


def parse_strategies(text: str) -> list[str]:
    """Strategy names, each optionally with agent options: compact+plan, compact+reflect, compact+plan+reflect."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = []
    for name in names:
        try:
            runner.split_variant(name)
        except ValueError:
            unknown.append(name)
    if unknown or not names:
        raise BenchUsageError(f"unknown memory strategy {', '.join(unknown) or '(none)'}: choose from "
                              f"{', '.join(STRATEGIES)}, each optionally with "
                              f"{', '.join('+' + option for option in runner.VARIANT_OPTIONS)}")
    return list(dict.fromkeys(names))


def run(args, err: Console) -> int:
    from core.chroma import make_client
    from core.paths import ponder_home
    from core.settings import load_settings
    from memory.store import Store
    from tools.defaults import default_tools

    header = {}
    if not (args.resume or args.suite or args.questions):
        raise BenchUsageError(f"give --suite ({', '.join(all_suite_names())}), --questions FILE.jsonl, or --speed "
                              f"({', '.join(speed.NAMES)}) for a speed benchmark")
    out_dir = _out_dir(args)
    if args.resume:
        previous = out_dir / "summary.json"
        if not (out_dir / runner.RESULTS_FILE).is_file():
            raise BenchUsageError(f"nothing to resume in {out_dir}: it has no {runner.RESULTS_FILE}")
        if previous.is_file():
            header = json.loads(previous.read_text(encoding="utf-8")).get("header", {})
        if not (args.suite or args.questions):  # the same questions as the interrupted bench
            args.suite, args.questions = header.get("suite_name"), header.get("questions_file")
            args.limit = args.limit or header.get("limit")
            args.per_kind = args.per_kind or header.get("per_kind")
            args.ids = args.ids or header.get("ids")
        args.corpus = args.corpus or header.get("corpus_file")
        args.max_steps = header.get("max_steps") or args.max_steps
        args.strategies = args.strategies or header.get("strategies")
    if not (args.suite or args.questions):
        raise BenchUsageError(f"give --suite ({', '.join(all_suite_names())}) or --questions FILE.jsonl")
    if args.suite and args.suite not in all_suite_names():
        raise BenchUsageError(f"unknown suite {args.suite!r}: choose from {', '.join(all_suite_names())}")
    strategies = parse_strategies(args.strategies or DEFAULT_STRATEGIES)
    suite = args.suite or Path(args.questions).name
    # the prompt states the date, and some answers count from it: a resumed bench keeps its first runs' date
    today = header.get("today") or SYSTEM_CLOCK.today().isoformat()
    max_steps = args.max_steps
    if args.suite == LONG_RECALL:
        from tools.wiki_offline import OfflineWiki
        wiki = OfflineWiki()
        scenarios = long_recall.scenarios(wiki.docs, args.limit)
        questions = long_recall.questions(scenarios)
        by_id = {s.id: s for s in scenarios}
        tools = default_tools(wiki)
        model_name = "scripted researcher (Replay, no LLM)"
        model_identity = {"name": model_name}
        corpus = None
        llm_for = lambda question: long_recall.llm_for(by_id[question.id])  # noqa: E731
        max_steps = max(s.steps for s in scenarios) + 2
        concurrency = 1
    else:
        try:
            with pinned_today(today):
                questions = load_questions(args.questions) if args.questions else load_suite(args.suite)
        except SuiteError as exc:
            raise BenchUsageError(str(exc)) from None
        if args.ids:
            wanted = [i.strip() for i in args.ids.split(",") if i.strip()]
            unknown = sorted(set(wanted) - {q.id for q in questions})
            if unknown:
                raise BenchUsageError(f"no question with id {', '.join(unknown)} in {suite}")
            questions = [q for q in questions if q.id in wanted]
        if args.per_kind:  # a stratified sample: the first N questions of each kind
            taken: Counter[str] = Counter()
            sample = []
            for question in questions:
                taken[question.kind] += 1
                if taken[question.kind] <= args.per_kind:
                    sample.append(question)
            questions = sample
        questions = questions[:args.limit] if args.limit else questions
        from agent.llm.select import select_llm
        llm = select_llm(model=args.model, base_url=args.base_url, backend=args.backend, n_ctx=args.ctx)
        corpus = args.corpus or (suite_corpus(args.questions) if args.questions else None)
        wiki = _wiki(args.wiki, suite, corpus)
        tools = default_tools(wiki)
        model_name = llm.name
        model_identity = provenance.model_identity(llm)
        llm_for = lambda question: llm  # noqa: E731
        concurrency = args.concurrency
        if concurrency > 1 and type(llm).__name__ == "LocalLlama":
            err.print("[yellow]the in-process local model answers one question at a time: --concurrency 1"
                      "[/yellow]")
            concurrency = 1
    settings = load_settings()
    store = Store(make_client("http") if settings.chroma_host else make_client("memory"))
    first_command = header.get("command")
    resumed = [*header.get("resumed_with", []), provenance.command_line(args.argv)] if first_command else []
    header = {"suite": suite, "suite_name": args.suite, "questions_file": args.questions, "model": model_name,
              "strategies": ",".join(strategies), "limit": args.limit, "per_kind": args.per_kind, "ids": args.ids,
              "questions": len(questions), "max_steps": max_steps, "concurrency": concurrency,
              "started": header.get("started") or runner.now(),
              "command": first_command or provenance.command_line(args.argv),
              "today": today,
              **({"resumed_with": resumed} if resumed else {}),
              "corpus_file": str(corpus) if corpus else None,
              **provenance.git_state(output=out_dir), "model_file": model_identity,
              "corpus": provenance.corpus_identity(wiki),
              "machine": provenance.machine(), "ponder_home": str(ponder_home())}
    total = len(questions) * len(strategies)
    done_before = len({(r.question_id, r.strategy) for r in runner.read_records(out_dir)
                       if r.strategy in strategies and r.question_id in {q.id for q in questions}})
    err.print(f"[dim]bench {suite}: {len(questions)} questions × {len(strategies)} strategies = {total} runs "
              f"({done_before} already done) · model: {model_name} · out: {out_dir}[/dim]")
    started = time.monotonic()
    tally = {"runs": 0, "correct": 0, "tokens": 0}
    failures: list[str] = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.fields[status]}"), console=err, transient=False) as progress:
        task = progress.add_task("runs", total=total, completed=done_before, status="")

        def on_record(record: runner.RunRecord) -> None:
            tally["runs"] += 1
            tally["correct"] += record.correct and not record.forced_answer
            tally["tokens"] += record.evaluated_prompt_tokens + record.completion_tokens
            progress.update(task, advance=1, status=f"correct {tally['correct']}/{tally['runs']} · "
                                                    f"{tally['tokens']:,} tokens evaluated")

        def on_failure(question, strategy: str, exc: Exception) -> None:
            failures.append(f"{question.id} under {strategy}: {type(exc).__name__}: {exc}")
            err.print(f"[red]run failed: {failures[-1]}[/red]")

        with pinned_today(header["today"]):
            records = runner.run_bench(questions, strategies, llm_for=llm_for, tools_for=lambda question: tools,
                                       store=store, out_dir=out_dir, max_steps=max_steps,
                                       max_seconds=args.max_seconds, concurrency=concurrency,
                                       on_record=on_record, n_ctx=args.ctx, on_failure=on_failure)
    header["seconds"] = round(time.monotonic() - started, 1)
    if args.judge:
        records = _judged(records, questions, args, err)
        runner.write_records(out_dir, records)
    text = write_outputs(records, strategies, header, out_dir, questions)
    print(text)
    if failures:
        err.print(f"[red]{len(failures)} runs failed (not recorded); retry them with: ponder bench --resume "
                  f"{out_dir}[/red]")
        return 1
    return 0


def write_outputs(records, strategies, header: dict, out_dir: Path, questions) -> str:
    rows = report.figures(records, strategies)
    extra = {}
    if header["suite"].startswith("fanoutqa"):
        from ponder.bench.suites import offline_corpus_titles, offline_coverage
        coverage = offline_coverage(questions, offline_corpus_titles())
        header["offline coverage"] = coverage.describe()
        extra["coverage"] = coverage.model_dump()
    text = report.markdown(rows, records, header, questions)
    (out_dir / "report.md").write_text(text, encoding="utf-8")
    plots = report.plots(rows, records, out_dir)
    summary = {"header": header, "strategies": [row.model_dump() for row in rows],
               "plots": [p.name for p in plots], **extra}
    (out_dir / "summary.json").write_text(runner.dumps(summary), encoding="utf-8")
    return text


def _wiki(mode: str | None, suite: str, corpus: Path | None):
    """The Wikipedia backend of a bench: a suite's own documents when it brings them, else as asked (FanOutQA's
    full dev set reads live Wikipedia, every other suite the offline corpus)."""
    if corpus is not None:
        if mode == "live":
            raise BenchUsageError("--corpus gives the documents to search offline; it cannot go with --wiki live")
        from tools.wiki_offline import CorpusError, OfflineWiki
        try:
            return OfflineWiki(corpus_path=corpus)
        except CorpusError as exc:
            raise BenchUsageError(str(exc)) from None
    from tools.wiki_select import make_backend
    return make_backend(mode or ("live" if suite.startswith("fanoutqa-dev") and suite != "fanoutqa-dev-offline"
                                 else "offline"))


def _out_dir(args) -> Path:
    if args.resume:
        return Path(args.resume)
    if args.out:
        return Path(args.out)
    from core.paths import ponder_home
    name = (args.suite or Path(args.questions).stem).replace("/", "-")
    return ponder_home() / "bench" / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"


# --- re-scoring stored results -------------------------------------------------------------------------------------

def _suite_questions(header: dict) -> list:
    """Every question of the suite a stored bench ran, from its summary's header."""
    if header.get("suite_name") == LONG_RECALL:
        from tools.wiki_offline import OfflineWiki
        return long_recall.questions(long_recall.scenarios(OfflineWiki().docs, None))
    if header.get("suite_name"):
        return load_suite(header["suite_name"])
    if header.get("questions_file"):
        path = Path(header["questions_file"])
        if not path.is_file() and not path.is_absolute():
            path = provenance.REPO_ROOT / path     # recorded relative to where the bench ran: the checkout
        return load_questions(path)
    raise BenchUsageError("its summary.json names neither a suite nor a questions file")


def rescore(args, err: Console) -> int:
    """Re-score a stored bench with today's scorer: rewrite results.jsonl's scores, summary.json, report.md and
    the plots, keeping the accuracy the report showed before beside the new one."""
    out_dir = Path(args.rescore)
    summary_path, results_path = out_dir / "summary.json", out_dir / runner.RESULTS_FILE
    if not results_path.is_file() or not summary_path.is_file():
        raise BenchUsageError(f"{out_dir} is not a bench output directory (it needs {runner.RESULTS_FILE} and "
                              "summary.json)")
    try:
        old = json.loads(summary_path.read_text(encoding="utf-8"))
        header = old["header"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise BenchUsageError(f"{summary_path}: not a bench summary ({exc})") from None
    try:
        # answers that count from today count from the day the bench ran (benches before that record had none)
        with pinned_today(header["today"]) if header.get("today") else contextlib.nullcontext():
            by_id = {q.id: q for q in _suite_questions(header)}
    except SuiteError as exc:
        raise BenchUsageError(str(exc)) from None
    records = runner.read_records(out_dir)
    unknown = sorted({r.question_id for r in records} - set(by_id))
    if unknown:
        raise BenchUsageError(f"{results_path}: questions {', '.join(unknown[:5])} are not in the suite "
                              f"{header.get('suite')}; cannot re-score them")
    if "before_rescore" not in header:     # the first re-scoring keeps what the report showed until then
        header["before_rescore"] = {row["strategy"]: row.get("accuracy", row.get("strict_accuracy"))
                                    for row in old.get("strategies", [])}
    if "dirty" not in header:
        header["provenance_missing"] = ("recorded before summary.json held the commit's dirty flag: the commit "
                                        "alone does not prove which code ran")
    records = [record.model_copy(update=runner.grade(by_id[record.question_id], record.answer))
               for record in records]
    if args.judge:
        records = _judged(records, list(by_id.values()), args, err)
    header["rescored"] = {"at": runner.now(), **provenance.git_state(output=out_dir),
                          "command": provenance.command_line(args.argv)}
    runner.write_records(out_dir, records)
    strategies = [s for s in header.get("strategies", "").split(",") if s] or \
        list(dict.fromkeys(r.strategy for r in records))
    questions = [by_id[qid] for qid in dict.fromkeys(r.question_id for r in records)]
    print(write_outputs(records, strategies, header, out_dir, questions))
    before = header["before_rescore"]
    for row in report.figures(records, strategies):
        was = before.get(row.strategy)
        err.print(f"{row.strategy}: {row.correct}/{row.runs} correct now"
                  + (f", {was:.0%} before" if isinstance(was, (int, float)) else ""))
    return 0


def _judged(records, questions, args, err: Console) -> list:
    """Each record with an LLM judge's verdict beside the rule-based one."""
    from ponder.bench.judge import judge
    from agent.llm.select import select_llm
    llm = select_llm(model=args.judge, base_url=getattr(args, "base_url", None))
    by_id = {q.id: q for q in questions}
    judged = []
    for number, record in enumerate(records, 1):
        question = by_id[record.question_id]
        verdict = judge(llm, question.question, question.answers, record.answer)
        judged.append(record.model_copy(update={"judge": verdict}))
        err.print(f"[dim]judge {number}/{len(records)}: {record.question_id} · {record.strategy}: "
                  f"{verdict.correct} (rules: {record.correct})[/dim]")
    return judged


# --- `ponder score`: predictions from any system ---------------------------------------------------------------------

MAX_SCORE_ERRORS = 20   # bad lines listed before "and N more"


def score_file(args, err: Console) -> int:
    """One JSON verdict per input line on stdout, in input order. Every line is checked first: a bad line is named
    on stderr, nothing is printed on stdout, exit 2."""
    from ponder.bench.metrics import score as fanoutqa_score
    from ponder.bench.verdict import judge_answer
    items, problems = _score_items(Path(args.file))
    if problems:
        for problem in problems[:MAX_SCORE_ERRORS]:
            err.print(f"[red]ponder score: {escape(problem)}[/red]")
        if len(problems) > MAX_SCORE_ERRORS:
            err.print(f"[red]ponder score: ... and {len(problems) - MAX_SCORE_ERRORS} more bad lines[/red]")
        return 2
    judge_llm = None
    if args.judge:
        from agent.llm.select import select_llm
        judge_llm = select_llm(model=args.judge, base_url=args.base_url)
    for number, (item, prediction) in items:
        verdict = judge_answer(item.question, item.answers, prediction, options=item.options,
                               tolerance=item.tolerance, evidence=item.evidence)
        fanoutqa = fanoutqa_score(item, prediction)
        out = {"line": number, "id": item.id, "correct": verdict.correct, "reason": verdict.reason,
               "pick": verdict.pick, "f1": round(verdict.f1, 4), "fanoutqa_strict": fanoutqa.strict,
               "fanoutqa_loose": round(fanoutqa.loose, 4)}
        if judge_llm is not None:
            from ponder.bench.judge import judge
            out["judge"] = judge(judge_llm, item.question, item.answers, prediction).model_dump()
        print(json.dumps(out, ensure_ascii=False), flush=True)
    return 0


def _score_items(path: Path) -> tuple[list, list[str]]:
    """((line number, (question, prediction)) for each line, problems naming file:line)."""
    from pydantic import ValidationError

    from ponder.bench.suites import BenchQuestion, json_lines, one_line_error, read_text_file
    text = read_text_file(path, "it", BenchUsageError)
    items, problems = [], []
    for number, where, record, problem in json_lines(text, path):
        if problem:
            problems.append(f"{where}: {problem}")
            continue
        if not isinstance(record, dict):
            problems.append(f"{where}: expected a JSON object with question, answers and prediction")
            continue
        if "answers" not in record and "answer" in record:
            record["answers"] = [record.pop("answer")]
        missing = [field for field in ("question", "answers", "prediction") if field not in record]
        if missing:
            problems.append(f"{where}: missing {', '.join(repr(f) for f in missing)}")
            continue
        prediction = record.pop("prediction")
        if prediction is not None and not isinstance(prediction, str):
            problems.append(f"{where}: prediction must be a string (or null for no answer), not "
                            f"{type(prediction).__name__}")
            continue
        if not isinstance(record["answers"], list):
            record["answers"] = [record["answers"]]
        record["id"] = str(record.get("id", f"line-{number}"))
        try:
            items.append((number, (BenchQuestion(**record), prediction)))
        except ValidationError as exc:
            problems.append(f"{where}: {one_line_error(exc)}")
    if not items and not problems:
        problems.append(f"{path}: no lines to score (the file is empty)")
    return items, problems
