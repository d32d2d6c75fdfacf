"""The look the eval and audit HTML reports share: style, fonts, escaping, tables, marked answers, claim blocks."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any, Literal

from factcheck.report import Claim

FONT_STACK = ('system-ui,-apple-system,"Segoe UI","PingFang SC","Hiragino Sans GB","Microsoft YaHei",'
              '"Noto Sans CJK SC","Noto Sans SC","Source Han Sans SC","WenQuanYi Micro Hei",'
              '"Noto Sans CJK JP",sans-serif')
"""Latin system fonts, then a Chinese font of each common system (macOS, Windows, Linux), then any sans-serif."""

CSS = "body{font-family:" + FONT_STACK + """;margin:2rem;color:#1d1d1f;max-width:72rem;line-height:1.45}
h1{font-size:1.5rem;margin-bottom:.25rem}h2{font-size:1.2rem;margin-top:2.5rem;border-bottom:1px solid #ccc}
h3{font-size:1rem;margin:.25rem 0}
table{border-collapse:collapse;margin:.5rem 0 1rem}
th,td{border:1px solid #d0d0d0;padding:.25rem .5rem;text-align:right;vertical-align:top}
th:first-child,td:first-child{text-align:left}
table.overview td:nth-child(2){text-align:left}
.case{border:1px solid #d0d0d0;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}
.answer{white-space:pre-wrap;background:#fafafa;padding:.5rem;border-radius:4px;margin:.5rem 0}
.claim-box{border-left:4px solid #d33;padding:.25rem .75rem;margin:.5rem 0;background:#fff8f8}
.claim-box.missed{border-left-color:#c9a200;background:#fffbea}
.claim-box.held{border-left-color:#999;background:#f6f6f6}
mark.gold{background:#ffe08a}span.flag{outline:2px solid #d33;background:#fde2e2}
span.gold-flag{background:#ffe08a;outline:2px solid #d33}span.uncertain{outline:2px dashed #999}
.verdict{font-weight:600}.v-contradicted{color:#b00}.v-unsupported{color:#b60}
.v-supported{color:#070}.v-unverifiable{color:#666}.v-uncertain{color:#777;font-style:italic}
.v-not-flagged{color:#8a6d00;font-weight:600}
.lead{font-size:1.05rem}.legend{border:1px solid #d0d0d0;border-radius:6px;padding:.25rem 1rem;background:#fcfcfc}
.legend dt{float:left;clear:left;width:9rem}.legend dd{margin-left:10rem}
.before{border-left:3px solid #6a8fd0;padding:.1rem .75rem;margin:.5rem 0;background:#f5f8ff}
pre{white-space:pre-wrap;word-break:break-all;background:#f4f4f4;padding:.5rem;font-size:.85rem}
.muted{color:#666}ul.facts{margin:.25rem 0}
"""
CSP = "default-src 'none'; style-src 'unsafe-inline'"
"""No script, no network: the page loads nothing."""

_LEGEND_ROWS = (
    ("gold", '<mark class="gold">marked</mark>', "a span the suite labels as hallucinated (gold)"),
    ("", '<span class="flag">outlined</span>', "a claim factcheck flagged"),
    ("", '<span class="uncertain">dashed</span>',
     "a claim flagged below the confidence threshold: reported, never acted on"),
    ("", '<span class="verdict v-contradicted">contradicted</span>', "a tool output says otherwise"),
    ("", '<span class="verdict v-unsupported">unsupported</span>', "no tool output says it"),
    ("", '<span class="verdict v-supported">supported</span>', "a tool output says it"),
    ("", '<span class="verdict v-unverifiable">unverifiable</span>', "nothing in it to check"),
    ("", "confidence", "the estimated chance that a flag is right"),
)


def legend(gold: bool = True) -> str:
    """What the marks, outlines and words of a report mean.

    Args:
        gold: Whether the page marks labelled (gold) spans (the eval's does, the audit's does not).

    Returns:
        The legend's HTML.
    """
    rows = "".join(f"<dt>{mark}</dt><dd>{e(text)}</dd>" for need, mark, text in _LEGEND_ROWS if gold or not need)
    return f'<dl class="legend">{rows}</dl>'


Role = Literal["flagged", "missed", "held"]


def e(value: Any) -> str:
    """`value` as escaped HTML text."""
    return html.escape(str(value), quote=True)


def page(title: str, body: str, lang: str = "en") -> str:
    """A complete self-contained document.

    Args:
        title: The `<title>`.
        body: The body's HTML.
        lang: The page's language.

    Returns:
        The document.
    """
    return (f'<!DOCTYPE html>\n<html lang="{e(lang)}"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{e(title)}</title><style>{CSS}</style></head><body>{body}</body></html>\n")


def table(header: Sequence[str], rows: Sequence[Sequence[str]], cls: str) -> str:
    """An HTML table of text cells."""
    head = "".join(f"<th>{e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def highlight(answer: str, gold: Sequence[tuple[int, int]], flagged: Sequence[Claim],
              uncertain: Sequence[Claim] = ()) -> str:
    """The answer with gold spans marked, flagged claims outlined and uncertain ones dashed."""
    cuts = {0, len(answer)}
    for s, t in gold:
        cuts.update((s, t))
    for c in (*flagged, *uncertain):
        cuts.update((c.start, c.end))
    points = sorted(p for p in cuts if 0 <= p <= len(answer))
    out = []
    for a, b in zip(points, points[1:], strict=False):
        text = e(answer[a:b])
        is_gold = any(s <= a and b <= t for s, t in gold)
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


def _label(claim: Claim, role: Role) -> str:
    """What the report says of the claim, in the words of the section it is shown in."""
    top = max((f.confidence for f in claim.facts if f.confidence is not None), default=None)
    if claim.uncertain:
        return (f'<span class="verdict v-uncertain">uncertain</span> <span class="muted">(flagged with '
                f"confidence {top:.2f}, below the threshold: not acted on)</span>")
    if role == "missed":
        return (f'<span class="verdict v-not-flagged">not flagged</span> <span class="muted">(factcheck read it '
                f"as {e(claim.verdict.value)})</span>")
    v = claim.verdict.value
    conf = f' <span class="muted">confidence {top:.2f}</span>' if top is not None and claim.flagged else ""
    return f'<span class="verdict v-{e(v)}">{e(v)}</span>{conf}'


def claim_html(claim: Claim, role: Role = "flagged") -> str:
    """A claim: its text and label, the reason, then each fact with its evidence (each evidence once).

    Args:
        claim: The claim.
        role: `flagged` (a flag shown as such), `missed` (a claim that holds a gold span no flag caught) or
            `held` (a flag below the threshold).

    Returns:
        The claim's HTML block.
    """
    box = {"flagged": "claim-box", "missed": "claim-box missed", "held": "claim-box held"}[role]
    parts = [f'<p><q class="claim">{e(claim.text)}</q> {_label(claim, role)}</p>',
             f'<p class="reason"><b>why:</b> {e(claim.reason or "no fact in it was flagged")}</p>']
    items = []
    for f in claim.facts:
        shown = list(dict.fromkeys(ev.describe() for ev in f.evidence))
        evs = "".join(f"<li>evidence: {e(x)}</li>" for x in shown) or '<li class="muted">no evidence located</li>'
        verdict = "uncertain" if f.uncertain else f.verdict.value
        items.append(f"<li>{e(f.kind.value)} <q>{e(f.text)}</q>: "
                     f'<span class="v-{e(verdict)}">{e(verdict)}</span> {e(f.reason)}<ul>{evs}</ul></li>')
    if items:
        parts.append(f'<ul class="facts">{"".join(items)}</ul>')
    else:
        parts.append('<p class="muted">no checkable fact (number, status, identifier, link...) in this claim</p>')
    return f'<div class="{box}">{"".join(parts)}</div>'
