"""Writes the notebooks in this folder (nbformat 4.5, no outputs) from their sources in notebooks/src/.

A source is a Python file in the "percent" format that Jupytext and VS Code read too:

    # %% [markdown]            a markdown cell: its lines are comments ("# text"; "#" alone is an empty line)
    # %% tags=["parameters"]   a code cell with tags (papermill's parameters cell)
    # %%                       a code cell
    # %matplotlib inline       a line magic, commented so the source stays valid Python

Edit a source, then run `python notebooks/build_notebooks.py`; the tests check that every notebook matches its
source. `--check` only says which notebooks are stale (exit 1).
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "src"
MARKER = re.compile(r"^# %%(?P<rest>.*)$")
MAGIC = re.compile(r"^# (%[A-Za-z].*)$")  # "# %matplotlib inline"; never "# %%", the cell marker
TAGS = re.compile(r"^tags=(\[.*\])$")


def sources() -> list[Path]:
    return sorted(SOURCES.glob("[0-9][0-9]_*.py"))


def notebook_path(source: Path) -> Path:
    return HERE / f"{source.stem}.ipynb"


def _trimmed(lines: list[str]) -> list[str]:
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def _markdown_line(line: str, where: str) -> str:
    if line == "#":
        return ""
    if line.startswith("# "):
        return line[2:]
    raise ValueError(f"{where}: a markdown cell's lines start with '# ' (got {line!r})")


def cells(source: Path) -> list[dict]:
    """The cells of one source file, in order."""
    blocks: list[tuple[str, list[str], list[str], int]] = []  # kind, tags, lines, line number of the marker
    for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
        marker = MARKER.match(line)
        if marker:
            rest = marker["rest"].strip()
            kind = "markdown" if rest == "[markdown]" else "code"
            tags: list[str] = []
            if kind == "code" and rest:
                found = TAGS.match(rest)
                if not found:
                    raise ValueError(f"{source.name}:{number}: unknown cell marker {line!r}")
                tags = json.loads(found.group(1))
            blocks.append((kind, tags, [], number))
        elif blocks:
            blocks[-1][2].append(line)
        elif line.strip():
            raise ValueError(f"{source.name}:{number}: text before the first '# %%' cell marker")
    made = []
    prefix = source.stem.split("_", 1)[1].replace("_", "-")
    for count, (kind, tags, lines, number) in enumerate(blocks):
        lines = _trimmed(lines)
        if not lines:
            raise ValueError(f"{source.name}:{number}: empty cell")
        if kind == "markdown":
            lines = [_markdown_line(line, f"{source.name}:{number}") for line in lines]
        else:
            lines = [MAGIC.sub(r"\1", line) for line in lines]
        text = "\n".join(lines)
        cell = {"cell_type": kind, "id": f"{prefix}-{count:02d}", "metadata": {"tags": tags} if tags else {},
                "source": text.splitlines(keepends=True)}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        made.append(cell)
    return made


def notebook(source: Path) -> dict:
    return {
        "cells": cells(source),
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                     "language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def render(source: Path) -> str:
    """The .ipynb text, as Jupyter writes it (sorted keys, one-space indent)."""
    return json.dumps(notebook(source), sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for source in sources():
        target, text = notebook_path(source), render(source)
        if target.is_file() and target.read_text(encoding="utf-8") == text:
            continue
        stale.append(target.name)
        if not check:
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target.relative_to(HERE.parent)}")
    if check and stale:
        print(f"stale: {', '.join(stale)}; run python notebooks/build_notebooks.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
