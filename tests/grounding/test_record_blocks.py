"""A record's key said over what only another record of its kind holds, and a list item's value of another call."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
C, S = Verdict.CONTRADICTED, Verdict.SUPPORTED


def _order(key: str, status: str, *items: tuple[str, str, float]) -> dict:
    return {"name": "get_order_details", "args": {"order_id": key}, "status": "ok", "output": {
        "order_id": key, "user_id": "mia_chen_1", "status": status,
        "address": {"address1": "12 Elm Street", "city": "Austin"},
        "items": [{"name": name, "item_id": item_id, "price": price} for name, item_id, price in items],
        "payment_history": [{"transaction_type": "payment", "amount": sum(p for *_, p in items),
                             "payment_method_id": "gift_card_5501"}]}}


USER = {"name": "get_user_details", "args": {"user_id": "mia_chen_1"}, "status": "ok", "output": {
    "user_id": "mia_chen_1", "orders": ["#W1000001", "#W2000002", "#W3000003"],
    "payment_methods": {"gift_card_5501": {"source": "gift_card", "balance": 40.0}}}}
RUN = [USER,
       _order("#W1000001", "pending", ("Desk Lamp", "5550001111", 64.5), ("Backpack", "5550002222", 88.0)),
       _order("#W2000002", "delivered", ("Tablet", "5550003333", 410.25))]


def _key_facts(report, key: str):
    return [f for c in report.claims for f in c.facts if f.text == key]


@pytest.mark.parametrize(
    ("answer", "key", "expected"),
    [
        # the block describes #W1000001 (its items) under another of the user's orders' keys, read or not
        ("- **Order ID:** #W3000003\n- **Items:** Desk Lamp, Backpack\n- **Status:** pending", "#W3000003", C),
        ("- **Order ID:** #W2000002\n- **Items:** Desk Lamp, Backpack\n- **Status:** pending", "#W2000002", C),
        ("The order #W3000003, which includes a desk lamp and a backpack, is pending.", "#W3000003", C),
        ("The tablet is in order #W3000003.", "#W3000003", C),
        ("订单 #W3000003 里有 Desk Lamp 和 Backpack，目前待发货。", "#W3000003", C),
        # the key that holds them
        ("- **Order ID:** #W1000001\n- **Items:** Desk Lamp, Backpack\n- **Status:** pending", "#W1000001", S),
        ("The tablet is in order #W2000002.", "#W2000002", S),
        # what the record lacks is no binding ("does not contain", "except", a question)
        ("Order #W3000003 does not contain a tablet.", "#W3000003", S),
        ("For order #W2000002, all items except the desk lamp were returned.", "#W2000002", S),
        # the other record is named in the answer too: the block may speak of both
        ("Order #W2000002 was delivered.\n\nThe tablet is in order #W3000003.", "#W3000003", S),
        # the block names the key's own things as well as another's
        ("The Desk Lamp is on its way. The Tablet (#W2000002) was delivered.", "#W2000002", S),
        # blocks apart: a blank line ends one
        ("The Desk Lamp is on its way.\n\nOrder #W3000003 was cancelled.", "#W3000003", S),
        # an item id the other record lacks: the answer knows the key's record from elsewhere
        ("- Order: #W3000003\n- Item: Tablet, item 5550009999", "#W3000003", S),
    ],
)
def test_a_key_said_over_another_records_things_is_a_wrong_record(answer, key, expected) -> None:
    facts = _key_facts(CHECKER.check(answer, RUN), key)
    assert facts and all(f.verdict == expected for f in facts), facts
    if expected == C:
        assert facts[0].code == "wrong_record" and ("w1000001" in facts[0].reason or "w2000002" in facts[0].reason)


def test_a_key_of_another_field_of_the_same_shape_is_no_record_key() -> None:
    """An item id shaped like a product's key (ten digits) is an item's field, not a record the block names."""
    product = {"name": "get_product_details", "args": {"product_id": "7770001111"}, "status": "ok",
               "output": {"product_id": "7770001111", "name": "Lamp", "variants": {
                   "5550004444": {"item_id": "5550004444", "price": 70.0, "available": True}}}}
    report = CHECKER.check("The cheapest one is item 5550004444, and your Backpack stays as it is.",
                           [*RUN, product])
    assert all(f.code != "wrong_record" for c in report.claims for f in c.facts)


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a price of an item of another order read by the same tool, on the line that names the item by its key
        ("- Desk Lamp (Item ID: 5550001111) — $410.25", C),
        ("- Desk Lamp (Item ID: 5550001111) — $64.50", S),
        # the same record in both calls ("#W1 … from $64.50 to …") is no other record
        ("- Tablet (Item ID: 5550003333) — $410.25", S),
    ],
)
def test_a_value_of_the_same_list_in_another_call_is_a_wrong_record(answer, expected) -> None:
    report = CHECKER.check(answer, RUN)
    amount = next(f for c in report.claims for f in c.facts if f.text.startswith("$"))
    assert amount.verdict == expected, amount
    if expected == C:
        assert amount.code == "wrong_record" and "64.5" in amount.reason
