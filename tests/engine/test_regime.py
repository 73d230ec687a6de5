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
