"""Write the README's screenshots of the HTML reports (Chinese cases) with headless Chromium.

Run from the repository root: `python docs/make_screenshots.py` (needs chromium and a CJK font, e.g.
`apt-get install chromium fonts-noto-cjk`). Writes docs/img/eval-report.png and docs/img/audit-report.png.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "audit")]  # this checkout first

from chromium import screenshot  # noqa: E402  (tests/chromium.py)

WIDTH, HEIGHT = 1100, 1300


def eval_page() -> str:
    """The eval report of the held-out suite's Chinese cases."""
    from factcheck.eval.html import render_html
    from factcheck.eval.runner import evaluate
    from factcheck.eval.suite import load_suite

    cases = [c for c in load_suite(["heldout"]) if c.lang == "zh"]
    summary, results = evaluate(cases)
    return render_html({"suite": ["heldout (zh)"], "system": "factcheck", **summary}, results["factcheck"],
                       ["heldout: its Chinese cases"])


def audit_page(tmp: Path) -> str:
    """The audit report of the Chinese seed histories of the audit tests."""
    import histories as h

    from factcheck.cli import main

    path = h.write_jsonl(tmp / "histories.jsonl", [h.as_format(h.seed_001(), "openai", "seed-001"),
                                                   h.as_format(h.seed_000(), "openai", "seed-000")])
    report = tmp / "audit.html"
    main(["audit", str(path), "--report", str(report), "-q"])
    return report.read_text(encoding="utf-8").replace(str(tmp) + "/", "")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        for name, html in (("eval-report", eval_page()), ("audit-report", audit_page(tmp))):
            page = tmp / f"{name}.html"
            page.write_text(html, encoding="utf-8")
            out = ROOT / "docs" / "img" / f"{name}.png"
            out.write_bytes(screenshot(page.as_uri(), width=WIDTH, height=HEIGHT))
            print(f"{out.relative_to(ROOT)}: {out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
