"""Which call of a repeated tool a claim names, and the user's word against a record's own value."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict
from factcheck.grounding.calls import repeated_tool
from factcheck.grounding.evidence import EvidenceIndex

CHECKER = FactChecker(CheckerConfig(min_confidence=0))  # grounding verdicts, before any abstention
S, C = Verdict.SUPPORTED, Verdict.CONTRADICTED


def call(name: str, args: dict, output) -> dict:
    return {"name": name, "args": args, "output": output, "status": "ok"}


STOCKS = [call("get_stock_price", {"symbol": "AAPL"}, {"price": 150.75}),
          call("get_stock_price", {"symbol": "MSFT"}, {"price": 216.25})]
TAXES = [call("calculate_tax", {"income": 50000, "tax_rate": 20}, {"tax_amount": 10000}),
         call("calculate_tax", {"income": 60000, "tax_rate": 20}, {"tax_amount": 12000})]
SITES = [call("check_website_availability", {"website_url": "www.a-shop.com"}, {"status": "failed"}),
         call("check_website_availability", {"website_url": "www.b-shop.com"}, {"status": "success"})]


def number_verdicts(answer: str, tools: list, context: tuple[str, ...] = ()) -> list[tuple[str, Verdict, str]]:
    return [(f.text, f.verdict, f.code) for claim in CHECKER.check(answer, tools, context).claims
            for f in claim.facts if f.kind.value == "number"]


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # the claim names the MSFT call by its argument; 150.75 is the AAPL call's price
        ("The current price of Microsoft's stock (MSFT) is $150.75.", STOCKS, [("$150.75", C, "wrong_record")]),
        ("The current price of Microsoft's stock (MSFT) is $216.25.", STOCKS, [("$216.25", S, "match")]),
        # each clause names its own call
        ("AAPL is at $150.75 and MSFT at $216.25.", STOCKS, [("$150.75", S, "match"), ("$216.25", S, "match")]),
        # a value both calls ran with (tax_rate 20) names neither; the income names the second
        ("If your income is $60000, your tax will be $10000.", TAXES,
         [("$60000", S, "match"), ("$10000", C, "wrong_record")]),
        ("If your income is $60000, your tax will be $12000.", TAXES, [("$60000", S, "match"), ("$12000", S, "match")]),
        # a claim naming no call cannot take a value from the wrong one
        ("The price is $150.75.", STOCKS, [("$150.75", S, "match")]),
    ],
)
def test_a_value_of_another_call_than_the_one_named_is_a_wrong_record(answer, tools, expected):
    assert number_verdicts(answer, tools) == expected


ONE_PRICE = [call("get_stock_price", {"symbol": "AAPL"}, {"price": 150.75})]
OPTIONS = [call("search_laptops", {}, {"results": [{"price": 1890.0}, {"price": 2459.74}]})]
ADDRESS = [call("get_order_details", {"order_id": "#W1"}, {"order_id": "#W1", "suite": 640})]


@pytest.mark.parametrize(
    ("answer", "tools", "context", "expected"),
    [
        # the user's belief does not outrank the one price the record holds
        ("The current price of AAPL is $160.75.", ONE_PRICE, ("I'm pretty sure it's $160.75.",), C),
        # a value asked for ("change it to") may be the user's
        ("I will change the suite to 641.", ADDRESS, ("Please change the suite to 641.",), S),
        # options the user chooses among: the user's budget is no record's value
        ("Both laptops cost more than your budget of $1,500.", OPTIONS, ("My budget is $1,500.",), S),
        # a rule the context states
        ("By policy, the suite number can only be 641.", ADDRESS, ("Policy: suites are numbered from 641.",), S),
    ],
)
def test_the_users_word_backs_a_number_only_where_no_record_states_its_field(answer, tools, context, expected):
    claimed = [v for _, v, _ in number_verdicts(answer, tools, context)]
    assert claimed[-1] == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a bare status said of the read the claim names by its argument
        ("Sorry, the site www.b-shop.com failed the check.", C),
        ("The check of www.a-shop.com failed.", S),
        ("The check of www.b-shop.com succeeded.", S),
    ],
)
def test_a_bare_status_is_compared_with_the_read_the_claim_names(answer, expected):
    report = CHECKER.check(answer, SITES)
    statuses = [f.verdict for claim in report.claims for f in claim.facts if f.kind.value in ("status", "action")]
    assert statuses == [expected]


ORDERS = [call("get_order_details", {"order_id": "#W7710233"}, {
              "order_id": "#W7710233", "status": "shipped", "items": [{"name": "Headphones"}],
              "fulfillments": [{"carrier": "UPS", "tracking_id": ["681934420017"]}]}),
          call("get_order_details", {"order_id": "#W7710961"}, {
              "order_id": "#W7710961", "status": "shipped", "items": [{"name": "Running Shoes"}],
              "fulfillments": [{"carrier": "FedEx", "tracking_id": ["772015398644"]}]})]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # another order's tracking number, given for the order the clause names
        ("Your headphones (order #W7710233) ship with tracking number 772015398644.", C),
        ("Your headphones (order #W7710233) ship with tracking number 681934420017.", S),
        # an arrow or "change to" makes it a value asked for, from any record
        ("#W7710233 → tracking 772015398644", S),
    ],
)
def test_an_identifier_of_another_call_than_the_one_named_is_a_wrong_record(answer, expected):
    report = CHECKER.check(answer, ORDERS)
    ids = [f.verdict for c in report.claims for f in c.facts if f.text in ("772015398644", "681934420017")]
    assert ids == [expected]


@pytest.mark.parametrize(
    ("tools", "expected"),
    [
        (STOCKS, True),
        ([STOCKS[0], {**STOCKS[1], "status": "error"}], True),  # a failed call of the tool is still another call
        (STOCKS[:1], False),
        ([STOCKS[0], TAXES[0], SITES[0]], False),
        ([], False),
    ],
)
def test_repeated_tool(tools: list, expected: bool) -> None:
    """Only a tool called twice or more can give a value of another call than the one named: else the checks of
    another call's value are skipped."""
    index = EvidenceIndex(tools, [], CHECKER.config, CHECKER.lexicon, CHECKER._mentions, CHECKER._statuses)
    assert repeated_tool(index) is expected


INVOICES = [call("get_invoice", {"invoice_id": "INV-2511-88213"}, {"invoice_id": "INV-2511-88213", "total": 135.87}),
            call("get_invoice", {"invoice_id": "INV-2510-80377"}, {"invoice_id": "INV-2510-80377", "total": 114.2})]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a value after a comparison is the compared record's
        ("Your invoice INV-2511-88213 comes to $135.87, which is $21.67 more than October's $114.20.",
         [("$135.87", S, "match"), ("$21.67", S, "derived"), ("$114.20", S, "match")]),
        ("Your invoice INV-2511-88213 comes to $114.20.", [("$114.20", C, "wrong_record")]),
    ],
)
def test_a_value_after_a_comparison_is_the_compared_records(answer: str, expected: list) -> None:
    assert number_verdicts(answer, INVOICES) == expected
