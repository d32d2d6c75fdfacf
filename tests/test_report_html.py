"""The reports' look: Chinese renders as glyphs, not boxes, in headless Chromium (a pixel test that can fail)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from chromium import chromium, ink, no_cjk_fonts, screenshot

from factcheck.report_html import page

pytestmark = pytest.mark.skipif(chromium() is None, reason="chromium not installed (apt-get install -y chromium "
                                "fonts-noto-cjk; .ci/run does)")
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
_CJK = re.compile(r"[\u4e00-\u9ffe]")


def _shot(tmp: Path, html: str, env: dict[str, str] | None = None, **size: int) -> bytes:
    path = tmp / f"page{len(list(tmp.glob('page*.html')))}.html"
    path.write_text(html, encoding="utf-8")
    return screenshot(path.as_uri(), env=env, **size)


def _other_glyphs(html: str) -> str:
    """The page with every CJK character replaced by its neighbour: the same layout, other glyphs."""
    return _CJK.sub(lambda m: chr(ord(m.group()) + 1), html)


def _boxes(tmp: Path, html: str, env: dict[str, str] | None = None, **size: int) -> bool:
    """Whether Chinese shows as boxes: the page and its `_other_glyphs` twin render alike."""
    return ink(_shot(tmp, html, env, **size)) == ink(_shot(tmp, _other_glyphs(html), env, **size))


SAMPLE = page("zh", '<div class="answer" style="font-size:40px">已为您成功退款，订单 88231 的 299 元将原路退回。</div>')


def test_chinese_in_the_report_style_renders_as_glyphs(tmp_path):
    assert ink(_shot(tmp_path, SAMPLE, width=900, height=120))  # something was drawn at all
    assert not _boxes(tmp_path, SAMPLE, width=900, height=120)


@pytest.mark.skipif(not DEJAVU.is_dir(), reason="needs DejaVu fonts for the no-CJK reference")
def test_the_check_sees_boxes_on_a_machine_without_a_cjk_font(tmp_path):
    assert _boxes(tmp_path, SAMPLE, no_cjk_fonts(tmp_path), width=900, height=120)


def test_the_eval_report_of_a_chinese_case_shows_glyphs(tmp_path):
    import sys

    sys.path.insert(0, str(Path(__file__).parent / "eval"))
    from eval_helpers import make_case

    from factcheck.eval.html import render_html
    from factcheck.eval.runner import FactcheckSystem, run_suite
    from factcheck.eval.scoring import summarize

    # labelled hallucinated although the tool backs it: a miss, shown first on the page with its Chinese text
    case = make_case("您好，订单 88231 已发货，明天送达。", ["已发货"], lang="zh", question="我的订单 88231 发货了吗？",
                     tool_calls=[{"name": "get_order", "args": {"order_id": "88231"},
                                  "output": {"status": "已发货", "eta": "明天"}, "status": "ok"}])
    results = run_suite(FactcheckSystem(), [case], warmup=False)
    html = render_html(summarize(results), results, ["zh.jsonl"])
    assert "Missed: 1 span in 1 case" in html
    assert not _boxes(tmp_path, html, width=1000, height=1000)
    assert _boxes(tmp_path, html, no_cjk_fonts(tmp_path), width=1000, height=1000) or not DEJAVU.is_dir()
