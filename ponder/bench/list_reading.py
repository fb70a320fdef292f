"""The model's reading of a question's list against code's. For each question, three lists are set against the number
of things its evidence names: code's (agent/reading.listed_names), the model's (agent/research.read_list: the list
the side model copies under a grammar, with the research lead's own system prompt) as code checks it
(`checked_list`), and the one the lead settles on (`settled_list`: the model's only where the question states a
count that code's misses, or where code reads no list). It needs the model: about 7 s a question on two cores.

    python -m ponder.bench.list_reading --ids omh-182,lh-78 [--out FILE.jsonl]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import date
from pathlib import Path
from typing import Callable

from agent import prompts, research
from agent.reading import checked_list, listed_names, settled_list
from memory.base import Context
from ponder.bench import provenance
from ponder.bench.suites import BenchQuestion, load_suite


def read_lists(question: BenchQuestion, complete: Callable, system: str) -> dict:
    """One question's row: each list, and whether its length is the evidence's."""
    started = time.monotonic()
    read = research.read_list(complete, system, question.question)
    lists = {"code": listed_names(question.question), "model": checked_list(question.question, read),
             "settled": settled_list(question.question, read)}
    wanted = len(question.evidence or [])
    return {"id": question.id, "evidence": wanted, "seconds": round(time.monotonic() - started, 1), "read": read,
            **lists, **{f"{name}_count_right": len(found) == wanted for name, found in lists.items()}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ponder.bench.list_reading", description=__doc__.split("\n\n")[0])
    parser.add_argument("--ids", required=True,
                        help="comma-separated ids of offline-multihop or long-horizon questions")
    parser.add_argument("--out", type=Path, help="write one JSON row a question here, then the summary")
    args = parser.parse_args(argv)
    suites = {q.id: q for name in ("offline-multihop", "long-horizon") for q in load_suite(name)}
    wanted = [part.strip() for part in args.ids.split(",") if part.strip()]
    unknown = [qid for qid in wanted if qid not in suites]
    if unknown:
        print(f"error: no such question: {', '.join(unknown)}", file=sys.stderr)
        return 2
    from agent.llm.select import select_llm  # the model loads only for a valid request
    from tools.defaults import default_tools
    llm = select_llm()
    tools = research.with_research(default_tools(), research.refusing_tool())
    def complete(messages, grammar):
        return llm.complete(messages, grammar=grammar)
    rows = []
    for qid in wanted:
        system = prompts.build_messages(suites[qid].question, Context(), tools.describe(),
                                        date.today().isoformat())[0].content
        rows.append(read_lists(suites[qid], complete, system))
        row = rows[-1]
        print(f"{qid}\tevidence {row['evidence']}\tcode {len(row['code'])}\tmodel {len(row['model'])}\t"
              f"settled {len(row['settled'])}\t{row['seconds']} s", flush=True)
    summary = {name: sum(row[f"{name}_count_right"] for row in rows) for name in ("code", "model", "settled")}
    print(f"lists with the evidence's count, of {len(rows)}: code {summary['code']}, model (checked) "
          f"{summary['model']}, settled {summary['settled']}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with args.out.open("w") as out:
            for row in rows:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
            out.write(json.dumps({"summary": summary, "questions": len(rows), **provenance.git_state()}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
