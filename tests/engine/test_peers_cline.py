"""Cline's truncation and Roo Code's / Kilo Code's condense, worked out by hand from their sources on
generated chats and on the hand-written task cases, and the settings each exports."""

import json
from pathlib import Path

import pytest

from compaction import check_pairs, generate, replay
from compaction.agents.cline.cline_preset import max_allowed, removed
from compaction.agents.cline.export_form import window_for_trigger
from compaction.agents.cline.knobs import CLINE_KNOBS, ROO_KNOBS
from compaction.agents.cline.markers import ROO_SUMMARY_PREFIX, TRUNCATION_NOTICE
from compaction.export import export
from compaction.importers import load_conversation
from compaction.model.history import prepare
from compaction.strategies import build
from compaction.strategies.knobs import Regime

CASES = Path(__file__).parents[1] / "importers" / "cases" / "valid"


@pytest.mark.parametrize("window, trigger", [(64_000, 37_000), (128_000, 98_000), (200_000, 160_000),
                                             (256_000, 216_000), (1_000_000, 960_000), (32_000, 25_600)])
def test_the_trigger_is_get_context_window_info(window, trigger):
    assert max_allowed(window) == trigger


def test_half_and_three_quarters_of_the_messages_after_the_first_pair():
    # getNextTruncationRange: floor(n / 4) * 2 and floor(3n / 8) * 2, always even
    assert [removed(n, False) for n in (4, 7, 8, 30)] == [2, 2, 4, 14]
    assert [removed(n, True) for n in (4, 7, 8, 30)] == [2, 4, 6, 22]


def said(role: str, number: int, chars: int) -> dict:
    return {"role": role, "content": f"{role} {number} ".ljust(chars, "x")}


def test_cline_keeps_the_first_pair_and_drops_half_with_its_notice():
    messages = [said("user" if i % 2 == 0 else "assistant", i, 2_000) for i in range(31)]
    result = replay(messages, strategy=build("cline", {"max_allowed_tokens": 5_000}), keep_histories=True)
    first = next(record for record in result.calls if record.acted)
    assert first.acted == ("forget",)
    sent = result.history(first.call)
    assert sent.origins[:2] == [0, 1] and sent.messages[1]["content"][-1]["text"] == TRUNCATION_NOTICE
    before = first.index  # the messages Cline held: the pending turn at `before`
    dropped = removed(before + 1 - 2, False)
    assert sent.origins[2] == 2 + dropped  # the first kept after the pair follows the dropped run


def test_on_a_generated_coding_session_every_request_keeps_its_pairs():
    messages = generate("realistic", turns=120, seed=11)
    for strategy in (build("cline", {"max_allowed_tokens": 20_000}),
                     build("cline", {"max_allowed_tokens": 20_000, "auto_condense": True}),
                     build("roo-code", {"condense_percent": 10, "window_tokens": 200_000}),
                     build("kilo-code", {"auto_condense": False, "window_tokens": 30_000})):
        result = replay(messages, strategy=strategy, keep_histories=True)
        assert any(record.acted for record in result.calls)
        for record in result.calls:
            assert check_pairs(result.history(record.call).messages) == []


def test_cline_truncates_at_the_request_the_task_did():
    conversation = load_conversation(CASES / "cline_panel_truncation.json")
    [boundary] = conversation.metadata["compact_boundaries"]
    result = replay(conversation, strategy=build("cline"), keep_histories=True)
    acted = [record.index for record in result.calls if record.acted]
    assert acted[0] == boundary["index"] + 1  # the reply of the request whose turn the log starts anew at


def test_roo_condenses_everything_into_a_fresh_start_at_its_share():
    messages = [said("user" if i % 2 == 0 else "assistant", i, 4_000) for i in range(21)]
    result = replay(messages, strategy=build("roo-code", {"condense_percent": 5, "window_tokens": 100_000}),
                    keep_histories=True)
    first = next(record for record in result.calls if record.acted)
    assert first.acted == ("condense",)
    sent = result.history(first.call)
    assert sent.messages[0]["content"].startswith(ROO_SUMMARY_PREFIX)
    assert all(origin is None for origin in sent.origins[:1]) and len(sent.messages) <= 2


