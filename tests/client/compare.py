"""The prediction checked: what a compacting client sent, as the fake Messages API received it, against a
replay of the same conversation with the same strategy and settings, call by call; then its trace read
back as a session with the usage the API answered."""

from compaction.importers import load_conversation
from compaction.importers.trace import read_trace
from compaction.replay.loop import ReplayResult
from tests.client.scripted import ScriptedModel, request_tokens


def assert_same_calls(result: ReplayResult, fake, model: ScriptedModel, calls: int | None = None) -> int:
    """Every accepted request equals the replay's history at its call: the same messages, the same size
    (len(str(messages)), the tutorial's measure) and the same tokens; the refused ones are the replay's
    reactive compactions. Returns how many calls were compared."""
    sent = fake.answered(200)
    compared = len(result.calls) if calls is None else calls
    assert len(sent) >= compared, f"the client made {len(sent)} calls, the replay {len(result.calls)}"
    for record, body in zip(result.calls[:compared], sent, strict=False):
        history = result.history(record.call)
        assert body["messages"] == history.messages, f"call {record.call}: messages differ"
        assert len(str(body["messages"])) == history.size, f"call {record.call}: sizes differ"
        assert request_tokens(body, model.token_model) == record.tokens, f"call {record.call}: tokens differ"
    refused = len(fake.answered(400))
    assert refused == sum(1 for c in result.calls[:compared] if "reactive" in c.acted)
    return compared


def assert_trace_matches(trace_path, result: ReplayResult, model: ScriptedModel, calls: int | None = None) -> None:
    """The trace says what the replay says (what acted at each call, what was sent), and reads back as a
    session whose recorded usage is what the API answered."""
    compared = len(result.calls) if calls is None else calls
    trace = read_trace(trace_path)
    for record, traced in zip(result.calls[:compared], trace.calls, strict=False):
        assert traced.acted == record.acted, f"call {record.call}: the trace says {traced.acted}, the replay {record.acted}"
        assert traced.sent == result.history(record.call).messages
        assert traced.sent_chars == record.chars
    session = load_conversation(trace_path)
    assert session.format == "compaction-trace"
    recorded = [u for u in session.usage if u is not None]
    assert len(recorded) == len(trace.calls) == len(model.usage)
    for usage, answered in zip(recorded, model.usage, strict=True):
        assert usage["input_tokens"] == answered["input_tokens"]
        assert usage["output_tokens"] == answered["output_tokens"]
    summaries = [c.call for c in result.calls[:compared] if c.summaries > (result.calls[c.call - 1].summaries
                                                                           if c.call else 0)]
    boundaries = session.metadata["compact_boundaries"]
    assert [b["index"] for b in boundaries][:len(summaries)] == [result.calls[c].index for c in summaries]
