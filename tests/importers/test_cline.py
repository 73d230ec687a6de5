"""Cline, Roo Code and Kilo Code tasks, read from the hand-written cases (cases/valid/cline_*.json and
roo_code_*.json, written from the layout of real tasks' ui_messages.json and api_conversation_history.json):
one call per api_req_started row with its usage and cost, the model, the window the environment details
name, the log's own compactions, and a task folder's two files read together."""

import json
import shutil
from pathlib import Path

import pytest

from compaction import check_pairs
from compaction.agents import agent_of
from compaction.errors import ConversationError
from compaction.importers import load_conversation

CASES = Path(__file__).parent / "cases" / "valid"
PANEL, HISTORY = "cline_panel_truncation.json", "cline_history_metrics.json"


def rows(name: str) -> list:
    return json.loads((CASES / name).read_text(encoding="utf-8"))


def plain_requests(name: str) -> tuple[int, int, float]:
    """Counted plainly from the raw rows: the api_req_started rows, their tokens as Roo's getApiMetrics adds
    them (the cache's counts too, but for the "openai" protocol, whose tokensIn holds the cached ones), their
    costs."""
    count, tokens, cost = 0, 0, 0.0
    for row in rows(name):
        if row.get("say") == "api_req_started":
            info = json.loads(row["text"])
            count += 1
            keys = ("tokensIn", "tokensOut") if info.get("apiProtocol") == "openai" else (
                "tokensIn", "tokensOut", "cacheWrites", "cacheReads")
            tokens += sum(info.get(key, 0) for key in keys)
            cost += info.get("cost", 0)
    return count, tokens, cost


def loaded_requests(conversation) -> tuple[int, int, float]:
    calls = sum(1 for message in conversation.messages if message["role"] == "assistant")
    usage = [u for u in conversation.usage if u]
    tokens = sum(u["input_tokens"] + u["output_tokens"] + u["cache_creation_input_tokens"] + u["cache_read_input_tokens"]
                 for u in usage)
    return calls, tokens, sum(u.get("cost_usd", 0.0) for u in usage)


@pytest.mark.parametrize("name", [PANEL, "roo_code_panel_condense.json"])
def test_calls_usage_and_cost_equal_a_plain_count_of_the_rows(name):
    conversation = load_conversation(CASES / name)
    calls, tokens, cost = loaded_requests(conversation)
    plain_calls, plain_tokens, plain_cost = plain_requests(name)
    assert (calls, tokens) == (plain_calls, plain_tokens)
    assert cost == pytest.approx(plain_cost, abs=1e-12)
    assert conversation.metadata["recorded_totals"]["cost_usd"] == pytest.approx(plain_cost, abs=1e-12)


def test_each_file_loads_as_the_extension_that_wrote_it():
    assert load_conversation(CASES / PANEL).format == "cline" and agent_of("cline").title == "Cline"
    assert load_conversation(CASES / HISTORY).format == "cline"
    assert load_conversation(CASES / "roo_code_panel_condense.json").format == "roo-code"
    assert load_conversation(CASES / "roo_code_history_condensed.json").format == "roo-code"
    assert agent_of("roo-code").title == "Roo Code" and agent_of("kilo-code").title == "Kilo Code"
    kilo = load_conversation(CASES / "roo_code_panel_condense.json", format="kilo-code")
    assert kilo.format == "kilo-code"  # a fork writes what Roo Code writes: named by the format asked for


def test_the_model_the_window_and_cline_truncation_come_from_the_panel():
    conversation = load_conversation(CASES / PANEL)
    metadata = conversation.metadata
    assert metadata["models"] == ["claude-sonnet-4-5-20250929"]
    assert metadata["model_window_tokens"] == 200_000  # "# Context Window Usage ... / 200K tokens used"
    [boundary] = metadata["compact_boundaries"]
    # the range [2, 3] appears on the rows after the fifth request: that request's turn is the new start,
    # after a request of 6 + 140 + 400 + 161,200 tokens (past Cline's 160,000 for a 200K window)
    assert (boundary["index"], boundary["trigger"], boundary["deleted_range"]) == (8, "truncation", [2, 3])
    assert boundary["pre_tokens"] == 161_746
    assert check_pairs(conversation.messages[:-1]) == []  # the last call waits for its result: the task ended


