"""The layer rule, checked on the source: core/ is the floor; memory/ and tools/ stand on it alone; agent/ (the
agent itself) stands on those; ponder/ (the application: CLI, bench, trace page, plots) may use everything and
nothing imports it; no package module imports the scripted test double except the benchmarks that replay scripts."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "memory", "tools", "agent", "ponder")
ALLOWED = {"core": {"core"}, "memory": {"core", "memory"}, "tools": {"core", "tools"},
           "agent": {"core", "memory", "tools", "agent"}, "ponder": {"core", "memory", "tools", "agent", "ponder"}}
TEST_DOUBLE = "agent.llm.replay"
MAY_IMPORT_TEST_DOUBLE = ("ponder.bench",)  # long-recall and the speed benchmarks replay scripted runs


def modules() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


def imported(path: Path) -> set[str]:
    """Every module an import statement names, at any depth (function-level imports count too)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def crossings(path: Path, layer: str) -> list[str]:
    """The package modules `path` imports that its layer may not."""
    return sorted(name for name in imported(path)
                  if name.split(".")[0] in PACKAGES and name.split(".")[0] not in ALLOWED[layer])


@pytest.mark.parametrize("path", modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_imports_point_down_the_layers(path):
    layer = path.relative_to(ROOT).parts[0]
    assert not crossings(path, layer), f"{module_name(path)} ({layer}) imports {crossings(path, layer)}"


@pytest.mark.parametrize("path", modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_nothing_imports_the_test_double(path):
    name = module_name(path)
    if name == TEST_DOUBLE or name.startswith(MAY_IMPORT_TEST_DOUBLE):
        return
    assert not any(imp == TEST_DOUBLE or imp.startswith(TEST_DOUBLE + ".") for imp in imported(path)), name


@pytest.mark.parametrize("path", modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_package_module_imports_the_tests(path):
    """What a benchmark shares with the tests (synthetic steps, query tables) lives in the package, not in tests/:
    an installed ponder has no tests/ to import."""
    assert not [name for name in imported(path) if name.split(".")[0] == "tests"], module_name(path)


@pytest.mark.parametrize("layer, source, crossing", [
    ("agent", "def f():\n    from ponder.cli import run\n", ["ponder.cli", "ponder.cli.run"]),
    ("memory", "import agent.loop\n", ["agent.loop"]),
    ("tools", "from memory.store import MemoryStore\n", ["memory.store", "memory.store.MemoryStore"]),
    ("core", "from tools import base\n", ["tools", "tools.base"]),
    ("ponder", "from agent.loop import Agent\nfrom memory import store\n", []),
])
def test_the_rule_rejects_a_crossing(tmp_path, layer, source, crossing):
    offender = tmp_path / "offender.py"
    offender.write_text(source)
    assert crossings(offender, layer) == crossing


def test_the_scan_sees_every_layer():
    assert {path.relative_to(ROOT).parts[0] for path in modules()} == set(PACKAGES)
    assert len(modules()) > 30


def import_graph(paths: list[Path], root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the package modules it imports (at any depth, type-checking imports included)."""
    names = {".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): p for p in paths}
    return {name: {imp for imp in imported(path) if imp in names and imp != name} for name, path in names.items()}


def mutual_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted((a, b) for a, targets in graph.items() for b in targets if a < b and a in graph.get(b, ()))


def test_no_two_files_import_each_other():
    assert mutual_imports(import_graph(modules())) == []


def test_the_rule_catches_two_files_that_import_each_other(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("from pkg.b import thing\n")
    (tmp_path / "pkg" / "b.py").write_text("def f():\n    from pkg import a\n    import pkg.a\n")
    graph = import_graph(sorted((tmp_path / "pkg").glob("*.py")), root=tmp_path)
    assert mutual_imports(graph) == [("pkg.a", "pkg.b")]


def test_importing_the_packages_changes_no_process_state():
    """No module sets a logger's level, an environment variable or loads BM25 just by being imported: that is
    the application's business (the CLI), when and if it needs them."""
    import subprocess
    import sys
    probe = ("import logging, os, sys\n"
             "env = dict(os.environ)\n"
             "levels = {n: logging.getLogger(n).level for n in ('bm25s', 'chromadb', 'httpx', '')}\n"
             f"import {', '.join(m for m in map(module_name, modules()) if not m.endswith('__main__'))}\n"
             "assert dict(os.environ) == env, 'the environment changed'\n"
             "assert {n: logging.getLogger(n).level for n in levels} == levels, 'a logger level changed'\n"
             "assert 'bm25s' not in sys.modules, 'bm25s was imported'\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


def test_the_loop_reads_in_one_screen():
    """agent/loop.py stays short: planning, research, checks and memory attach at named points, not in its body."""
    source = (ROOT / "agent" / "loop.py").read_text(encoding="utf-8")
    assert len(source.splitlines()) <= 250
    long = [(node.name, node.end_lineno - node.lineno + 1) for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno + 1 > 40]
    assert long == []
