"""Load and validate fact-check suites in the case format (see shared/case-format.md)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

Lang = Literal["zh", "en", "mixed"]
Kind = Literal["status_flip", "number", "identifier", "url", "unbacked_action", "entity", "other"]
KINDS: tuple[str, ...] = Kind.__args__
"""Every kind a case may name, in the order of the format."""
LANGS: tuple[str, ...] = Lang.__args__
"""Every answer language a case may name."""

BUNDLED_SUITE = "suite.jsonl"
"""File name of the suite shipped inside `factcheck.eval`."""
BUNDLED_SUITES = {
    "bundled": BUNDLED_SUITE,
    "heldout": "heldout.jsonl",
    "real-fit": "real-fit.jsonl.gz",
    "real-heldout": "real-heldout.jsonl.gz",
    "mutation-fit": "mutation-fit.jsonl.gz",
    "mutation-heldout": "mutation-heldout.jsonl.gz",
}
"""Name -> file of each suite shipped inside `factcheck.eval`; a suite path that is no file may name one.

`heldout` was written after the checker in blind batches, by people who had not read its code;
`real-fit` and `real-heldout` are real agents' answers labelled by hand, split by conversation: the
calibration is fitted on `real-fit` and never sees `real-heldout` (see docs/calibration.md); `mutation-fit` and
`mutation-heldout` are `factcheck mutate` of real faithful answers, split the same way (see docs/mutation.md)."""


class SuiteError(ValueError):
    """A suite file could not be read or a case breaks the format."""


class ToolCall(BaseModel):
    """One tool call that really ran during the turn."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: str = Field(min_length=1)
    """Tool name."""
    args: dict[str, Any]
    """Arguments the tool was called with."""
    output: Any
    """What the tool returned: a string, object, array or null; the error text on `error`."""
    status: Literal["ok", "error"]
    """`ok` when the call completed, `error` when it raised."""

    @field_validator("output")
    @classmethod
    def _output_shape(cls, output: Any) -> Any:
        if output is not None and not isinstance(output, (str, dict, list)):
            raise ValueError(
                f"must be a string, object, array or null, not {type(output).__name__}"
            )
        return output


class Case(BaseModel):
    """One agent turn: question, tool outputs, answer and its gold hallucinated spans."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    id: str = Field(min_length=1)
    """Unique within the suite."""
    lang: Lang
    """Language of the answer."""
    domain: str = Field(min_length=1)
    """Business area, e.g. `refund`, `shipping`, `publish`."""
    question: str
    """The user's message."""
    tool_calls: list[ToolCall]
    """Every tool call that really ran in this turn, in order."""
    context: list[str] = Field(default_factory=list)
    """Other text the answer may rely on (earlier messages, system prompt, policy)."""
    answer: str
    """The agent's final answer."""
    hallucinated_spans: list[str]
    """Exact substrings of `answer` the tool outputs contradict or do not support."""
    kinds: list[Kind] = Field(default_factory=list)
    """What went wrong."""
    retry_answer: str | None = None
    """What the agent answers after the correction message."""
    retry_hallucinated_spans: list[str] | None = None
    """Gold spans of `retry_answer`; absent means the retry answer is faithful."""
    error: str | None = Field(default=None, min_length=1)
    """The class of mistake (`status_flip`, `per_unit_as_total`, ...) or, on a faithful case, of the
    meaning-preserving rewrite (`reorder`, ...); `eval` reports recall and false alarms per value."""
    in_outputs: bool | None = None
    """Not in the case format: the one extra key this loader accepts, written by `factcheck mutate`. True when
    the wrong value occurs somewhere in the tool outputs (an easy mistake to confuse: another record's price),
    False when it occurs nowhere (a changed digit); `eval` reports recall for both."""
    note: str | None = None
    """Free text for humans."""
    source: str | None = None
    """Where a case taken from elsewhere comes from (`repo@commit:path`); absent for cases written here."""
    license: str | None = None
    """The license of a case taken from elsewhere (see NOTICE)."""

    @field_validator("hallucinated_spans", "retry_hallucinated_spans")
    @classmethod
    def _spans_not_empty(cls, spans: list[str] | None) -> list[str] | None:
        for i, span in enumerate(spans or []):
            if not span.strip():
                raise ValueError(f"span [{i}] is empty or blank")
        return spans

    @model_validator(mode="after")
    def _spans_occur(self) -> Case:
        for i, span in enumerate(self.hallucinated_spans):
            if span not in self.answer:
                raise ValueError(f"hallucinated_spans[{i}] {span!r} does not occur in answer")
        if self.retry_hallucinated_spans is not None:
            if self.retry_answer is None:
                raise ValueError("retry_hallucinated_spans given without retry_answer")
            for i, span in enumerate(self.retry_hallucinated_spans):
                if span not in self.retry_answer:
                    raise ValueError(
                        f"retry_hallucinated_spans[{i}] {span!r} does not occur in retry_answer"
                    )
        return self

    @property
    def hallucinated(self) -> bool:
        """True when the gold says the answer has at least one hallucinated span."""
        return bool(self.hallucinated_spans)

    @property
    def retry_spans(self) -> list[str]:
        """Gold spans of the retry answer (empty when absent)."""
        return list(self.retry_hallucinated_spans or [])

    def checker_context(self) -> list[str]:
        """The text besides tool outputs that backs the answer: the question, then `context`.

        Returns:
            The user's message followed by the case's context strings.
        """
        return [self.question, *self.context]

    def tool_call_dicts(self) -> list[dict[str, Any]]:
        """The tool calls as plain mappings shaped like the case format.

        Returns:
            One dict per tool call with `name`, `args`, `output` and `status`.
        """
        return [tc.model_dump() for tc in self.tool_calls]


