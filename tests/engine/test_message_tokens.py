"""Each message's tokens from what the log recorded between two calls (model/message_tokens.py): the
whole history at each call sums to what the call recorded; where the log compacted or its context fell,
the token model's rate; a changed message weighs its share, a made one what the caller says."""

from compaction.importers import load_conversation
from compaction.model.calibration import recorded_context
from compaction.model.history import prepare
from compaction.model.message_tokens import history_tokens, message_tokens

from .claude_code_lines import LogLines


def _log(tmp_path):
    log = LogLines("2.0.76")
    log.prompt("Read the modules.")
    contexts = (21_000, 23_500, 24_000, 41_000, 30_000)  # a screenshot-like cheap result, then a drop
    outputs = ("a" * 10_000, "b" * 1_500, "c" * 60_000, "d" * 2_000, "e" * 100)
    for n, (context, output) in enumerate(zip(contexts, outputs, strict=True)):
        log.call(context, "Read", {"file_path": f"/app/m{n}.py"}, output)
    log.compaction(41_500, "Summary: read m0-m4.")
    for context in (12_000, 14_000):
        log.call(context, "Bash", {"command": "make"}, "f" * 3_000)
    log.answer(15_000)
    return prepare(load_conversation(log.write(tmp_path)))


def test_the_whole_history_at_each_call_weighs_what_the_call_recorded(tmp_path):
    history = _log(tmp_path)
    calls = [i for i, u in enumerate(history.recorded.usage) if u]
    boundary = history.recorded.boundaries[0]["index"]
    for index in calls:
        if index < boundary and index <= calls[3]:  # before the drop (call 4) every stretch is measured
            part = history.derive(history.originals[:index], history.prepared.sizes[:index], list(range(index)))
            assert abs(history_tokens(part) - recorded_context(history.recorded.usage[index])) <= 1


def test_a_drop_and_a_compaction_leave_the_token_models_rate(tmp_path):
    history = _log(tmp_path)
    weights, fixed = message_tokens(history)
    calls = [i for i, u in enumerate(history.recorded.usage) if u]
    rate = history.token_model.content_tokens(1_000_000) / 1_000_000
    sizes = history.prepared.sizes
    assert fixed == recorded_context(history.recorded.usage[calls[0]]) - rate * (sizes[0] + 2)
    dropped = range(calls[3], calls[4])  # the context fell: what came in is not known
    assert all(abs(weights[i] - rate * (sizes[i] + 2)) < 1e-9 for i in dropped)
    across = range(calls[4], calls[5])  # the agent compacted in between
    assert all(abs(weights[i] - rate * (sizes[i] + 2)) < 1e-9 for i in across)
    grown = range(calls[5], calls[6])  # after the compaction: 2,000 tokens over these messages
    assert abs(sum(weights[i] for i in grown) - 2_000) < 1e-6


def test_a_changed_message_weighs_its_share_and_a_made_one_what_it_is_said_to(tmp_path):
    history = _log(tmp_path)
    weights, fixed = message_tokens(history)
    first = [history.originals[0], history.originals[1], {**history.originals[2], "content": "cleared"}]
    sizes = [history.prepared.sizes[0], history.prepared.sizes[1], len(str(first[2]))]
    changed = history.derive(first, sizes, [0, 1, 2])
    share = weights[2] * (sizes[2] + 2) / (history.prepared.sizes[2] + 2)
    assert history_tokens(changed) == round(fixed + weights[0] + weights[1] + share)
    made = {"role": "user", "content": "a summary"}
    summary = history.derive([made], [len(str(made))], [None])
    assert history_tokens(summary, {id(made): (made, 9_000)}) == round(fixed + 9_000)
    other = {"role": "user", "content": "a summary"}  # the same id would not be another message's
    assert history_tokens(summary, {id(made): (other, 9_000)}) != round(fixed + 9_000)
