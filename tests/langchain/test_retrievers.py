"""Retrieved documents as evidence: RAG chains, document tools, content-and-artifact tools, `check()`."""

from __future__ import annotations

from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from langchain_core.tools import tool
from langchain_core.vectorstores import InMemoryVectorStore

from factcheck import CheckerConfig, FactChecker, check
from factcheck.langchain import FactCheckMiddleware, get_run_report
from tests.langchain.conftest import TokenChatModel, call, scripted

DOCS = [
    Document(
        "Order 1042: the refund of $45.00 to the customer's card was completed on 2026-03-02.",
        metadata={"source": "refunds.md", "order_id": "1042"},
    ),
    Document("Orders ship within 3 business days.", metadata={"source": "shipping.md"}),
]
QUESTION = "Was the refund for order 1042 done?"
FAITHFUL = "The refund of $45 for order 1042 was completed on 2026-03-02."
WRONG_ID = "Refund RF-77812 of $45 for order 1042 was completed."
"""An invented refund id: flagged with confidence whatever the evidence's tool is named."""
WRONG_AMOUNT = "The refund of $54 for order 1042 was completed on 2026-03-02."
WRONG_STATUS = "Your refund for order 1042 failed."
EVERY_FLAG = FactChecker(CheckerConfig(min_confidence=0))
"""Acts on every flag: the verdicts read from documents, whatever confidence the calibration gives them."""
PROMPT = ChatPromptTemplate.from_messages([("system", "Answer from the context:\n{context}"), ("human", "{q}")])


class KeywordRetriever(BaseRetriever):
    """Returns the documents that share a word with the query."""

    docs: list[Document]

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        words = set(query.lower().split())
        return [d for d in self.docs if words & set(d.page_content.lower().split())]


def vector_retriever() -> Any:
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=16))
    store.add_documents(DOCS)
    return store.as_retriever(search_kwargs={"k": 2})


RETRIEVERS = {
    "keyword": (lambda: KeywordRetriever(docs=DOCS), "KeywordRetriever"),
    "in-memory vector store": (vector_retriever, "VectorStoreRetriever"),
}


def rag_chain(retriever: Any, model: Any) -> Any:
    return {"context": retriever, "q": RunnablePassthrough()} | PROMPT | model


@pytest.mark.parametrize("kind", list(RETRIEVERS))
@pytest.mark.parametrize(
    ("replies", "outcome", "final"),
    [
        ([FAITHFUL], "passed", FAITHFUL),
        ([WRONG_ID, FAITHFUL], "retried", FAITHFUL),
        ([WRONG_ID, WRONG_ID], "dropped", None),  # the retry's query quotes the id: it backs nothing
    ],
)
def test_rag_chain_answers_are_checked_against_the_retrieved_documents(kind, replies, outcome, final):
    make, name = RETRIEVERS[kind]
    model = scripted(*replies)
    chain = rag_chain(make(), model).with_fact_check(max_retries=1, return_report=True)
    out, run = chain.invoke(QUESTION)
    assert run.outcome == outcome
    assert model.calls == len(replies)
    if final is None:
        assert "RF-77812" not in out.content
    else:
        assert out.content == final
        evidence = run.attempts[-1].claims[0].evidence[0]
        assert (evidence.tool_name, evidence.path) == (name, evidence.path)
        assert "refund of $45.00" in evidence.text


@pytest.mark.parametrize(("replies", "outcome"), [([FAITHFUL], "passed"), ([WRONG_ID, FAITHFUL], "retried")])
def test_rag_chain_stream_releases_only_checked_text(replies, outcome):
    chain = rag_chain(KeywordRetriever(docs=DOCS), TokenChatModel(messages=iter(replies)))
    pairs = list(chain.with_fact_check(max_retries=1, return_report=True).stream(QUESTION))
    text = "".join(c.content for c, _ in pairs if c is not None)
    assert text == FAITHFUL
    assert pairs[-1][1].outcome == outcome


