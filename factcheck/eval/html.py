"""The `--report out.html` page: tables, every miss and false alarm; escaped, self-contained."""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from typing import Any

from factcheck.eval.scoring import CaseResult, match_spans, overlaps
from factcheck.eval.tables import breakdown_rows, difficulty_rows, error_rows, overview_rows
from factcheck.report import Claim

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC",sans-serif;margin:2rem;
color:#1d1d1f;max-width:72rem}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2.5rem;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5rem 0 1rem}
th,td{border:1px solid #d0d0d0;padding:.25rem .5rem;text-align:right;vertical-align:top}
th:first-child,td:first-child{text-align:left}
table.overview td:nth-child(2){text-align:left}
.case{border:1px solid #d0d0d0;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}
.answer{white-space:pre-wrap;background:#fafafa;padding:.5rem;border-radius:4px}
mark.gold{background:#ffe08a}span.flag{outline:2px solid #d33;background:#fde2e2}
span.gold-flag{background:#ffe08a;outline:2px solid #d33}span.uncertain{outline:2px dashed #999}
.v-uncertain{color:#777;font-style:italic}
.verdict{font-weight:600}.v-contradicted{color:#b00}.v-unsupported{color:#b60}
.v-supported{color:#070}.v-unverifiable{color:#666}
pre{white-space:pre-wrap;word-break:break-all;background:#f4f4f4;padding:.5rem;font-size:.85rem}
.muted{color:#666}ul.facts{margin:.25rem 0}
"""
_CSP = "default-src 'none'; style-src 'unsafe-inline'"


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], cls: str) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    return f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _highlight(
    answer: str, gold: Sequence[tuple[int, int]], flagged: Sequence[Claim], uncertain: Sequence[Claim] = ()
) -> str:
    """The answer with gold spans marked, flagged claims outlined and uncertain ones dashed."""
    cuts = {0, len(answer)}
    for s, e in gold:
        cuts.update((s, e))
    for c in (*flagged, *uncertain):
        cuts.update((c.start, c.end))
    points = sorted(p for p in cuts if 0 <= p <= len(answer))
    out = []
    for a, b in zip(points, points[1:], strict=False):
        text = _e(answer[a:b])
        is_gold = any(s <= a and b <= e for s, e in gold)
        is_flag = any(c.start <= a and b <= c.end for c in flagged)
        if is_gold and is_flag:
            out.append(f'<span class="gold-flag">{text}</span>')
        elif is_gold:
            out.append(f'<mark class="gold">{text}</mark>')
        elif is_flag:
            out.append(f'<span class="flag">{text}</span>')
        elif any(c.start <= a and b <= c.end for c in uncertain):
            out.append(f'<span class="uncertain">{text}</span>')
        else:
            out.append(text)
    return "".join(out)


def _claim_html(claim: Claim) -> str:
    v = claim.verdict.value
    parts = [
        f'<p><span class="verdict v-{_e(v)}">{_e(v)}</span> '
        f'<q class="claim">{_e(claim.text)}</q> <span class="muted">[{claim.start}:{claim.end}]'
        f"</span></p>",
        f'<p class="reason">reason: {_e(claim.reason or "-")}</p>',
    ]
    if claim.facts:
        items = []
        for f in claim.facts:
            evs = "".join(f"<li>evidence: {_e(ev.describe())}</li>" for ev in f.evidence)
            weight = ""
            if f.uncertain:
                weight = f' <span class="v-uncertain">uncertain, confidence {f.confidence:.2f}</span>'
            elif f.flagged and f.confidence is not None:
                weight = f' <span class="muted">confidence {f.confidence:.2f}</span>'
            items.append(
                f"<li>{_e(f.kind.value)} <q>{_e(f.text)}</q>: "
                f'<span class="v-{_e(f.verdict.value)}">{_e(f.verdict.value)}</span>{weight}'
                f" ({_e(f.code or '-')}) {_e(f.reason)}<ul>{evs}</ul></li>"
            )
        parts.append(f'<ul class="facts">{"".join(items)}</ul>')
    if claim.evidence:
        evs = "".join(f"<li>{_e(ev.describe())}</li>" for ev in claim.evidence)
        parts.append(f"<p>claim evidence:</p><ul>{evs}</ul>")
    elif not claim.facts:
        parts.append('<p class="muted">no evidence located</p>')
    return "".join(parts)


def _case_head(r: CaseResult) -> str:
    c = r.case
    kinds = ", ".join(c.kinds) or ("faithful" if not c.hallucinated else "unlabelled")
    tools = json.dumps([tc.model_dump() for tc in c.tool_calls], ensure_ascii=False, indent=1)
    ctx = "".join(f"<li>{_e(x)}</li>" for x in c.context)
    return (
        f'<h3 id="{_e(c.id)}">{_e(c.id)} <span class="muted">({_e(c.lang)}, {_e(c.domain)}, '
        f"{_e(kinds)})</span></h3>"
        f"<p><b>question:</b> {_e(c.question)}</p>"
        + (f"<p><b>context:</b></p><ul>{ctx}</ul>" if ctx else "")
        + f"<details><summary>{len(c.tool_calls)} tool call(s)</summary><pre>{_e(tools)}</pre>"
        "</details>"
    )


def _answer_block(r: CaseResult) -> str:
    m = match_spans(r.case, r.report)
    gold = [(s, e) for s, e, _ in m.gold]
    return f'<div class="answer">{_highlight(r.case.answer, gold, r.report.flagged, r.report.uncertain)}</div>'


def _case_sections(results: Sequence[CaseResult], items_of: Callable[[CaseResult], list[str]]) -> tuple[int, str]:
    """One block per case with items (its head, its answer marked, then the items), and the items' count."""
    count, blocks = 0, []
    for r in results:
        items = items_of(r)
        if items:
            count += len(items)
            blocks.append(f'<div class="case">{_case_head(r)}{_answer_block(r)}<ul>{"".join(items)}</ul></div>')
    return count, "".join(blocks)


def _missed_items(r: CaseResult) -> list[str]:
    items = []
    for s, e, caught in match_spans(r.case, r.report).gold:
        if caught:
            continue
        covering = [c for c in r.report.claims if overlaps(c.start, c.end, s, e)]
        body = "".join(f'<div class="claim-box">{_claim_html(c)}</div>' for c in covering)
        items.append(
            f'<li class="miss">missed span <mark class="gold">{_e(r.case.answer[s:e])}</mark>'
            f" [{s}:{e}]"
            + (body or '<p class="muted">no claim of the report covers this span</p>')
            + "</li>"
        )
    return items


def misses_html(results: Sequence[CaseResult]) -> tuple[int, str]:
    """Every gold span that no flagged claim overlaps, with the claims that cover it.

    Args:
        results: factcheck's results.

    Returns:
        The number of missed spans and their HTML.
    """
    return _case_sections(results, _missed_items)


def false_alarms_html(results: Sequence[CaseResult]) -> tuple[int, str]:
    """Every flagged claim that overlaps no gold span, with its verdict, evidence and reason.

    Args:
        results: factcheck's results.

    Returns:
        The number of false alarms and their HTML.
    """
    return _case_sections(results, lambda r: [
        f'<li class="false-alarm">{_claim_html(c)}</li>'
        for c, right in match_spans(r.case, r.report).flagged if not right
    ])


def _uncertain_items(r: CaseResult) -> list[str]:
    gold = [(s, e) for s, e, _ in match_spans(r.case, r.report).gold] if r.report.uncertain else []
    items = []
    for c in r.report.uncertain:
        hit = any(overlaps(c.start, c.end, s, e) for s, e in gold)
        tag = "holds a gold span (a miss the threshold made)" if hit else "no gold span (a false alarm avoided)"
        items.append(f'<li class="uncertain-claim"><p class="muted">{tag}</p>{_claim_html(c)}</li>')
    return items


def uncertain_html(results: Sequence[CaseResult]) -> tuple[int, str]:
    """Every claim whose flags all fell below the confidence threshold, and whether a gold span lies in it.

    Args:
        results: factcheck's results.

    Returns:
        The number of uncertain claims and their HTML.
    """
    return _case_sections(results, _uncertain_items)


def error_classes_html(summary: dict[str, Any]) -> str:
    """The per-class section: recall and false alarms per `error` value, and easy vs hard mistakes.

    Args:
        summary: The output of `evaluate`.

    Returns:
        The section's HTML, or an empty string when no case has an `error`.
    """
    if not summary.get("by_error"):
        return ""
    parts = ['<h2 id="by-error">factcheck by error class</h2>'
             '<p class="muted">Recall on each mistake class, false alarms on each meaning-preserving rewrite '
             "(<code>error</code> of the cases; see docs/mutation.md).</p>",
             _table(*error_rows(summary), "by-error")]
    if summary.get("by_difficulty"):
        parts += ['<p class="muted">Easy: the wrong value occurs in the tool outputs; hard: it occurs nowhere.</p>',
                  _table(*difficulty_rows(summary), "by-difficulty")]
    return "".join(parts)


def render_html(
    summary: dict[str, Any], results: Sequence[CaseResult], sources: Sequence[str]
) -> str:
    """The whole report page.

    Args:
        summary: The output of `evaluate`.
        results: factcheck's per-case results.
        sources: Suite files the cases came from.

    Returns:
        A complete HTML document with no external resources and no scripts.
    """
    n_miss, misses = misses_html(results)
    n_fa, alarms = false_alarms_html(results)
    n_unsure, unsure = uncertain_html(results)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>factcheck eval: {summary['cases']} cases</title><style>{_CSS}</style></head><body>"
        f"<h1>factcheck eval: {summary['cases']} cases, {summary['hallucinated']} hallucinated</h1>"
        f"<p class=\"muted\">suite: {_e(', '.join(sources))}</p>"
        "<h2>Overview</h2>" + _table(*overview_rows(summary), "overview")
        + "<h2>factcheck by language</h2>"
        + _table(*breakdown_rows(summary["by_lang"], "lang"), "by-lang")
        + "<h2>factcheck by kind</h2>"
        + _table(*breakdown_rows(summary["by_kind"], "kind"), "by-kind")
        + error_classes_html(summary)
        + f'<h2 id="misses">Misses ({n_miss})</h2>'
        + '<p class="muted">Gold spans no flagged claim overlaps. Gold spans are '
        '<mark class="gold">marked</mark>, flagged claims <span class="flag">outlined</span>.</p>'
        + (misses or "<p>none</p>")
        + f'<h2 id="false-alarms">False alarms ({n_fa})</h2>'
        + '<p class="muted">Flagged claims that overlap no gold span.</p>'
        + (alarms or "<p>none</p>")
        + f'<h2 id="uncertain">Uncertain ({n_unsure})</h2>'
        + '<p class="muted">Claims whose flags all fell below the confidence threshold: reported, never acted on. '
        'They are <span class="uncertain">dashed</span> in the answers.</p>'
        + (unsure or "<p>none</p>")
        + "</body></html>\n"
    )
