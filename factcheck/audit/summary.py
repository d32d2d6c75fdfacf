"""The audit's summary (counts by fact kind and reason), as a text table and as an HTML page."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from factcheck.eval.html import _CSP, _CSS, _claim_html, _e, _highlight, _table  # the eval report's look
from factcheck.eval.tables import render_text
from factcheck.report import Report

_LINKED_KINDS = ("url", "identifier")


@dataclass
class Tally:
    """Counts over the per-turn JSON objects, one turn at a time (nothing else is kept)."""

    turns: int = 0
    """Assistant text turns checked."""
    flagged: int = 0
    """Turns with a flagged claim."""
    unchained: int = 0
    """Turns with a link or identifier and no tool result at all before them in their conversation."""
    kinds: Counter[str] = field(default_factory=Counter)
    """Flagged facts by kind."""
    reasons: Counter[str] = field(default_factory=Counter)
    """Flagged facts by reason code."""

    def add(self, rec: dict[str, Any]) -> None:
        """Count one turn.

        Args:
            rec: The turn's JSON object (see `turn_record`).
        """
        self.turns += 1
        self.flagged += not rec["ok"]
        facts = [f for c in rec["report"]["claims"] for f in c["facts"]]
        for fact in facts:
            if fact["verdict"] in ("contradicted", "unsupported") and not fact["uncertain"]:
                self.kinds[fact["kind"]] += 1
                self.reasons[fact["code"] or "-"] += 1
        if not rec["chained"] and any(f["kind"] in _LINKED_KINDS for f in facts):
            self.unchained += 1


def summarize(tally: Tally, conversations: int, skipped_lines: int, skipped_files: int, notes: int,
              changes: Counter[str] | None = None) -> dict[str, Any]:
    """The audit's summary.

    Args:
        tally: The counts over every turn.
        conversations: Lines read as conversations.
        skipped_lines: Lines that could not be audited.
        skipped_files: Files that could not be read.
        notes: How many notes were made.
        changes: With `--fix`, what was replaced.

    Returns:
        `conversations`, `turns`, `flagged_turns`, `skipped_lines`, `skipped_files`, `notes`,
        `flagged_by_kind` and `flagged_by_reason` (flagged facts), `unchained_turns` and, with `--fix`,
        `fixed`.
    """
    summary: dict[str, Any] = {
        "conversations": conversations,
        "turns": tally.turns,
        "flagged_turns": tally.flagged,
        "skipped_lines": skipped_lines,
        "skipped_files": skipped_files,
        "notes": notes,
        "flagged_by_kind": dict(sorted(tally.kinds.items())),
        "flagged_by_reason": dict(sorted(tally.reasons.items())),
        "unchained_turns": tally.unchained,
    }
    if changes is not None:
        summary["fixed"] = {k: changes.get(k, 0) for k in ("turns", "links", "identifiers")}
    return summary


def _rows(summary: dict[str, Any]) -> list[tuple[list[str], list[list[str]]]]:
    """The summary's tables: overview, flagged facts by kind, by reason."""
    overview = [
        ["conversations", str(summary["conversations"])],
        ["assistant text turns", str(summary["turns"])],
        ["flagged turns", str(summary["flagged_turns"])],
        ["turns with links/IDs and no tool chain at all", str(summary["unchained_turns"])],
        ["lines skipped (bad input)", str(summary["skipped_lines"])],
        ["files skipped (unreadable)", str(summary["skipped_files"])],
        ["notes", str(summary["notes"])],
    ]
    if "fixed" in summary:
        fixed = summary["fixed"]
        overview += [["fixed turns", str(fixed["turns"])], ["links removed", str(fixed["links"])],
                     ["identifiers removed", str(fixed["identifiers"])]]
    tables = [(["audit", "count"], overview)]
    for title, key in (("flagged facts by kind", "flagged_by_kind"), ("flagged facts by reason", "flagged_by_reason")):
        rows = [[name, str(n)] for name, n in summary[key].items()]
        if rows:
            tables.append(([title, "count"], rows))
    return tables


def summary_text(summary: dict[str, Any]) -> str:
    """The summary as fixed-width tables.

    Args:
        summary: The output of `summarize`.

    Returns:
        The tables, separated by blank lines.
    """
    return "\n\n".join(render_text(header, rows) for header, rows in _rows(summary))


def render_audit_html(summary: dict[str, Any], records: Sequence[dict[str, Any]], sources: Sequence[str],
                      notes: Sequence[str]) -> str:
    """The `--report` page: the summary tables, then every flagged turn with its claims and evidence.

    Args:
        summary: The output of `summarize`.
        records: The per-turn JSON objects of the flagged turns (others are skipped).
        sources: The input files.
        notes: The audit's notes about its input.

    Returns:
        A complete HTML document with no external resources and no scripts.
    """
    tables = "".join(f"<h2>{_e(header[0] if k else 'Summary')}</h2>" + _table(header, rows, "overview")
                     for k, (header, rows) in enumerate(_rows(summary)))
    blocks = []
    for rec in records:
        if rec["ok"]:
            continue
        report = Report.model_validate(rec["report"])
        claims = "".join(f'<li class="false-alarm">{_claim_html(c)}</li>' for c in report.flagged)
        blocks.append(
            f'<div class="case"><h3>{_e(rec["file"])}:{_e(rec["line"])} conversation {_e(rec["conversation"])}, '
            f'turn {_e(rec["turn"])}</h3>'
            + ("" if rec["chained"] else '<p class="muted">no tool result before this turn at all</p>')
            + f'<div class="answer">{_highlight(report.answer, [], report.flagged)}</div><ul>{claims}</ul></div>'
        )
    note_list = "".join(f"<li>{_e(n)}</li>" for n in notes)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>factcheck audit: {summary['turns']} turns</title><style>{_CSS}</style></head><body>"
        f"<h1>factcheck audit: {summary['conversations']} conversations, {summary['turns']} turns, "
        f"{summary['flagged_turns']} flagged</h1>"
        f"<p class=\"muted\">input: {_e(', '.join(sources))}</p>"
        + tables
        + f'<h2 id="flagged">Flagged turns ({summary["flagged_turns"]})</h2>'
        + '<p class="muted">Flagged claims are <span class="flag">outlined</span>.</p>'
        + ("".join(blocks) or "<p>none</p>")
        + f'<h2 id="notes">Notes on the input ({len(notes)})</h2>'
        + (f"<ul>{note_list}</ul>" if notes else "<p>none</p>")
        + "</body></html>\n"
    )