@pytest.mark.parametrize(
    ("replies", "outcome", "shown"),
    [([FAITHFUL], "passed", FAITHFUL), ([WRONG_ID, WRONG_ID], "dropped", "Sorry, I could not confirm")],
)
async def test_rag_chain_astream_events_never_show_a_flagged_answer(replies, outcome, shown):
    chain = rag_chain(vector_retriever(), TokenChatModel(messages=iter(replies))).with_fact_check(max_retries=1)
    events = [e async for e in chain.astream_events(QUESTION, version="v2")]
    streamed = "".join(
        e["data"]["chunk"].content for e in events if e["event"] == "on_chat_model_stream"
    )
    report = next(e["data"] for e in events if e["event"] == "on_custom_event" and e["name"] == "fact_check")
    assert report["outcome"] == outcome
    assert "RF-77812" not in streamed
    assert streamed.startswith(shown)
    assert any(e["event"] == "on_retriever_end" for e in events)


@tool(response_format="content_and_artifact")
def search_refunds(query: str) -> tuple[str, list[Document]]:
    """Search the refund records."""
    return f"found {len(DOCS)} documents", DOCS


@tool
def refund_documents(query: str) -> list[Document]:
    """Return the refund records as documents."""
    return DOCS


@pytest.mark.parametrize("where", ["wrapper", "middleware"])
@pytest.mark.parametrize(("answer", "ok"), [(FAITHFUL, True), (WRONG_ID, False)])
def test_agent_tool_returning_content_and_artifact_is_evidence(answer, ok, where):
    model = scripted(call("search_refunds", {"query": "1042"}, "c1"), answer)
    if where == "middleware":
        agent = create_agent(model, [search_refunds], middleware=[FactCheckMiddleware(max_retries=0)])
    else:
        agent = create_agent(model, [search_refunds]).with_fact_check(max_retries=0)
    run = get_run_report(agent.invoke({"messages": [("user", QUESTION)]}))
    claim = run.attempts[0].claims[0]
    assert run.attempts[0].ok is ok
    assert claim.evidence and claim.evidence[0].tool_name == "search_refunds"
    assert claim.evidence[0].path.startswith("artifact[")


@pytest.mark.parametrize(("answer", "ok"), [(FAITHFUL, True), (WRONG_ID, False)])
def test_chain_tool_returning_documents_is_evidence_named_after_it(answer, ok):
    chain = (
        {"context": RunnableLambda(lambda q: {"query": q}) | refund_documents, "q": RunnablePassthrough()}
        | PROMPT
        | scripted(answer)
    )
    _, run = chain.with_fact_check(max_retries=0, return_report=True).invoke(QUESTION)
    claim = run.attempts[0].claims[0]
    assert run.attempts[0].ok is ok
    assert claim.evidence[0].tool_name == "refund_documents"


@pytest.mark.parametrize(
    ("evidence", "path"),
    [
        (DOCS[0], "page_content"),
        (DOCS, "[0].page_content"),
        ({"name": "kb", "output": DOCS}, "[0].page_content"),
        (ToolMessage("found 2 documents", tool_call_id="t1", name="kb", artifact=DOCS), "artifact[0].page_content"),
    ],
    ids=["document", "list", "mapping", "tool message artifact"],
)
@pytest.mark.parametrize(("answer", "verdict"), [(FAITHFUL, "supported"), (WRONG_AMOUNT, "contradicted")])
def test_check_accepts_documents(evidence, path, answer, verdict):
    report = EVERY_FLAG.check(answer, [evidence])
    assert report.claims[0].verdict == verdict
    assert report.claims[0].evidence[0].path == path


def test_document_metadata_is_evidence_too():
    doc = Document("Refund completed.", metadata={"order_id": "1042", "amount": 45})
    assert EVERY_FLAG.check("The refund of $45 for order 1042 was completed.", [doc]).ok
    assert not EVERY_FLAG.check("The refund of $46 for order 1042 was completed.", [doc]).ok


def test_an_ai_message_is_still_not_evidence():
    with pytest.raises(TypeError, match="LangChain Document"):
        check(FAITHFUL, [AIMessage(FAITHFUL)])
