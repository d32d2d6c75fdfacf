"""`--engine ray` and `audit_dataset`: Ray Data reads the records, one `FactChecker` per actor checks them."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from factcheck.audit.lines import LineResult, audit_line

if TYPE_CHECKING:
    import pyarrow
    import ray.data

    from factcheck.config import CheckerConfig

class EngineError(RuntimeError):
    """Ray is not installed, or could not be started or reached."""


_LINES_PER_BATCH = 64
"""Records handed to an actor at a time: small enough to spread a few thousand lines over the actors."""


class LineAuditor:
    """A Ray Data callable class: builds one `FactChecker` per actor, then audits batches of records."""

    def __init__(self, config: CheckerConfig | None = None, fmt: str = "auto", fix: bool = False) -> None:
        """Load the lexicons and pipelines once for this actor.

        Args:
            config: Checker settings.
            fmt: `auto`, `openai` or `langchain`.
            fix: Also compute the cleaned lines of `--fix`.
        """
        from factcheck.checker import FactChecker

        self.checker = FactChecker(config)
        self.fmt = fmt
        self.fix = fix

    def __call__(self, batch: pyarrow.Table) -> dict[str, list[Any]]:
        """Audit a batch of rows (`file`, `line`, `text`, `notes` as JSON).

        Args:
            batch: The rows.

        Returns:
            Columns `file`, `line` and `result` (the line's `LineResult` as JSON).
        """
        out: dict[str, list[Any]] = {"file": [], "line": [], "result": []}
        for row in batch.to_pylist():
            notes = json.loads(row.get("notes") or "[]")
            res = audit_line(row["text"], row["file"], row["line"], self.checker, self.fmt,
                             fix=self.fix and not notes, notes=notes)
            out["file"].append(res.file)
            out["line"].append(res.line)
            out["result"].append(json.dumps(
                {"records": res.records, "notes": res.notes, "skipped": res.skipped, "fixed": res.fixed,
                 "changes": res.changes}, ensure_ascii=False))
        return out


def _init(address: str | None) -> bool:
    """Start Ray locally, or connect to `address`; nothing when Ray is already up.

    Returns:
        True when this call started (or connected) Ray, so the caller shuts it down.

    Raises:
        EngineError: when Ray is not installed or cannot be started or reached.
    """
    try:
        import ray
        import ray.data
    except ImportError as err:
        raise EngineError(f"the ray engine needs Ray: pip install 'agent-factcheck[ray]' ({err})") from None

    logging.getLogger("ray.data").setLevel(logging.ERROR)
    ray.data.DataContext.get_current().enable_progress_bars = False
    if ray.is_initialized():
        return False
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    except (ConnectionError, RuntimeError, ValueError) as err:
        where = f" at {address}" if address else ""
        raise EngineError(f"cannot start or reach Ray{where}: {err}") from None
    return True


def _concurrency() -> int:
    """Actors to run: one per CPU of the cluster."""
    import ray

    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def audit_lines_ray(paths: Sequence[str], config: CheckerConfig | None, fmt: str, fix: bool,
                    address: str | None) -> Iterator[LineResult]:
    """The `--engine ray` audit of JSON Lines files, in input order.

    Args:
        paths: Readable input files, as named on the command line.
        config: Checker settings.
        fmt: `auto`, `openai` or `langchain`.
        fix: Also compute the cleaned lines.
        address: Ray cluster address, or None to start Ray locally.

    Yields:
        One result per non-blank line, ordered by file (as given) and line number.
    """
    started = _init(address)
    import ray
    import ray.data

    try:
        names = {os.path.abspath(p): p for p in paths}
        files = ray.data.read_binary_files(list(names), include_paths=True)
        # split and spread the lines before the actors start, so that they do not hold every CPU while
        # the read still waits for one
        lines = files.flat_map(_SplitLines(names)).repartition(_concurrency() * 4).materialize()
        checked = lines.map_batches(LineAuditor, fn_constructor_args=(config, fmt, fix),
                                    batch_size=_LINES_PER_BATCH, batch_format="pyarrow",
                                    compute=ray.data.ActorPoolStrategy(size=_concurrency()))
        rows = checked.take_all()
    finally:
        if started:
            ray.shutdown()
    order = {p: k for k, p in enumerate(paths)}
    rows.sort(key=lambda r: (order[r["file"]], r["line"]))
    for row in rows:
        data = json.loads(row["result"])
        yield LineResult(file=row["file"], line=row["line"], records=data["records"], notes=data["notes"],
                         skipped=data["skipped"], fixed=data["fixed"], changes=data["changes"])


class _SplitLines:
    """`flat_map`: a file's bytes -> one row per non-blank line, with its number and decoding notes."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = names
        """Absolute path -> the path as the user gave it."""

    def __call__(self, row: dict[str, Any]) -> list[dict[str, Any]]:
        from factcheck.audit.lines import split_lines

        path = self.names.get(row["path"]) or self.names.get(os.path.abspath(row["path"]), row["path"])
        return [{"file": path, "line": n, "text": text, "notes": json.dumps(notes, ensure_ascii=False)}
                for n, _raw, text, notes in split_lines(row["bytes"], path) if text.strip()]


def audit_dataset(ds: ray.data.Dataset, config: CheckerConfig | None = None, fmt: str = "auto",
                  concurrency: int | None = None) -> ray.data.Dataset:
    """Audit conversations already in a Ray dataset (read from JSON Lines, Parquet, or Spark via `from_spark`).

    Each row is one conversation: a `text` column holding its JSON Lines record (as
    `ray.data.read_text` gives), or the record's own columns (`messages`, optional `id`). An optional
    `line` column numbers the rows (the conversation's id when the record has none) and an optional
    `file` column names their source.

    Args:
        ds: The conversations.
        config: Checker settings.
        fmt: `auto`, `openai` or `langchain`.
        concurrency: Actors (one `FactChecker` each); default one per CPU of the cluster.

    Returns:
        A dataset with one row per assistant text turn: `conversation` (as text), `turn`, `ok`,
        `file`, `line` and `record` (the turn's JSON, as `factcheck audit --json` prints it), plus one
        row per line that could not be audited, with `turn` -1, `ok` False and its notes as `record`.
    """
    _init(None)
    import ray.data

    lines = ds.map(_AsLine()).materialize()  # as in `audit_lines_ray`: the rows are ready before the actors start
    checked = lines.map_batches(LineAuditor, fn_constructor_args=(config, fmt, False), batch_size=_LINES_PER_BATCH,
                                batch_format="pyarrow",
                                compute=ray.data.ActorPoolStrategy(size=concurrency or _concurrency()))
    return checked.flat_map(_turn_rows)


class _AsLine:
    """`map`: a dataset row -> the `file`, `line`, `text` row that `LineAuditor` reads."""

    def __call__(self, row: dict[str, Any]) -> dict[str, Any]:
        row = {k: _plain(v) for k, v in row.items()}
        file = str(row.pop("file", "") or "")
        line = int(row.pop("line", 0) or 0)
        text = row["text"] if isinstance(row.get("text"), str) else json.dumps(row, ensure_ascii=False)
        return {"file": file, "line": line, "text": text, "notes": "[]"}


def _plain(value: Any) -> Any:
    """Numpy arrays and scalars from a dataset row as lists and Python values."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _turn_rows(row: dict[str, Any]) -> list[dict[str, Any]]:
    """`flat_map`: a line's result -> one row per turn (or one row for a line that was skipped)."""
    data = json.loads(row["result"])
    if data["skipped"]:
        return [{"conversation": "", "turn": -1, "ok": False, "file": row["file"], "line": row["line"],
                 "record": json.dumps({"notes": data["notes"]}, ensure_ascii=False)}]
    rows = []
    for text in data["records"]:
        rec = json.loads(text)
        rows.append({"conversation": str(rec["conversation"]), "turn": rec["turn"], "ok": rec["ok"],
                     "file": row["file"], "line": row["line"], "record": text})
    return rows

