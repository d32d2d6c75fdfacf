"""The audit's summary (counts by fact kind and reason), as a text table and as an HTML page."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from factcheck.eval.tables import render_text
from factcheck.report import Report
from factcheck.report_html import claim_html, e, highlight, legend, page, table

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
    """The `--report` page: every flagged turn first (the user message and tool results before it, the flagged
    claims with reason and evidence, the answer marked), then the summary tables and the notes.

    Args:
        summary: The output of `summarize`.
        records: The per-turn JSON objects of the flagged turns (others are skipped).
        sources: The input files.
        notes: The audit's notes about its input.

    Returns:
        A complete HTML document with no external resources and no scripts.
    """
    tables = "".join(f"<h2>{e(header[0] if k else 'Summary')}</h2>" + table(header, rows, "overview")
                     for k, (header, rows) in enumerate(_rows(summary)))
    blocks = [_turn_html(rec) for rec in records if not rec["ok"]]
    note_list = "".join(f"<li>{e(n)}</li>" for n in notes)
    body = (
        f"<h1>factcheck audit: {summary['conversations']} conversations, {summary['turns']} turns, "
        f"{summary['flagged_turns']} flagged</h1>"
        f'<p class="muted">input: {e(", ".join(sources))}</p>' + legend(gold=False)
        + f'<h2 id="flagged">Flagged turns ({summary["flagged_turns"]})</h2>'
        + ("".join(blocks) or "<p>none</p>")
        + tables
        + f'<h2 id="notes">Notes on the input ({len(notes)})</h2>'
        + (f"<ul>{note_list}</ul>" if notes else "<p>none</p>")
    )
    return page(f"factcheck audit: {summary['turns']} turns", body)


def _turn_html(rec: dict[str, Any]) -> str:
    """One flagged turn: where it is, what the user asked and the tools gave, then the flags and the answer."""
    report = Report.model_validate(rec["report"])
    before = rec.get("before") or {}
    user = before.get("user")
    results = "".join(
        f"<li><b>{e(t['name'] or 'tool')}</b>({e(json.dumps(t.get('args') or {}, ensure_ascii=False))})"
        f"{' (error)' if t['status'] == 'error' else ''}: <pre>{e(t['output'])}</pre></li>"
        for t in before.get("tool_results", []))
    asked = (f'<div class="before"><p><b>user:</b> {e(user)}</p>' if user is not None
             else '<div class="before"><p class="muted">no user message before this turn</p>')
    asked += (f"<p><b>tool calls of this turn:</b></p><ul>{results}</ul></div>" if results
              else '<p class="muted">no tool result in this turn'
              + ("" if rec["chained"] else ", nor before it") + "</p></div>")
    claims = "".join(f'<div class="flagged-claim">{claim_html(c)}</div>' for c in report.flagged)
    return (f'<div class="case"><h3>{e(rec["file"])}:{e(rec["line"])} conversation {e(rec["conversation"])}, '
            f'turn {e(rec["turn"])}</h3>{asked}{claims}'
            f'<p><b>answer:</b></p><div class="answer">{highlight(report.answer, [], report.flagged)}</div></div>')
