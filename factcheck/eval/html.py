"""The `eval --report out.html` page: what was missed and what was flagged wrongly first, then the figures."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from factcheck.eval.scoring import CaseResult, match_spans, overlaps
from factcheck.eval.tables import BREAKDOWN, breakdown_rows, difficulty_rows, error_rows, overview_rows
from factcheck.report import Claim
from factcheck.report_html import claim_html, e, highlight, legend, page, table

COLUMNS: dict[str, str] = {
    "cases": "cases in the group",
    "halluc": "cases whose answer holds a hallucination (gold)",
    "ans P": "answer precision: of the answers flagged, the share that hold a hallucination",
    "ans R": "answer recall: of the answers that hold a hallucination, the share flagged",
    "ans F1": "harmonic mean of answer precision and recall",
    "false al": "false-alarm rate: of the faithful answers, the share flagged",
    "span P": "span precision: of the flagged claims, the share that overlap a gold span",
    "span R": "span recall: of the gold spans, the share some flagged claim overlaps",
    "span F1": "harmonic mean of span precision and recall",
    "before": "share of answers hallucinated before the retry",
    "after": "share still hallucinated after the retry and the downgrade",
    "retry": "share of faithful answers sent to a retry",
    "p50 ms": "median time of one check, in milliseconds",
}
"""What each column of the figure tables means (the page's glossary)."""

Section = Callable[[dict[str, Any], Sequence[CaseResult]], str]
"""A figure section: `(summary, results) -> HTML` with its own `<h2>`, or "" when it has nothing to show."""


def _case_card(r: CaseResult, items: str) -> str:
    """One case: the items (claim, reason, evidence) first, then the answer marked, the question and the tools."""
    c = r.case
    gold = [(s, t) for s, t, _ in match_spans(c, r.report).gold]
    kinds = ", ".join(c.kinds) or ("faithful" if not c.hallucinated else "unlabelled")
    tools = json.dumps([tc.model_dump() for tc in c.tool_calls], ensure_ascii=False, indent=1)
    ctx = "".join(f"<li>{e(x)}</li>" for x in c.context)
    return (f'<div class="case"><h3 id="{e(c.id)}">{e(c.id)} <span class="muted">({e(c.lang)}, {e(c.domain)}, '
            f"{e(kinds)})</span></h3>{items}"
            f'<div class="answer">{highlight(c.answer, gold, r.report.flagged, r.report.uncertain)}</div>'
            f"<p><b>question:</b> {e(c.question)}</p>"
            + (f"<p><b>context:</b></p><ul>{ctx}</ul>" if ctx else "")
            + f"<details><summary>{len(c.tool_calls)} tool call(s)</summary><pre>{e(tools)}</pre></details></div>")


def _missed(r: CaseResult) -> tuple[int, str]:
    """The gold spans of a case no flag caught, each claim that covers them shown once."""
    missed = [(s, t) for s, t, caught in match_spans(r.case, r.report).gold if not caught]
    if not missed:
        return 0, ""
    covering: dict[int, tuple[Claim, list[tuple[int, int]]]] = {}
    alone = []
    for s, t in missed:
        claims = [c for c in r.report.claims if overlaps(c.start, c.end, s, t)]
        for c in claims:
            covering.setdefault(c.start, (c, []))[1].append((s, t))
        if not claims:
            alone.append((s, t))
    parts = []
    for claim, spans in covering.values():
        marks = ", ".join(f'<mark class="gold missed-span">{e(r.case.answer[s:t])}</mark>' for s, t in spans)
        parts.append(f"<p>missed: {marks}</p>{claim_html(claim, 'missed')}")
    for s, t in alone:
        parts.append(f'<p>missed: <mark class="gold missed-span">{e(r.case.answer[s:t])}</mark> '
                     '<span class="muted">(no claim of the report covers it)</span></p>')
    return len(missed), "".join(parts)


def _wrong_flags(r: CaseResult) -> tuple[int, str]:
    """The flagged claims of a case that overlap no gold span."""
    wrong = [c for c, right in match_spans(r.case, r.report).flagged if not right]
    return len(wrong), "".join(f'<div class="false-alarm">{claim_html(c)}</div>' for c in wrong)


def _held(r: CaseResult) -> tuple[int, str]:
    """Uncertain claims that hold no gold span (those that do are shown with the misses)."""
    gold = [(s, t) for s, t, _ in match_spans(r.case, r.report).gold]
    held = [c for c in r.report.uncertain if not any(overlaps(c.start, c.end, s, t) for s, t in gold)]
    return len(held), "".join(f'<div class="uncertain-claim">{claim_html(c, "held")}</div>' for c in held)


def _cases_section(results: Sequence[CaseResult], items_of: Callable[[CaseResult], tuple[int, str]]
                   ) -> tuple[int, int, str]:
    """Every case with items: `(items, cases, html)`."""
    items = cases = 0
    cards = []
    for r in results:
        n, body = items_of(r)
        if n:
            items, cases = items + n, cases + 1
            cards.append(_case_card(r, body))
    return items, cases, "".join(cards)


def _plural(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _count(n: int, what: str, cases: int) -> str:
    return f"{_plural(n, what)} in {_plural(cases, 'case')}"


def overview_section(summary: dict[str, Any], results: Sequence[CaseResult]) -> str:
    """Every system's overall scores."""
    return "<h2>Overview</h2>" + table(*overview_rows(summary), "overview")


def by_lang_section(summary: dict[str, Any], results: Sequence[CaseResult]) -> str:
    """factcheck's scores per answer language."""
    return "<h2>factcheck by language</h2>" + table(*breakdown_rows(summary["by_lang"], "lang"), "by-lang")


def by_kind_section(summary: dict[str, Any], results: Sequence[CaseResult]) -> str:
    """factcheck's scores per kind of hallucination."""
    return ("<h2>factcheck by kind</h2><p class=\"muted\">a case counts under each of its kinds</p>"
            + table(*breakdown_rows(summary["by_kind"], "kind"), "by-kind"))


def error_classes_section(summary: dict[str, Any], results: Sequence[CaseResult]) -> str:
    """Recall per mistake class and false alarms per meaning-preserving rewrite (the cases' `error`), and easy
    vs hard mistakes; empty when no case has an `error`."""
    if not summary.get("by_error"):
        return ""
    parts = ['<h2 id="by-error">factcheck by error class</h2>'
             '<p class="muted">Recall on each mistake class, false alarms on each meaning-preserving rewrite '
             "(<code>error</code> of the cases; see docs/mutation.md).</p>",
             table(*error_rows(summary), "by-error")]
    if summary.get("by_difficulty"):
        parts += ['<p class="muted">Easy: the wrong value occurs in the tool outputs; hard: it occurs nowhere.</p>',
                  table(*difficulty_rows(summary), "by-difficulty")]
    return "".join(parts)


def glossary_section(summary: dict[str, Any], results: Sequence[CaseResult]) -> str:
    """What the table columns mean."""
    rows = "".join(f"<dt>{e(h)}</dt><dd>{e(COLUMNS.get(h, ''))}</dd>" for h, _, _ in BREAKDOWN)
    return f'<h2 id="columns">Columns</h2><dl class="legend">{rows}</dl>'


FIGURE_SECTIONS: list[Section] = [overview_section, by_lang_section, by_kind_section, error_classes_section]
"""The figures after the cases, in order. A new breakdown (per error class, ...) is one more `Section` here."""


def render_html(summary: dict[str, Any], results: Sequence[CaseResult], sources: Sequence[str]) -> str:
    """The whole report page: misses, wrong flags and held-back flags with claim, reason and evidence first, then
    the figures, then what the columns mean.

    Args:
        summary: The output of `evaluate`.
        results: factcheck's per-case results.
        sources: Suite files the cases came from.

    Returns:
        A complete HTML document with no external resources and no scripts.
    """
    n_miss, miss_cases, misses = _cases_section(results, _missed)
    n_wrong, wrong_cases, wrong = _cases_section(results, _wrong_flags)
    n_held, held_cases, held = _cases_section(results, _held)
    lead = (f"Missed {_count(n_miss, 'hallucinated span', miss_cases)}; flagged wrongly "
            f"{_count(n_wrong, 'claim', wrong_cases)}; held back as uncertain {_count(n_held, 'claim', held_cases)}.")
    body = (
        f"<h1>factcheck eval: {_plural(summary['cases'], 'case')}, {summary['hallucinated']} hallucinated</h1>"
        f'<p class="muted">suite: {e(", ".join(sources))}</p><p class="lead">{e(lead)}</p>' + legend()
        + f'<h2 id="misses">Missed: {_count(n_miss, "span", miss_cases)}</h2>'
        + '<p class="muted">Hallucinations no flagged claim overlaps: the claim that holds each, what factcheck '
        "read it as, and the evidence it compared.</p>" + (misses or "<p>none</p>")
        + f'<h2 id="false-alarms">Flagged wrongly: {_count(n_wrong, "claim", wrong_cases)}</h2>'
        + '<p class="muted">Flagged claims that overlap no gold span, with the reason and the evidence.</p>'
        + (wrong or "<p>none</p>")
        + f'<h2 id="uncertain">Held back as uncertain: {_count(n_held, "claim", held_cases)}</h2>'
        + '<p class="muted">Flags below the confidence threshold on text that holds no hallucination: false alarms '
        "the threshold avoided (those on a hallucination are under Missed).</p>" + (held or "<p>none</p>")
        + '<h2 id="figures">Figures</h2>'
        + "".join(section(summary, results) for section in FIGURE_SECTIONS)
        + glossary_section(summary, results)
    )
    return page(f"factcheck eval: {_plural(summary['cases'], 'case')}", body)
