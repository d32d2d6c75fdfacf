"""`.with_fact_check()` on every LangChain `Runnable`, added when LangChain defines `Runnable`."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importlib.abc import Loader
    from importlib.machinery import ModuleSpec

RUNNABLE_MODULE = "langchain_core.runnables.base"
"""The module that defines `Runnable`."""


def with_fact_check(self: Any, **options: Any) -> Any:
    """Check this runnable's final answers against its tool runs (see `factcheck.with_fact_check`)."""
    from factcheck.langchain.wrapper import with_fact_check as wrap

    return wrap(self, **options)


def add_method(module: ModuleType) -> None:
    """Give the module's `Runnable` a `with_fact_check` method, unless it has one."""
    runnable = getattr(module, "Runnable", None)
    if runnable is not None and getattr(runnable, "with_fact_check", None) is None:
        runnable.with_fact_check = with_fact_check


class _AddAfterLoading:
    """A loader that runs LangChain's own, then adds the method (plain classes: `importlib.abc` is slow to import)."""

    def __init__(self, loader: Loader) -> None:
        self.loader = loader

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        add_method(module)


class _RunnableFinder:
    """Finds `RUNNABLE_MODULE` with the other finders, and wraps its loader (once)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != RUNNABLE_MODULE:
            return None
        uninstall()
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            spec.loader = _AddAfterLoading(spec.loader)
        return spec


def install() -> None:
    """Add the method now when LangChain is loaded, else when it loads (idempotent)."""
    module = sys.modules.get(RUNNABLE_MODULE)
    if module is not None:
        add_method(module)
    elif not any(isinstance(f, _RunnableFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _RunnableFinder())


def uninstall() -> None:
    """Stop watching for LangChain's import."""
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _RunnableFinder)]
