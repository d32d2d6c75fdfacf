"""The grounding package's layout: every module imports first in a fresh interpreter, and stays small."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import factcheck.grounding

PACKAGE = Path(factcheck.grounding.__file__).parent
MODULES = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__")
MOST_LINES = 600
"""The project's module size (docs: STANDARDS, langchain-core's `runnables/retry.py` as the model)."""

_IMPORT_EACH_FIRST = """
import importlib, json, sys
failed = {}
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m == "factcheck" or m.startswith("factcheck.")]:
        del sys.modules[loaded]  # each module imported first, as in a fresh interpreter
    try:
        importlib.import_module("factcheck.grounding." + name)
    except ImportError as error:  # a circle shows as a partly initialised module
        failed[name] = str(error)
print(json.dumps(failed))
"""


def test_each_module_imports_first() -> None:
    """No import circles: each module, imported before any other factcheck module, loads."""
    assert {"matcher", "evidence", "number_checks", "walked"} <= set(MODULES)
    run = subprocess.run([sys.executable, "-c", _IMPORT_EACH_FIRST, *MODULES], capture_output=True, text=True,
                         check=True, cwd=PACKAGE.parent.parent)
    assert json.loads(run.stdout) == {}


@pytest.mark.parametrize("name", MODULES)
def test_module_is_small(name: str) -> None:
    lines = (PACKAGE / f"{name}.py").read_text(encoding="utf-8").count("\n")
    assert lines < MOST_LINES, f"grounding/{name}.py has {lines} lines"
