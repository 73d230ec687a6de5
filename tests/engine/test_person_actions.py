"""The person's own /compact happens in every what-if; only the agent's automatic compactions are the
strategy's.

The log is written in the layout of Claude Code 2.1 logs whose person typed /compact (a compact_boundary
of trigger "manual", the summary written for the focus text, then the local-command lines: caveat,
`<command-name>/compact</command-name>` with the focus as its args, the command's output), scaled down
from the public log the issue names (manual compactions at calls 53, 96, 142 and 167, then automatic ones
at 209 and 287): two of the person's compactions, then two of Claude Code 2.1.44's own at its 167,000-token
threshold. Each call's context grows by 6,000 tokens, its tool output 18,000 characters."""

from pathlib import Path

import pytest

from compaction.importers import load_conversation
from compaction.replay.fidelity import fidelity
from compaction.replay.loop import replay
from compaction.strategies import build
from tests.engine.claude_code_lines import LogLines

GROWTH = 6_000
OUTPUT = 18_000


def _calls(log: LogLines, start: int, count: int) -> int:
    context = start
    for _ in range(count):
        log.call(context, "Bash", {"command": "pytest -q"}, "F" * OUTPUT)
        context += GROWTH
    return context  # what the next request would carry


def manual_then_auto(folder: Path) -> Path:
    log = LogLines("2.1.44", model="claude-sonnet-4-6")
    log.prompt("Make the checkout tests pass.")
    pre = _calls(log, 20_000, 7)  # calls 0-6
    log.person_compacts(pre, "keep the failing test names", "The checkout tests fail on the coupon total.")
    log.prompt("Go on with the coupon fix.")
    pre = _calls(log, 28_000, 7)  # calls 7-13
    log.person_compacts(pre, "only the open bugs", "Two bugs remain: rounding and the empty cart.")
    log.prompt("Fix the rounding bug.")
    pre = _calls(log, 30_000, 23)  # calls 14-36: the request after the last would carry 168,000
    log.compaction(pre, "The rounding bug is fixed; the empty cart still fails.")
    pre = _calls(log, 40_000, 22)  # calls 37-58: the next would carry 172,000
    log.compaction(pre, "Both bugs are fixed; the docs remain.")
    _calls(log, 41_000, 3)  # calls 59-61
    return log.write(folder)


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    return load_conversation(manual_then_auto(tmp_path_factory.mktemp("person")))


def test_the_log_reads_two_compactions_of_the_person_then_two_of_the_agent(session):
    triggers = [b["trigger"] for b in session.metadata["compact_boundaries"]]
    assert triggers == ["manual", "manual", "auto", "auto"]
    logged = [b["call"] for b in replay(session, strategy="as-recorded").boundaries]
    assert logged == [7, 14, 37, 59]


def test_the_preset_compacts_where_the_person_did_and_near_the_agents_own(session):
    result = replay(session, strategy=build("claude-code"))
    pairs = fidelity(result).pairs
    assert [pair.trigger for pair in pairs] == ["manual", "manual", "auto", "auto"]
    assert [abs(pair.calls_apart) for pair in pairs[:2]] == [0, 0], [p.as_dict() for p in pairs]
    assert all(abs(pair.calls_apart) <= 3 for pair in pairs[2:]), [p.as_dict() for p in pairs]
    person = [call.call for call in result.calls if "person_compaction" in call.acted]
    assert person == [7, 14]
    auto = [call.call for call in result.calls if "auto_compact" in call.acted]
    assert len(auto) == 2


def test_the_person_s_compaction_keeps_the_summary_written_for_its_focus(session):
    result = replay(session, strategy=build("claude-code"), keep_histories=True)
    sent = result.histories[7].messages
    assert sent[0]["content"].endswith("The checkout tests fail on the coupon total.")
    assert any("keep the failing test names" in str(message["content"]) for message in sent)


def test_replay_and_compare_say_which_compactions_were_the_person_s(session):
    from dashboard.render.fidelity_table import fidelity_frame, whose_compactions

    result = replay(session, strategy="as-recorded")
    assert whose_compactions(result) == (
        "2 of the log's 4 compactions were the person's own (/compact, before calls 8, 15): every what-if makes "
        "them where the person did, keeping the summary the log holds; each strategy decides only the automatic "
        "ones.")
    first = fidelity_frame(fidelity(replay(session, strategy=build("claude-code")))).iloc[:, 0].tolist()
    assert first == ["1 (the person's /compact)", "2 (the person's /compact)", "3 (automatic)", "4 (automatic)"]


def auto_compact_turned_off(folder: Path) -> Path:
    """As the public 2.1.x logs whose person turned auto-compact off: past 167,000 tokens call after call,
    then the person's /compact near the window."""
    log = LogLines("2.1.44", model="claude-opus-4-5-20251101")
    log.prompt("Refactor the billing module.")
    pre = _calls(log, 40_000, 27)  # calls 0-26: the last carries 196,000
    log.person_compacts(pre, "", "Billing is half refactored.")
    log.prompt("Go on.")
    _calls(log, 30_000, 3)
    return log.write(folder)


def test_the_preset_leaves_auto_compact_off_where_the_log_shows_the_person_turned_it_off(tmp_path):
    conversation = load_conversation(auto_compact_turned_off(tmp_path))
    result = replay(conversation, strategy=build("claude-code"))
    assert [call.call for call in result.calls if call.acted] == [27]
    assert result.calls[27].acted == ("person_compaction",)
    forced = replay(conversation, strategy=build("claude-code", {"auto_compact": "on"}))
    assert any("auto_compact" in call.acted for call in forced.calls[:27])


def test_an_unknown_model_whose_calls_pass_200_000_gets_the_larger_window():
    from compaction.measures.windows import log_window

    usage = [{"model": "deepseek-v4-pro", "input_tokens": 1_000, "cache_creation_input_tokens": 0,
              "cache_read_input_tokens": 220_000}]
    assert log_window(usage, {}).tokens == 1_000_000
    assert log_window([{**usage[0], "cache_read_input_tokens": 150_000}], {}).tokens == 200_000
