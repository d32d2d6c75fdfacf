"""The user's word over the record: a number only the user gives, one digit off a tool's."""

import pytest

from factcheck import check
from factcheck.grounding.user_word import neighbours


@pytest.mark.parametrize(
    ("digits", "inside", "outside"),
    [
        ("123", {"132", "124", "193"}, {"123", "321", "213", "223", "1234"}),  # the first digit is kept
        ("0937", {"0973", "0917"}, {"937", "1937"}),
        ("105", {"150", "107"}, {"015", "205"}),
    ],
)
def test_neighbours_are_one_substitution_or_one_swap_away(digits, inside, outside) -> None:
    found = neighbours(digits)
    assert inside <= found and not outside & found


ORDER = [{"name": "get_order", "args": {"order_id": "W1"},
          "output": {"order_id": "W1", "address": {"street": "123 Main Street", "unit": 4}, "total": 425.5}}]


@pytest.mark.parametrize(
    ("question", "answer", "text", "verdict"),
    [
        # the user misremembers; the answer repeats the user's number over the record's
        ("Ship it to my address. I'm pretty sure it's 132 Main Street.", "It will ship to 132 Main Street.",
         "132", "contradicted"),
        ("What did I pay? I think it was 425.05.", "You paid $425.05 for order W1.", "$425.05", "contradicted"),
        # the user's own number that no record holds near it is the user's word
        ("Please use gate 977 as the drop-off.", "The driver will drop it off at gate 977.", "977", "supported"),
        # the record's own number is backed by the record
        ("I'm pretty sure it's 132.", "It will ship to 123 Main Street.", "123", "supported"),
    ],
)
def test_a_number_only_the_user_gives_one_digit_off_the_records(question, answer, text, verdict) -> None:
    report = check(answer, ORDER, context=[question])
    fact = next(f for c in report.claims for f in c.facts if f.text == text)
    assert fact.verdict.value == verdict


def test_a_number_longer_than_an_amount_is_no_misremembered_one() -> None:
    tools = [{"name": "get_card", "args": {}, "output": {"card_number": 4111111111111112}}]
    report = check("Your card 4111111111111111 is on file.", tools, context=["my card is 4111111111111111"])
    assert all(f.code != "user_over_record" for c in report.claims for f in c.facts)


@pytest.mark.parametrize(
    ("answer", "text", "near"),
    [
        # no one gave it, and the record holds a number of four digits or more one digit off it: a misread
        ("The tracking code is 88321.", "88321", "88231"),
        ("You paid $1,249.50 for the order.", "$1,249.50", "1294.5"),
        # three digits are too few: a worked-out figure is often one digit off some number by chance
        ("That is about 129 per item.", "129", None),
        # nothing near it
        ("You paid $7,777.00 for the order.", "$7,777.00", None),
    ],
)
def test_an_unfound_number_shows_the_records_number_one_digit_off(answer, text, near) -> None:
    tools = [{"name": "get_order", "args": {}, "output": {"order_id": 88231, "total": 1294.5, "items": 139}}]
    fact = next(f for c in check(answer, tools).claims for f in c.facts if f.text == text)
    assert fact.verdict.value == "unsupported" and fact.code == "not_found"
    if near is None:
        assert fact.evidence == [] and fact.strength == "absent"
    else:
        assert [e.text for e in fact.evidence] == [near] and fact.strength == "near"
        assert "one digit apart" in fact.reason


TRIP = [{"name": "get_trip", "args": {"trip_id": "TR-7Q2K9"},
         "output": {"trip_id": "TR-7Q2K9", "fare": {"subtotal": 27.12, "surge_multiplier": 1.2, "surge_amount": 5.42},
                    "deductible": {"limit": 1000, "met": 1000}, "max_hours_week": 45, "stops": [{"hours": 40}]}}]


@pytest.mark.parametrize(
    ("answer", "text", "near"),
    [
        # a short number said beside a word of a field one digit off it: that field, misread
        ("A 1.5x surge was in effect, which added $5.42.", "1.5", "1.2"),
        ("Your $1,500.00 deductible is now fully met.", "$1,500.00", "1000"),
        # no word of the field beside it, a word only of the list it is in, a limit's, or one past another number
        ("That is 1.5 times what you usually pay.", "1.5", None),
        ("The stops took 43 minutes.", "43", None),
        ("Week 49 was rejected.", "49", None),
        ("You logged 120.5 hours across weeks 45 to 47.", "47", None),
    ],
)
def test_a_short_number_beside_its_fields_word_shows_the_fields_number(answer, text, near) -> None:
    fact = next(f for c in check(answer, TRIP).claims for f in c.facts if f.text == text)
    assert fact.verdict.value == "unsupported" and fact.code == "not_found"
    if near is None:
        assert fact.strength == "absent", fact.reason
    else:
        assert [e.text for e in fact.evidence] == [near] and fact.strength == "near"


ORDERS = [{"name": "get_user_details", "args": {"user_id": "u1"},
           "output": {"user_id": "u1", "orders": ["#W7449508", "#W2692684"],
                      "payment_methods": [{"id": "paypal_3024827", "source": "paypal"}]}},
          {"name": "get_product_details", "args": {"product_id": "p1"},
           "output": {"variants": [{"item_id": "111", "price": 466.75}, {"item_id": "222", "price": 512.4}]}}]


@pytest.mark.parametrize(
    ("question", "answer", "text", "verdict", "code"),
    [
        # an identifier only the user gives, one edit from the record's: the user's word over the record
        ("I'm pretty sure it's #W7449608.", "Order ID: #W7449608", "#W7449608", "contradicted", "user_over_record"),
        ("I'm pretty sure it's paypal_3028427.", "The refund goes to PayPal (paypal_3028427).", "paypal_3028427",
         "contradicted", "user_over_record"),
        # nothing in the tools near it: the user's own identifier
        ("My gift card is GC-5512093.", "I'll use your gift card GC-5512093.", "GC-5512093", "supported", "context"),
        # the same over a field several options state (a variant's price), a digit off one of them
        ("I'm pretty sure it's $466.57.", "Price: $466.57", "$466.57", "contradicted", "user_over_record"),
        # a value asked for is the new value, not a misremembered one
        ("Please change it to $466.57.", "You'd like to change the price to $466.57.", "$466.57", None, None),
    ],
)
def test_the_users_word_one_edit_from_a_record(question, answer, text, verdict, code) -> None:
    report = check(answer, ORDERS, context=[question])
    fact = next(f for c in report.claims for f in c.facts if f.text == text)
    if verdict is None:
        assert fact.code != "user_over_record", fact
    else:
        assert (fact.verdict.value, fact.code) == (verdict, code), fact
