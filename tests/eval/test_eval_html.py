"""The HTML report: complete, escaped, self-contained; rendered by headless Chromium if present."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from eval_helpers import MINI, ScriptedSystem, make_case

from factcheck.eval.html import render_html
from factcheck.eval.runner import run_suite
from factcheck.eval.scoring import summarize
from factcheck.eval.suite import load_suite
from factcheck.report import Verdict

PAYLOAD = '<script>document.title="pwned"</script><img src=x onerror=alert(1)>'


def _page():
    miss = make_case(f"Refund succeeded. {PAYLOAD} Order 7 shipped.",
                     ["succeeded", "Order 7 shipped"], id="case-<b>1</b>")
    alarm = make_case("Refund failed & closed.", [], id="case-2", lang="zh")
    system = ScriptedSystem({
        miss.answer: [("Refund succeeded.", Verdict.CONTRADICTED),
                      ("Order 7 shipped.", Verdict.SUPPORTED)],
        alarm.answer: [("Refund failed & closed.", Verdict.UNSUPPORTED)],
    })
    results = run_suite(system, [miss, alarm], warmup=False)
    summary = summarize(results)
    return render_html(summary, results, ["suite<1>.jsonl"]), summary


def test_page_lists_misses_and_false_alarms_with_reasons_and_evidence():
    page, summary = _page()
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "Misses (1)" in page and "False alarms (1)" in page
    miss = page[page.index('id="misses"'):page.index('id="false-alarms"')]
    assert "Order 7 shipped" in miss and "supported" in miss  # the covering claim and its verdict
    alarms = page[page.index('id="false-alarms"'):]
    assert "Refund failed &amp; closed." in alarms
    assert "scripted reason for Refund failed &amp; closed." in alarms
    assert "get_refund.status: &#x27;failed&#x27;" in alarms  # Evidence.describe()
    assert page.count("<table") == 3 and '<table class="overview">' in page
    assert f"<td>precision</td><td>{summary['answers']['precision']:.3f}</td>" in page


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(name for name, _ in attrs)


def test_page_escapes_everything_and_loads_nothing():
    page, _ = _page()
    parsed = _Tags()
    parsed.feed(page)
    assert not {"script", "img", "link", "iframe", "object", "embed"} & set(parsed.tags)
    assert not [a for a in parsed.attrs if a in ("src", "href") or a.startswith("on")]
    assert "&lt;script&gt;document.title" in page and "case-&lt;b&gt;1&lt;/b&gt;" in page
    assert "suite&lt;1&gt;.jsonl" in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in page


def test_page_of_a_real_suite_run():
    cases = load_suite([MINI])
    from factcheck.eval.baselines import SeedNaive

    results = run_suite(SeedNaive(), cases, warmup=False)
    page = render_html(summarize(results), results, [str(MINI)])
    n_alarm = sum(1 for r in results for c in r.report.flagged
                  if not any(c.start < e and s < c.end for s, e in _gold(r)))
    assert f"False alarms ({n_alarm})" in page
    assert page.count('class="false-alarm"') == n_alarm


def _gold(r):
    from factcheck.eval.suite import span_ranges

    return span_ranges(r.case.answer, r.case.hallucinated_spans)


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(_chromium() is None, reason="chromium not installed "
                    "(apt-get install -y chromium)")
def test_headless_chromium_renders_the_page(tmp_path: Path):
    page, _ = _page()
    html_file = tmp_path / "report.html"
    html_file.write_text(page, encoding="utf-8")
    profile = tempfile.mkdtemp(prefix="fc-chromium-")
    try:
        proc = subprocess.run(
            [_chromium(), "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--no-first-run", f"--user-data-dir={profile}",
             "--virtual-time-budget=2000", "--dump-dom", html_file.as_uri()],
            capture_output=True, text=True, timeout=120,
        )
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = proc.stdout
    # the browser parsed the whole document: tables and both lists are in the DOM
    assert dom.count("<table") == 3 and 'id="false-alarms"' in dom
    assert dom.count('class="miss"') == 1 and dom.count('class="false-alarm"') == 1
    # the payload stayed text: no element was created from it and no script ran
    assert "<script" not in dom and "<img" not in dom
    assert "&lt;script&gt;document.title" in dom
    assert "<title>factcheck eval: 2 cases</title>" in dom


@pytest.mark.parametrize(("threshold", "uncertain"), [(0.0, 0), (0.999, 1)])
def test_uncertain_flags_are_shown_dashed_with_their_confidence(threshold: float, uncertain: int):
    from factcheck import CheckerConfig
    from factcheck.eval.runner import FactcheckSystem

    case = make_case("Your order ships in 5 days.", [], tool_calls=[
        {"name": "get_order", "args": {"id": "1"}, "output": {"eta_days": 3}, "status": "ok"}])
    results = run_suite(FactcheckSystem(CheckerConfig(min_confidence=threshold)), [case], warmup=False)
    page = render_html(summarize(results), results, ["mini"])
    assert f"Uncertain ({uncertain})" in page
    assert page.count('class="uncertain-claim"') == uncertain
    assert ("uncertain, confidence" in page) == bool(uncertain)
    assert ("False alarms (1)" in page) != bool(uncertain)  # the same flag is one or the other
