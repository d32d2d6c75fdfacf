"""The eval tables as rows of cells, rendered as plain text (the HTML page reuses the rows)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

OVERVIEW: tuple[tuple[str, str, str, str], ...] = (
    ("answers", "precision", "answers", "precision"),
    ("", "recall", "answers", "recall"),
    ("", "f1", "answers", "f1"),
    ("", "false-alarm rate", "answers", "false_alarm_rate"),
    ("spans", "precision", "spans", "precision"),
    ("", "recall", "spans", "recall"),
    ("", "f1", "spans", "f1"),
    ("end to end", "hallucinated before", "end_to_end", "before"),
    ("", "hallucinated after", "end_to_end", "after"),
    ("", "faithful sent to retry", "end_to_end", "retry_rate"),
    ("latency ms", "p50", "latency_ms", "p50"),
    ("", "p95", "latency_ms", "p95"),
)
"""(section, label, block, key) of each overview row."""

BREAKDOWN: tuple[tuple[str, str, str | None], ...] = (
    ("cases", "cases", None),
    ("halluc", "hallucinated", None),
    ("ans P", "answers", "precision"),
    ("ans R", "answers", "recall"),
    ("ans F1", "answers", "f1"),
    ("false al", "answers", "false_alarm_rate"),
    ("span P", "spans", "precision"),
    ("span R", "spans", "recall"),
    ("span F1", "spans", "f1"),
    ("before", "end_to_end", "before"),
    ("after", "end_to_end", "after"),
    ("retry", "end_to_end", "retry_rate"),
    ("p50 ms", "latency_ms", "p50"),
)
"""(header, block, key) of each breakdown column; key `None` reads a top-level count."""


def fmt(value: Any) -> str:
    """Format a score for a table cell.

    Args:
        value: A float, an int or `None` (undefined, e.g. precision with no predictions).

    Returns:
        Three decimals for floats, the integer as is, `n/a` for `None`.
    """
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def systems_of(summary: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The systems of an eval summary: factcheck first, then each baseline.

    Args:
        summary: The output of `evaluate`.

    Returns:
        `(name, scores)` pairs.
    """
    return [("factcheck", summary), *summary.get("baselines", {}).items()]


def overview_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The side-by-side table of every system's overall scores.

    Args:
        summary: The output of `evaluate`.

    Returns:
        Header cells and rows of cells.
    """
    systems = systems_of(summary)
    header = ["", "", *(name for name, _ in systems)]
    rows = [[section, label, *(fmt(s[block][key]) for _, s in systems)]
            for section, label, block, key in OVERVIEW]
    return header, rows


def breakdown_rows(
    groups: dict[str, dict[str, Any]], title: str
) -> tuple[list[str], list[list[str]]]:
    """A table with one row per group (language or kind).

    Args:
        groups: Group name -> scores block, e.g. `summary["by_lang"]`.
        title: Header of the first column.

    Returns:
        Header cells and rows of cells.
    """
    header = [title, *(h for h, _, _ in BREAKDOWN)]
    rows = [[name, *(fmt(block[b] if k is None else block[b][k]) for _, b, k in BREAKDOWN)]
            for name, block in groups.items()]
    return header, rows


def render_text(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Lay out a table in fixed-width columns (first columns left, numbers right).

    Args:
        header: Header cells.
        rows: Rows of cells.

    Returns:
        The table, one line per row, without trailing spaces.
    """
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    numeric = [all(_numeric(r[i]) for r in rows) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [c.rjust(w) if num else c.ljust(w)
                 for c, w, num in zip(row, widths, numeric, strict=True)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _numeric(cell: str) -> bool:
    return cell == "n/a" or cell.replace(".", "", 1).isdigit()


def calibration_rows(calibration: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The calibration table: each bin of predicted confidence against the precision observed in it.

    Args:
        calibration: `summary["calibration"]` (see `factcheck.eval.calibrate.calibration_scores`).

    Returns:
        Header cells and rows of cells.
    """
    header = ["confidence", "flags", "mean conf", "precision"]
    rows = [[f"{b['low']:.1f}-{b['high']:.1f}", fmt(b["flags"]), fmt(b["confidence"]), fmt(b["precision"])]
            for b in calibration["bins"]]
    return header, rows


def threshold_rows(calibration: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Scores when only flags at or above each threshold count.

    Args:
        calibration: `summary["calibration"]`.

    Returns:
        Header cells and rows of cells.
    """
    header = ["min conf", "flags", "flag P", "span R", "ans P", "ans R", "false al"]
    keys = ("flags", "flag_precision", "span_recall", "answer_precision", "answer_recall", "false_alarm_rate")
    rows = [[f"{a['threshold']:.2f}", *(fmt(a[k]) for k in keys)] for a in calibration["at"]]
    return header, rows


def error_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """One row per `error` class: recall on its mistakes, false alarms on its rewrites or faithful cases.

    Args:
        summary: The output of `evaluate`, with `by_error`.

    Returns:
        Header cells and rows of cells.
    """
    header = ["error", "cases", "wrong", "ans R", "span R", "false al"]
    keys = ("cases", "hallucinated", "recall", "span_recall", "false_alarm_rate")
    rows = [[name, *(fmt(block[k]) for k in keys)] for name, block in summary["by_error"].items()]
    return header, rows


def difficulty_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Recall on easy mistakes (the wrong value is in the tool outputs) and hard ones (it is nowhere).

    Args:
        summary: The output of `evaluate`, with `by_difficulty`.

    Returns:
        Header cells and rows of cells.
    """
    header = ["mistakes", "cases", "ans R", "span R"]
    rows = [[name, *(fmt(block[k]) for k in ("hallucinated", "recall", "span_recall"))]
            for name, block in summary["by_difficulty"].items()]
    return header, rows


def text_report(summary: dict[str, Any], sources: Sequence[str]) -> str:
    """The whole eval result as text: overview, then factcheck by language and by kind.

    Args:
        summary: The output of `evaluate`.
        sources: Suite files the cases came from.

    Returns:
        The report, ending without a newline.
    """
    langs = ", ".join(f"{k} {v['cases']}" for k, v in summary["by_lang"].items())
    parts = [
        f"factcheck eval: {summary['cases']} cases ({langs}), "
        f"{summary['hallucinated']} hallucinated",
        f"suite: {', '.join(sources)}",
        "",
        render_text(*overview_rows(summary)),
        "",
        "factcheck by language:",
        render_text(*breakdown_rows(summary["by_lang"], "lang")),
        "",
        "factcheck by kind (a case counts under each of its kinds):",
        render_text(*breakdown_rows(summary["by_kind"], "kind")),
    ]
    if summary.get("by_error"):
        parts += ["", "factcheck by error class (recall on mistakes, false alarms on rewrites):",
                  render_text(*error_rows(summary))]
    if summary.get("by_difficulty"):
        parts += ["", "easy (wrong value in the tool outputs) vs hard (nowhere in them):",
                  render_text(*difficulty_rows(summary))]
    calibration = summary.get("calibration")
    if calibration and calibration["flags"]:
        parts += [
            "",
            f"calibration of {calibration['flags']} flagged claims (min_confidence "
            f"{summary['min_confidence']:.2f}; expected calibration error {fmt(calibration['ece'])}):",
            render_text(*calibration_rows(calibration)),
            "",
            "at other thresholds:",
            render_text(*threshold_rows(calibration)),
        ]
    return "\n".join(parts)
