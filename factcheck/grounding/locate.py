"""Locate the evidence span that best matches a claim's wording, with rapidfuzz."""

from __future__ import annotations

from rapidfuzz import fuzz

from factcheck.grounding.evidence import Leaf

_MAX_LEAVES = 2000
_MAX_CHARS = 4000
_FULLWIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}


def normalise(text: str) -> str:
    """Length-preserving normalisation: full-width ASCII to half-width, lower case per character."""
    folded = text.translate(_FULLWIDTH)
    if folded.isascii():  # ASCII lower-cases letter for letter
        return folded.lower()
    low = folded.lower()
    # no letter grew and no capital sigma (the one letter lower-cased by its neighbours): as letter for letter
    if len(low) == len(folded) and "\u03a3" not in folded:
        return low
    return "".join(low if len(low := ch.lower()) == 1 else ch for ch in folded)


def locate(
    claim: str, leaves: list[Leaf], cutoff: float, min_cover: float = 0.0
) -> tuple[Leaf, int, int, float] | None:
    """The leaf and the character span inside it that best match `claim`.

    Args:
        claim: The claim's text.
        leaves: Candidate evidence leaves (only the first few thousand are scanned).
        cutoff: rapidfuzz score (0-100) below which nothing is returned.
        min_cover: Share of `claim` the aligned span must cover: a name is not found in a
            shorter string inside it ("CA" in "Latin America" scores 100).

    Returns:
        (leaf, start, end, score) with offsets into `leaf.text`, or None.
    """
    query = normalise(claim)
    processed = normalise(query)  # what `processor=normalise` made of the query at every leaf: made once
    best: tuple[Leaf, int, int, float] | None = None
    for leaf in leaves[:_MAX_LEAVES]:
        text = leaf.text[:_MAX_CHARS]
        if not text.strip():
            continue
        floor = best[3] if best else cutoff
        # the leaf's text normalised here, as the processor would (the query already is): no processor
        found = fuzz.partial_ratio_alignment(processed, normalise(text), processor=None, score_cutoff=floor)
        if found is not None and found.src_end - found.src_start < min_cover * len(query):
            continue
        if found is not None and (best is None or found.score > best[3]):
            best = (leaf, found.dest_start, found.dest_end, found.score)
    return best
