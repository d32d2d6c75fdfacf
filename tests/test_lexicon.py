"""Lexicon files: extending the shipped ones, bad files, field names."""

import re

import pytest


def test_a_user_file_extends_the_shipped_lexicons(tmp_path) -> None:
    from factcheck import CheckerConfig, FactChecker, Verdict

    extra = tmp_path / "extra.json"
    extra.write_text(
        '{"status_terms": {"voided": {"concept": "payment", "polarity": "negative"}}, "negators": ["nie"]}',
        encoding="utf-8",
    )
    checker = FactChecker(CheckerConfig(lexicon_paths=[extra], min_confidence=0))
    tools = [{"name": "get_payment", "args": {}, "output": {"payment_status": "voided"}, "status": "ok"}]
    assert checker.check("Your payment went through.", tools).claims[0].verdict == Verdict.CONTRADICTED
    plain = FactChecker(CheckerConfig(min_confidence=0))
    assert plain.check("Your payment went through.", tools).claims[0].verdict != Verdict.CONTRADICTED
    assert "nie" in checker.lexicon.negators.keys and "not" in checker.lexicon.negators.keys


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "cannot read lexicon file"),
        ('["a list"]', "must hold a JSON object"),
        ('{"duration_days": {"fortnight": "14"}}', "duration_days['fortnight'] must be a number"),
        ('{"duration_days": {"fortnight": 0}}', "duration_days['fortnight'] must be a positive number"),
        ('{"categories": {"tier": ["gold"]}}', "categories['tier'] must be an object"),
        ('{"status_terms": {"voided": "negative"}}', "status_terms['voided'] must be an object with a polarity"),
        ('{"status_terms": {"voided": {"polarity": "bad"}}}', "status_terms['voided'] must be an object with"),
        ('{"negators": "not"}', "negators must be a list of words"),  # not three negators n, o, t
        ('{"fields": {"refund": "退款"}}', "fields['refund'] must be a list of words"),
        ('{"weekdays": {"lundi": "x"}}', "weekdays['lundi'] must be a number"),
        ('{"currencies": {"usd": 1}}', "currencies['usd'] must be a currency code"),
        ('{"negator": ["nie"]}', "negator is not a lexicon key"),  # a typo is not ignored
        ('{"categories": {"tier": {"values": {"gold": "gold"}}}}', "categories['tier'] must be an object"),
        ('{"unit_scales": {"data": {"gb": 0}}}', "unit_scales['data'] must be an object of positive numbers"),
        ('{"time_zones": {"Mars": [25]}}', "time_zones['Mars'] must be a list of UTC offsets in hours, -12 to 14"),
        ('{"other_senses": {"posted": "payment"}}', "other_senses['posted'] must be a list of words"),
        # a key given twice: the later one would silently win
        ('{"status_terms": {"voided": {"polarity": "negative"}, "voided": {"polarity": "positive"}}}',
         "key 'voided' is given twice in one object"),
    ],
)
def test_a_bad_lexicon_file_is_a_clear_error(tmp_path, content: str, message: str) -> None:
    from factcheck.lexicon import load_lexicon

    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(message)):
        load_lexicon([bad])


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("items[].price", "items[].price"),
        ("payment.amountCents", "payment.amount_Cents"),
        ("orderId", "order_Id"),
        ("refund2Status", "refund2_Status"),
        ("退款状态", "退款状态"),
        ("HTTPStatus", "HTTPStatus"),  # only a lower-case letter or digit before a capital breaks a word
        ("", ""),
    ],
)
def test_split_camel(name: str, expected: str) -> None:
    from factcheck.lexicon import split_camel

    assert split_camel(name) == expected


def test_a_user_file_adds_a_category_and_extends_one_word_by_word(tmp_path) -> None:
    from factcheck import CheckerConfig, FactChecker, Verdict

    extra = tmp_path / "categories.json"
    extra.write_text(
        '{"categories": {"tier": {"fields": ["club"], "values": {"gold": ["goldstar"]}},'
        ' "color": {"fields": ["color"], "values": {"red": ["red"], "blue": ["blue"]}}}}',
        encoding="utf-8",
    )
    checker = FactChecker(CheckerConfig(lexicon_paths=[extra], min_confidence=0))
    tier = checker.lexicon.data["categories"]["tier"]
    assert {"tier", "club"} <= set(tier["fields"]) and {"gold", "goldstar"} <= set(tier["values"]["gold"])
    call = {"name": "get_item", "args": {}, "output": {"color": "blue"}, "status": "ok"}
    assert checker.check("Your color is red.", [call]).claims[0].verdict == Verdict.CONTRADICTED
    assert checker.check("Your color is blue.", [call]).claims[0].verdict == Verdict.SUPPORTED


def test_every_lexicon_key_is_explained_in_the_shipped_doc() -> None:
    import json
    from importlib import resources

    from factcheck.lexicon import _MERGED_DICTS, _MERGED_LISTS

    doc = json.loads(resources.files("factcheck.data").joinpath("en.json").read_text(encoding="utf-8"))["_doc"]
    assert [key for key in (*_MERGED_DICTS, *_MERGED_LISTS) if not re.search(rf"\b{key}\b", doc)] == []