def test_roo_condense_and_truncation_rows_are_compactions_with_their_tokens():
    boundaries = load_conversation(CASES / "roo_code_panel_condense.json").metadata["compact_boundaries"]
    assert [(b["index"], b["trigger"], b["pre_tokens"], b["post_tokens"]) for b in boundaries] == [
        (2, "condense", 29_340, 2_100), (4, "truncation", 2_600, 2_450)]


def test_roo_history_marks_its_summary_and_the_messages_it_hid():
    conversation = load_conversation(CASES / "roo_code_history_condensed.json")
    assert conversation.metadata["compact_summary_indices"] == [3]
    assert conversation.metadata["messages_hidden_by_compactions"] == 3
    assert [b["index"] for b in conversation.metadata["compact_boundaries"]] == [3]
    assert all(set(message) == {"role", "content"} for message in conversation.messages)  # ts and tags set aside


def test_cline_history_results_written_as_text_answer_their_calls():
    conversation = load_conversation(CASES / HISTORY)
    assert conversation.metadata["tool_results_read_from_text"] == 2
    assert check_pairs(conversation.messages) == []
    assert [u["cost_usd"] for u in conversation.usage if u and "cost_usd" in u] == [0.0304, 0.0033]


def task_folder(tmp_path: Path, storage: str = "saoudrizwan.claude-dev") -> Path:
    """A task folder made of the panel case and a history that matches it, message for message."""
    folder = tmp_path / storage / "tasks" / "1767225600000"
    folder.mkdir(parents=True)
    shutil.copy(CASES / PANEL, folder / "ui_messages.json")
    panel = load_conversation(CASES / PANEL)
    history = [{**message, "ts": 1767225600000 + index} for index, message in enumerate(panel.messages)]
    (folder / "api_conversation_history.json").write_text(json.dumps(history), encoding="utf-8")
    return folder


def test_a_task_folder_reads_both_files(tmp_path):
    folder = task_folder(tmp_path)
    for path in (folder, folder / "ui_messages.json", folder / "api_conversation_history.json"):
        conversation = load_conversation(path)
        assert conversation.format == "cline" and conversation.metadata["file"] == "task folder"
        assert loaded_requests(conversation)[1:] == plain_requests(PANEL)[1:]  # every request's usage on its reply
        assert [b["index"] for b in conversation.metadata["compact_boundaries"]] == [8]
        assert conversation.usage[3]["cost_usd"] == 0.0102  # the second request, at index 1 + 2
    alone = load_conversation((folder / "ui_messages.json").read_bytes(), name="ui_messages.json")
    assert alone.metadata["file"] == "ui_messages.json"  # uploaded bytes: only that file


def test_the_storage_folder_names_the_fork(tmp_path):
    assert load_conversation(task_folder(tmp_path, "kilocode.kilo-code")).format == "kilo-code"


@pytest.mark.parametrize("text, words", [
    ("not json", "whose text is not JSON"), ("[1, 2]", "not a JSON object")])
def test_a_request_row_that_cannot_be_read_is_a_call_without_usage(text, words):
    broken = rows(PANEL)
    broken[2]["text"] = text
    conversation = load_conversation(json.dumps(broken).encode(), name="ui_messages.json")
    assert any(words in str(warning) for warning in conversation.warnings)
    assert conversation.usage[1] is None and conversation.messages[0]["content"]


def test_a_panel_of_other_rows_is_refused_by_name():
    with pytest.raises(ConversationError, match="ui_messages.json: no model request"):
        load_conversation(b'[{"ts": 1, "type": "say", "say": "task", "text": "hi"}]', name="ui_messages.json")


def test_a_history_alone_shows_where_the_usage_line_fell_and_the_window():
    metadata = load_conversation(CASES / HISTORY).metadata
    assert metadata["model_window_tokens"] == 200_000  # "9,870 / 200K tokens used"
    assert metadata["context_usage_falls"] == [{"index": 2, "tokens_before": 9_870, "tokens_after": 8_102}]


def test_a_corpus_lists_a_task_folder_once(tmp_path):
    from compaction.corpus import discover

    folder = task_folder(tmp_path)
    (tmp_path / "other.json").write_text(json.dumps(rows(PANEL)), encoding="utf-8")
    found = [item.relative for item in discover(tmp_path) if item.refused is None]
    assert sorted(found) == ["other.json", str((folder / "ui_messages.json").relative_to(tmp_path))]
