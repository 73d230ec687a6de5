"""The pipeline in the agent's regime summarises at the call where the agent first compacted itself
(compaction/replay/regime.py), on the sample long session and on real-layout Claude Code and Codex cases."""

from pathlib import Path

import pytest

from compaction import Settings, load_conversation, prepare, replay
from compaction.replay import regime_context_limit
from compaction.strategies import compaction_point
from dashboard.render import tune_axes

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "importers" / "cases" / "valid"


def agents_regime(history) -> Settings:
    """The agent never snipped nor replaced old results: no L1, no L2."""
    results = sum(1 for m in history.messages for b in (m.get("content") or [])
                  if isinstance(b, dict) and b.get("type") == "tool_result")
    return Settings(max_messages=max(len(history.messages) + 1, 50), keep_recent=max(results, 3))


def first_calls(history, settings: Settings) -> tuple[int, int]:
    """(the pipeline's first summary call, the first call after the agent's own first compaction)."""
    result = replay(history, settings, keep_histories=False)
    boundary = min(b["index"] for b in history.recorded.boundaries)
    ours = next(c.call for c in result.calls if "L4" in c.acted)
    return ours, next(c.call for c in result.calls if c.index > boundary)


@pytest.mark.parametrize("path", [ROOT / "sample_data" / "claude_code_long_session.jsonl",
                                  CASES / "claude_code_compact_boundary.jsonl", CASES / "codex_compaction.jsonl"],
                         ids=lambda p: p.stem)
def test_the_regimes_limit_summarises_at_the_agents_own_call(path):
    history = prepare(load_conversation(path))
    regime = agents_regime(history)
    limit = regime_context_limit(history, regime)
    assert limit is not None
    ours, agents = first_calls(history, regime.replace(context_limit=limit))
    assert ours == agents


def test_through_the_token_model_it_summarised_two_calls_late():
    history = prepare(load_conversation(ROOT / "sample_data" / "claude_code_long_session.jsonl"))
    regime = agents_regime(history)
    converted = tune_axes.converter(history).chars("context_limit", compaction_point(history))  # Tune's old value
    assert converted == 535_900
    ours, agents = first_calls(history, regime.replace(context_limit=converted))
    assert (ours, agents) == (134, 132)
    assert regime_context_limit(history, regime) == 518_800


def test_a_log_that_never_compacted_itself_has_no_regime_limit():
    history = prepare(load_conversation(ROOT / "sample_data" / "seed_demo.json"))
    assert regime_context_limit(history, Settings()) is None


def resumed(folder: Path, calls_before: int) -> Path:
    """As a public Claude Code 2.1 log resumed from a longer session: its compaction (automatic, at the
    earlier session's 292,790 tokens) comes before its second call (`calls_before` calls of 20,000 tokens
    first), then the session grows from 85,000 tokens and never compacts again."""
    from tests.engine.claude_code_lines import LogLines

    log = LogLines("2.1.119", model="claude-opus-4-7")
    log.prompt("Pick up where we left off.")
    for _ in range(calls_before):
        log.call(20_000, "Read", {"file_path": "/app/notes.md"}, "n" * 2_000)
    log.compaction(292_790, "The migration is half done; the tests of the orders module fail.")
    for n in range(12):
        log.call(85_000 + 3_000 * n, "Bash", {"command": f"pytest tests/orders -k case{n}"}, "F" * 9_000)
    return log.write(folder)


@pytest.mark.parametrize("calls_before", [0, 1])
def test_a_resumed_session_s_compaction_gives_no_regime_and_says_so(tmp_path, calls_before):
    from compaction.replay import regime_point
    from dashboard.render import agent_regime
    from tests.dashboard_units.test_trade_and_regime import MAXIMA

    history = prepare(load_conversation(resumed(tmp_path, calls_before)))
    assert len(history.recorded.boundaries) == 1
    assert regime_point(history) is None
    assert regime_context_limit(history, agents_regime(history)) is None
    found = agent_regime.regime(history, 200_000, MAXIMA)
    assert found.values["context_limit"] == tune_axes.converter(history).chars("context_limit", 200_000)
    assert found.values["context_limit"] > 100_000  # not a limit that summarises at every call
    assert "compacted in this log only before its first calls (a session resumed from an earlier one" in \
        agent_regime.regime_sentence(found, "Claude Code")
