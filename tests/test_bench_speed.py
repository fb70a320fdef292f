"""`ponder bench --speed NAME` and the speed benchmarks of ponder/bench/speed/: they print figures and are not
timed here; these tests check that each runs as a command and says what it measured."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from ponder.bench import speed
from ponder.bench.speed import loop
from ponder.cli import main
from tests.cli_helpers import RUN_TIMEOUT, ROOT, ponder_command


def _run(command: list[str], tmp_path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PONDER_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    return subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=RUN_TIMEOUT)


def test_ponder_bench_speed_loop_prints_its_figures(tmp_path):
    done = _run(ponder_command("bench", "--speed", "loop"), tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "201 steps, stop=final_answer"    # 200 calculator steps by default, then the Final
    assert re.fullmatch(r"loop overhead per step, first 20 steps: median \d+\.\d\d ms", lines[1])
    assert re.fullmatch(r"loop overhead per step, steps 20-200: median \d+\.\d\d ms, p95 \d+\.\d\d ms "
                        r"\(full_history prompt grows each step\)", lines[2])


def test_the_loop_benchmark_takes_a_step_count(capsys):
    assert loop.main(["--steps", "30"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("31 steps, stop=final_answer\n") and "steps 20-30: median" in out
    assert loop.main(["--steps", "5"]) == 0     # too few steps for a second figure: only the first is printed
    assert "steps 20-" not in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        loop.main(["--steps", "0"])
    assert exit_.value.code == 2


@pytest.mark.parametrize("name", speed.NAMES)
def test_each_speed_benchmark_is_a_module_with_its_options(name, tmp_path):
    done = _run([sys.executable, "-m", f"ponder.bench.speed.{name}", "--help"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: python -m ponder.bench.speed.{name}")


def test_an_unknown_speed_benchmark_exits_2_naming_the_choices(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "--speed", "warp"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument --speed: invalid choice: 'warp' (choose from" in err   # Python 3.12 quotes the choices
    assert all(name in err.split("choose from", 1)[1] for name in speed.NAMES)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("args, message", [
    (["--suite", "short-tasks"], "argument --suite: not allowed with argument --speed"),
    (["--strategies", "full"], "--speed runs loop with its own defaults; it takes no --strategies"),
    (["--resume", "somewhere", "--max-steps", "3"], "it takes no --max-steps, --resume"),
])
def test_speed_refuses_the_options_of_a_question_bench(args, message, capsys):
    try:
        code = main(["bench", "--speed", "loop", *args])
    except SystemExit as exit_:     # argparse's own refusal
        code = exit_.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