def span_ranges(text: str, spans: Iterable[str]) -> list[tuple[int, int]]:
    """Character ranges of every occurrence of every span in `text`.

    Args:
        text: The answer the spans were marked in.
        spans: Gold span strings.

    Returns:
        Sorted, de-duplicated `(start, end)` ranges; overlapping occurrences are kept.
    """
    ranges: set[tuple[int, int]] = set()
    for span in spans:
        if not span:
            continue
        at = text.find(span)
        while at != -1:
            ranges.add((at, at + len(span)))
            at = text.find(span, at + 1)
    return sorted(ranges)


def _format_validation_error(err: ValidationError) -> str:
    parts = []
    for e in err.errors():
        loc = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in e["loc"]).lstrip(".")
        msg = e["msg"].removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(parts)


def parse_case(obj: Any, where: str = "<case>") -> Case:
    """Validate one decoded JSON object as a case.

    Args:
        obj: The decoded JSON value.
        where: Location used in the error message (`file:line`).

    Returns:
        The validated case.

    Raises:
        SuiteError: naming `where` (and the case id when known) and every problem found.
    """
    if not isinstance(obj, dict):
        raise SuiteError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    try:
        return Case.model_validate(obj)
    except ValidationError as err:
        case_id = obj.get("id")
        label = f" (case {case_id!r})" if isinstance(case_id, str) else ""
        raise SuiteError(f"{where}{label}: {_format_validation_error(err)}") from None


def _suite_files(path: Path) -> list[Path]:
    if not path.exists() and str(path) in BUNDLED_SUITES:
        return [bundled_suite_path(str(path))]
    if path.is_dir():
        files = sorted(p for p in [*path.glob("*.jsonl"), *path.glob("*.jsonl.gz")] if p.is_file())
        if not files:
            raise SuiteError(f"{path}: directory holds no .jsonl files")
        return files
    if not path.is_file():
        raise SuiteError(f"{path}: no such suite file or directory, nor a shipped suite "
                         f"(shipped: {', '.join(BUNDLED_SUITES)})")
    return [path]


def load_suite_file(path: Path) -> list[Case]:
    """Read one JSONL suite file.

    Args:
        path: The file (`.gz`: gzip-compressed); blank lines are skipped.

    Returns:
        The cases in file order.

    Raises:
        SuiteError: for a file that cannot be read or decoded, a line that is not JSON,
            or a case that breaks the format; the message names the file and line.
    """
    try:
        if path.suffix == ".gz":
            text = gzip.decompress(path.read_bytes()).decode("utf-8-sig")
        else:
            text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError, EOFError) as err:
        raise SuiteError(f"{path}: cannot read suite: {err}") from None
    cases = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            raise SuiteError(f"{where}: invalid JSON: {err.msg} (column {err.colno})") from None
        cases.append(parse_case(obj, where))
    return cases


def load_suite(paths: Iterable[str | Path] | None = None) -> list[Case]:
    """Load cases from suite files or directories of `.jsonl` files, in the order given.

    Args:
        paths: Files or directories; `None` loads the bundled suite.

    Returns:
        Every case, in order.

    Raises:
        SuiteError: for an unreadable or malformed file, an empty suite, or an id used twice.
    """
    files: list[Path] = []
    for p in [bundled_suite_path()] if paths is None else paths:
        files.extend(_suite_files(Path(p)))
    cases: list[Case] = []
    seen: dict[str, Path] = {}
    for file in files:
        for case in load_suite_file(file):
            if case.id in seen:
                raise SuiteError(f"{file}: case id {case.id!r} already used in {seen[case.id]}")
            seen[case.id] = file
            cases.append(case)
    if not cases:
        raise SuiteError(f"no cases in {', '.join(str(f) for f in files)}")
    return cases


def bundled_suite_path(name: str = "bundled") -> Path:
    """Path of a suite shipped with the package.

    Args:
        name: `bundled` (the 200-case suite), `heldout`, `real-fit`, `real-heldout`, `mutation-fit` or
            `mutation-heldout` (see `BUNDLED_SUITES`).

    Returns:
        The path of the suite file inside `factcheck/eval`.

    Raises:
        SuiteError: for an unknown name, or when the package was built without that suite.
    """
    if name not in BUNDLED_SUITES:
        raise SuiteError(f"no bundled suite {name!r}; known: {', '.join(BUNDLED_SUITES)}")
    path = Path(str(resources.files("factcheck.eval").joinpath(BUNDLED_SUITES[name])))
    if not path.is_file():
        raise SuiteError(f"the bundled suite {path} is missing; pass --suite PATH")
    return path
