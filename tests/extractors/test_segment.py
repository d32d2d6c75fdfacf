"""Sentence segmentation traps in zh, en and mixed text."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factcheck import FactChecker
from factcheck.extractors.segment import (
    _CJK,
    _INNER_END,
    blank_pipeline,
    detect_lang,
    mostly_zh_or_en,
    sentence_bounds,
)

CHECKER = FactChecker()


def sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in CHECKER._claims.segmenter.sentences(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("退款金额 $42.50。已到账。", ["退款金额 $42.50。", "已到账。"]),
        ("优惠 5.2%，已生效。谢谢！", ["优惠 5.2%，已生效。", "谢谢！"]),
        ("Shipped on Dec. 3 to Mr. Smith. Thanks!", ["Shipped on Dec. 3 to Mr. Smith.", "Thanks!"]),
        ("Refund done.已退款。订单已发货！", ["Refund done.", "已退款。", "订单已发货！"]),
        ("已为您成功退款，订单号 88231。", ["已为您成功退款，订单号 88231。"]),
        ("您好 Mr. Smith，订单已发货。", ["您好 Mr. Smith，订单已发货。"]),
        ("Total: $1,299.00. Paid.", ["Total: $1,299.00.", "Paid."]),
        ("图片如下：![图1](https://x.example/a.png)", ["图片如下：![图1](https://x.example/a.png)"]),
        ("第一行\n第二行", ["第一行", "第二行"]),
        # an ASCII "!" or "?" inside a token ends no sentence: a password, a query string
        ("新的密码：aB3#fG7!kL9@。请保存好。", ["新的密码：aB3#fG7!kL9@。", "请保存好。"]),
        ("链接 https://x.example/a?b=c 已发送!好的?是的。",
         ["链接 https://x.example/a?b=c 已发送!", "好的?", "是的。"]),
        # an ellipsis right before digits masks a number's start; before text it ends a sentence
        ("Pixel 8 (line …0171) is eligible.", ["Pixel 8 (line …0171) is eligible."]),
        ("稍等…好了。", ["稍等…", "好了。"]),
        ("", []),
    ],
)
def test_sentences(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


@pytest.mark.parametrize(
    ("text", "lang"),
    [("已为您成功退款。", "zh"), ("Your refund failed.", "en"), ("您的 refund 已经 approved，amount $45", "mixed")],
)
def test_detect_lang(text: str, lang: str) -> None:
    assert detect_lang(text) == lang


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("已发布，链接 https://x.example.com/articles/2026/09/very-long-path-name", "zh"),  # links aside
        ("订单 refund 没有成功", "zh"),
        ("Your refund 已到账 and the order is closed", "en"),
        ("联系 support@example.com", "zh"),
        ("OK", "en"),
        ("", "en"),
    ],
)
def test_mostly_zh_or_en(text: str, lang: str) -> None:
    assert mostly_zh_or_en(text) == lang


def test_user_supplied_pipeline_is_used() -> None:
    import spacy

    from factcheck import CheckerConfig

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    checker = FactChecker(CheckerConfig(nlp=nlp))
    answer = "Refund failed. Order 88231 shipped!"
    assert [c.text for c in checker.check(answer).claims] == ["Refund failed.", "Order 88231 shipped!"]
    assert "factcheck_sentences" in nlp.pipe_names


def test_blank_pipeline_is_rebuilt_when_its_vocab_grows_too_large(monkeypatch: pytest.MonkeyPatch) -> None:
    from factcheck.extractors import segment

    checker = FactChecker()
    text = "Order 88231 shipped!Tracking SF1234567890 is live."  # a bound inside a word: read by the pipeline
    checker._claims.segmenter.sentences("Ticket T-40112 closed!Refund RF-99871 sent.")  # words only the old one holds
    before = checker._claims.segmenter.sentences(text)
    old = segment.blank_pipeline("en", checker._claims.segmenter._abbr)
    monkeypatch.setattr(segment, "MAX_VOCAB_STRINGS", len(old.vocab.strings) - 1)
    assert checker._claims.segmenter.sentences(text) == before
    new = segment.blank_pipeline("en", checker._claims.segmenter._abbr)
    assert new is not old and len(new.vocab.strings) < len(old.vocab.strings)


_TEXT = st.text(alphabet=st.sampled_from(list("ab 1.\n\t。！？?…!”’\"'）)」』】，已退款 Mr.Dec")), max_size=40)


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_every_sentence_bound_starts_a_token(text: str) -> None:
    lang = "zh" if _CJK.search(text) else "en"  # as `Segmenter` routes it
    doc = blank_pipeline(lang).tokenizer(text)
    assert doc.text == text
    starts = {token.idx for token in doc}
    bounds = set(sentence_bounds(text, frozenset({"mr", "dec"})))
    if lang == "zh" or not _INNER_END.search(text):  # else spaCy's own rules tokenize it
        assert bounds <= starts


def _pipeline_sentences(text: str, lang: str) -> list[str]:
    """The sentences the blank pipeline itself marks (tokenizer, then `SentenceSetter`), trimmed."""
    doc = blank_pipeline(lang, tuple(sorted(CHECKER._claims.segmenter._abbr)))(text)
    return [s.text.strip() for s in doc.sents if s.text.strip()]


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_sentences_read_without_the_pipeline_are_the_pipelines(text: str) -> None:
    lang = "zh" if _CJK.search(text) else "en"
    assert sentences(text) == _pipeline_sentences(text, lang)
