"""The layer rule, checked on the source: core/ is the floor; memory/ and tools/ stand on it alone; agent/ may
use everything; no package module imports the scripted test double except the benchmark that replays scripts."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "memory", "tools", "agent")
ALLOWED = {"core": {"core"}, "memory": {"core", "memory"}, "tools": {"core", "tools"},
           "agent": {"core", "memory", "tools", "agent"}}
TEST_DOUBLE = "agent.llm.replay"
MAY_IMPORT_TEST_DOUBLE = ("agent.bench",)  # long-recall replays scripted runs through the real loop


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


@pytest.mark.parametrize("path", modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_imports_point_down_the_layers(path):
    layer = path.relative_to(ROOT).parts[0]
    crossing = sorted(name for name in imported(path)
                      if name.split(".")[0] in PACKAGES and name.split(".")[0] not in ALLOWED[layer])
    assert not crossing, f"{module_name(path)} ({layer}) imports {crossing}"


@pytest.mark.parametrize("path", modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_nothing_imports_the_test_double(path):
    name = module_name(path)
    if name == TEST_DOUBLE or name.startswith(MAY_IMPORT_TEST_DOUBLE):
        return
    assert not any(imp == TEST_DOUBLE or imp.startswith(TEST_DOUBLE + ".") for imp in imported(path)), name


def test_the_rule_catches_a_crossing(tmp_path):
    offender = tmp_path / "offender.py"
    offender.write_text("def f():\n    from agent.schema import Step\n")
    assert "agent.schema" in imported(offender)
    assert len(modules()) > 30  # the scan sees the whole package
