"""The placeholders `audit --fix` writes in place of unbacked links and identifiers; never read as claims."""

from __future__ import annotations

import re

from factcheck.report import FactKind

PLACEHOLDERS: dict[tuple[FactKind, str], str] = {
    (FactKind.URL, "en"): "[unverified link removed]",
    (FactKind.URL, "zh"): "[未经核实的链接已移除]",
    (FactKind.IDENTIFIER, "en"): "[unverified identifier removed]",
    (FactKind.IDENTIFIER, "zh"): "[未经核实的编号已移除]",
}
"""What replaces an unbacked link or identifier, by the language of the turn's text."""

PLACEHOLDER = re.compile("|".join(re.escape(text) for text in PLACEHOLDERS.values()))
"""Any of the placeholders in a text."""


def placeholder_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` holds a placeholder (the claim extractor reads nothing inside them).

    Args:
        text: A sentence of an answer.

    Returns:
        `(start, end)` of each placeholder.
    """
    return [m.span() for m in PLACEHOLDER.finditer(text)] if "[" in text else []
