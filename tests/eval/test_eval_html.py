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
    assert "Missed: 1 span in 1 case" in page and "Flagged wrongly: 1 claim in 1 case" in page
    miss = page[page.index('id="misses"'):page.index('id="false-alarms"')]
    assert "Order 7 shipped" in miss and "not flagged" in miss  # the covering claim, and that it was not flagged
    assert 'class="verdict v-supported"' not in miss  # a missed claim is never labelled green "supported"
    alarms = page[page.index('id="false-alarms"'):page.index('id="uncertain"')]
    assert "Refund failed &amp; closed." in alarms
    assert "scripted reason for Refund failed &amp; closed." in alarms
    assert "get_refund.status: &#x27;failed&#x27;" in alarms  # Evidence.describe()
    assert page.count("<table") == 3 and '<table class="overview">' in page
    assert f"<td>precision</td><td>{summary['answers']['precision']:.3f}</td>" in page


def _section(page: str, start: str, end: str) -> str:
    return page[page.index(f'id="{start}"'):page.index(f'id="{end}"')]


def test_cases_come_first_figures_after_and_a_legend_explains_the_marks():
    page, _ = _page()
    order = [page.index(x) for x in ('class="legend"', 'id="misses"', 'id="false-alarms"', 'id="uncertain"',
                                     'id="figures"', "<table", 'id="columns"')]
    assert order == sorted(order)
    legend = page[page.index('class="legend"'):page.index('id="misses"')]
    for mark in ('<mark class="gold">', '<span class="flag">', '<span class="uncertain">', "confidence"):
        assert mark in legend


def test_every_column_of_the_figures_is_explained():
    from factcheck.eval.html import COLUMNS
    from factcheck.eval.tables import BREAKDOWN

    page, _ = _page()
    columns = page[page.index('id="columns"'):]
    for header, _block, _key in BREAKDOWN:
        assert COLUMNS[header] and f"<dt>{header}</dt><dd>{COLUMNS[header]}</dd>" in columns


def test_each_claim_is_shown_once_per_case_and_counts_agree():
    answer = "Refund succeeded and order 7 shipped today. All good."
    case = make_case(answer, ["succeeded", "order 7 shipped"], id="two-spans-one-claim")
    other = make_case("Refund succeeded.", ["succeeded"], id="one-span")
    system = ScriptedSystem({answer: [("Refund succeeded and order 7 shipped today.", Verdict.SUPPORTED),
                                      ("All good.", Verdict.SUPPORTED)],
                             other.answer: [("Refund succeeded.", Verdict.UNVERIFIABLE)]})
    results = run_suite(system, [case, other], warmup=False)
    page = render_html(summarize(results), results, ["s"])
    miss = _section(page, "misses", "false-alarms")
    assert "Missed: 3 spans in 2 cases" in miss
    assert miss.count('class="gold missed-span"') == 3 and miss.count('class="case"') == 2
    assert miss.count("<q class=\"claim\">Refund succeeded and order 7 shipped today.</q>") == 1
    assert "Missed 3 hallucinated spans in 2 cases" in page  # the lead sentence says the same


def test_the_font_stack_covers_chinese_on_common_systems():
    from factcheck.report_html import CSS, FONT_STACK

    assert f"font-family:{FONT_STACK}" in CSS
    for font in ("PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", "WenQuanYi Micro Hei"):
        assert f'"{font}"' in FONT_STACK
    assert FONT_STACK.endswith("sans-serif")


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
    alarms = [(r.case.id, c.start) for r in results for c in r.report.flagged
              if not any(c.start < e and s < c.end for s, e in _gold(r))]
    n_cases = len({case for case, _ in alarms})
    plural = "" if len(alarms) == 1 else "s"
    assert f"Flagged wrongly: {len(alarms)} claim{plural} in {n_cases} case" in page
    assert page.count('class="false-alarm"') == len(alarms)


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
    assert dom.count('class="gold missed-span"') == 1 and dom.count('class="false-alarm"') == 1
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
    assert f"Held back as uncertain: {uncertain} claim" in page
    assert page.count('class="uncertain-claim"') == uncertain
    assert ("below the threshold: not acted on" in page) == bool(uncertain)
    assert ("Flagged wrongly: 1 claim in 1 case" in page) != bool(uncertain)  # the same flag is one or the other
