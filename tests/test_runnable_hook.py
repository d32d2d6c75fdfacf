"""`import factcheck` is light, and still gives every LangChain Runnable `.with_fact_check()`."""

from __future__ import annotations

import subprocess
import sys

import pytest

import factcheck


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    "code",
    [
        # factcheck first: the method is added when LangChain defines Runnable
        "import sys, factcheck\n"
        "assert 'langchain_core' not in sys.modules and 'spacy' not in sys.modules\n"
        "from langchain_core.runnables import RunnableLambda\n",
        # LangChain first: added at `import factcheck`
        "from langchain_core.runnables import RunnableLambda\nimport factcheck\n",
        # the module that defines Runnable, imported by its own name
        "import factcheck\nfrom langchain_core.runnables.base import RunnableLambda\n",
    ],
)
def test_with_fact_check_is_added_whatever_the_import_order(code: str) -> None:
    done = _python(
        code + "from factcheck.langchain import RunnableFactCheck\n"
        "wrapped = RunnableLambda(lambda x: 'ok').with_fact_check(max_retries=0)\n"
        "assert isinstance(wrapped, RunnableFactCheck), type(wrapped)\n"
        "assert wrapped.invoke('q') == 'ok'\n"
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("name", factcheck.__all__)
def test_public_names_load_on_first_use(name: str) -> None:
    assert name in dir(factcheck)
    assert getattr(factcheck, name) is not None


def test_submodules_are_reached_as_attributes() -> None:
    done = _python("import factcheck\nassert factcheck.langchain.FactCheckOptions and factcheck.eval.load_suite\n")
    assert done.returncode == 0, done.stderr


def test_unknown_names_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'FactCheckr'"):
        factcheck.FactCheckr  # noqa: B018