def test_without_condensing_roo_hides_half_after_the_first_behind_a_marker():
    messages = [said("user" if i % 2 == 0 else "assistant", i, 4_000) for i in range(21)]
    result = replay(messages, strategy=build("roo-code", {"auto_condense": False, "window_tokens": 20_000}),
                    keep_histories=True)
    first = next(record for record in result.calls if record.acted)
    sent = result.history(first.call)
    assert first.acted == ("forget",) and sent.origins[0] == 0
    assert sent.messages[1]["content"].startswith("[Sliding window truncation: ")


def test_knobs_hold_the_default():
    history = prepare(load_conversation(CASES / "cline_panel_truncation.json"))
    regime = Regime.of(history, 200_000)
    assert CLINE_KNOBS[0].default(regime) == 160_000 in CLINE_KNOBS[0].values(regime)
    assert ROO_KNOBS[0].default(regime) == 100 in ROO_KNOBS[0].values(regime)


def test_each_export_carries_the_setting_the_replay_used():
    conversation = load_conversation(CASES / "cline_panel_truncation.json")
    roo = export(build("roo-code", {"condense_percent": 70}), form="roo-code")
    assert json.loads(roo.text) == {"globalSettings": {"autoCondenseContext": True, "autoCondenseContextPercent": 70}}
    kilo = export(build("kilo-code", {"condense_percent": 55}), form="kilo-code")
    assert json.loads(kilo.text)["globalSettings"]["autoCondenseContextPercent"] == 55
    cline = export(build("cline", {"max_allowed_tokens": 98_000, "auto_condense": True}), form="cline")
    assert json.loads(cline.text) == {"useAutoCondense": True}
    assert any('"contextWindow": 128000' in note for note in cline.notes)
    assert window_for_trigger(max_allowed(300_000)) == 300_000 and conversation.format == "cline"


def test_as_recorded_keeps_the_head_cline_kept_with_valid_pairs(tmp_path):
    conversation = load_conversation(CASES / "cline_panel_truncation.json")
    [boundary] = conversation.metadata["compact_boundaries"]
    assert boundary["kept"] == [0, 1, 4, 5, 6, 7]  # the first pair, then what follows the deleted range [2, 3]
    result = replay(conversation, strategy=build("as-recorded"), keep_histories=True)
    sent = result.history(result.calls[-1].call)
    assert sent.origins == [0, 1, 4, 5, 6, 7, 8] and check_pairs(sent.messages) == []


def read(path: str, body: str) -> list[dict]:
    """A read_file call and its result as Cline writes them."""
    call = {"role": "assistant", "content": [{"type": "tool_use", "id": f"r{len(body)}{path}", "name": "read_file",
                                              "input": {"path": path}}]}
    return [call, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call["content"][0]["id"],
                                                "content": f"[read_file for '{path}'] Result:\n{body}"}]}]


def test_repeated_file_reads_become_notices_and_spare_the_truncation():
    from compaction.agents.cline.markers import FILE_READ_NOTICE
    messages = [{"role": "user", "content": "task"}, {"role": "assistant", "content": "ok"},
                {"role": "user", "content": "go"}, *read("a.py", "x" * 6_000), *read("a.py", "y" * 6_000),
                *read("b.py", "z" * 300), {"role": "assistant", "content": "done"}, {"role": "user", "content": "next"}]
    step = build("cline", {"max_allowed_tokens": 1_000})
    done = step(prepare(messages), None)
    assert done.acted == ("mask",)  # half the characters saved: no truncation
    assert done.history.messages[4]["content"][0]["content"] == "[read_file for 'a.py'] Result:\n" + FILE_READ_NOTICE
    assert done.history.messages[6] is messages[6] and len(done.history.messages) == len(messages)
    assert build("cline", {"max_allowed_tokens": 1_000, "file_read_optimization": False})(
        prepare(messages), None).acted == ("forget",)
