"""Every python code block of the README and docs/*.md runs, in order, one namespace per file.

A block whose first line is `# sketch: ...` says so to the reader (its names are the reader's own)
and is only compiled; the README has none.
"""

from __future__ import annotations

import re
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
    assert len(readme) >= 5 and not any(code.startswith(SKETCH) for code in readme)


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
