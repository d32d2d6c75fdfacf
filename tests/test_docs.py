"""Every python code block of the README and docs/*.md runs, in order, one namespace per file; each README block
also runs alone, and the README's figures agree with a fresh run of bench/readme_figures.py.

A block whose first line is `# sketch: ...` says so to the reader (its names are the reader's own)
and is only compiled; the README has none.
"""

from __future__ import annotations

import difflib
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
SKETCH = "# sketch:"


def blocks(page: Path) -> list[str]:
    return BLOCK.findall(page.read_text(encoding="utf-8"))


def test_the_readme_has_code_to_run_and_no_sketch():
    readme = blocks(ROOT / "README.md")
    assert len(readme) >= 3 and not any(code.startswith(SKETCH) for code in readme)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_code_blocks_run(page):
    namespace: dict = {"__name__": f"docs_{page.stem}"}
    for i, code in enumerate(blocks(page)):
        compiled = compile(code, f"{page.name}[block {i}]", "exec")
        if code.startswith(SKETCH):
            continue
        try:
            exec(compiled, namespace)
        except Exception as exc:  # name the block that failed
            raise AssertionError(f"{page.name} block {i} failed: {type(exc).__name__}: {exc}\n{code}") from exc


def test_readme_is_short_and_starts_with_the_two_setup_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 180
    first = re.search(r"```bash\n(.*?)```", text, re.DOTALL).group(1)
    commands = [line for line in first.splitlines() if not line.startswith("#")]
    assert commands == [
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e . "
        "&& factcheck eval --baseline seed-naive fuzzy",
        'python3 -m venv .venv && . .venv/bin/activate && pip install -e ".[test]" && python -m pytest -q',
    ]


@pytest.mark.parametrize("index", range(len(blocks(ROOT / "README.md"))))
def test_each_readme_block_runs_alone_in_a_fresh_interpreter(index):
    code = blocks(ROOT / "README.md")[index]
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"README block {index} fails alone:\n{code}\n{done.stderr[-2000:]}"


def test_the_readme_agrees_with_a_fresh_run_of_its_figures_script():
    spec = importlib.util.spec_from_file_location("readme_figures", ROOT / "bench" / "readme_figures.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.count("<!-- readme_figures: ") == len(script.PARTS)  # every part is in the README
    fresh = script.fresh(readme)
    diff = "".join(difflib.unified_diff(readme.splitlines(True), fresh.splitlines(True), "README.md", "fresh run"))
    assert fresh == readme, f"run `python bench/readme_figures.py --write`:\n{diff}"


def test_the_readme_installs_from_a_clone_and_says_what_the_tests_take():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pip install agent-factcheck" not in text and "pip install \"agent-factcheck" not in text
    assert "pip install -e ." in text and "pip wheel ." in text
    first = re.search(r"```bash\n(.*?)```", text, re.DOTALL).group(1).splitlines()
    before_tests = first[first.index(next(line for line in first if "pytest" in line)) - 1]
    assert before_tests.startswith("#") and "Ray" in before_tests and re.search(r"\d+ ?min", before_tests)
