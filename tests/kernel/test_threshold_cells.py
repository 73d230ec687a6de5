"""The cells of an agent's preset that differ only in its threshold, run together until they part
(compaction/sweep/thresholds.py), are exactly the loop's replays of them, record for record: on the bundled
samples, on the hand-written real-layout logs (tests/engine/claude_code_logs, codex_logs), and over random
sessions and random grids of each preset's threshold knobs."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compaction.importers import load_conversation

from ..engine.conv_builder import build, random_turns
from ..engine.strategies import conversations
from .threshold_check import check_thresholds

ENGINE = Path(__file__).resolve().parents[1] / "engine"
SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
CLAUDE_CODE_LOGS = sorted((ENGINE / "claude_code_logs").glob("*.jsonl"))


def claude_code_grid(windows, buffers, **fixed) -> list[dict]:
    return [{"window_tokens": window, "buffer_tokens": buffer, **fixed} for window in windows for buffer in buffers]


@pytest.mark.parametrize("path", CLAUDE_CODE_LOGS, ids=lambda p: p.name)
def test_claude_code_logs_over_a_grid_of_buffer_and_window(path):
    # around the log's own compaction (155,000 and 167,000 in a 200,000 window) and far below it
    grid = claude_code_grid((50_000, 100_000, 180_000, 200_000), (0, 5_000, 13_000, 17_000))
    counts = check_thresholds(load_conversation(path), "claude-code", grid)
    assert counts.replays < len(grid)  # cells went on together


def test_claude_code_logs_at_a_fixed_version_and_reserve():
    conversation = load_conversation(CLAUDE_CODE_LOGS[0])
    grid = claude_code_grid((34_000, 36_000, 60_000), (0, 1_000, 2_000), version="2.0.76", output_reserve_tokens=1_000)
    check_thresholds(conversation, "claude-code", grid)


def test_warning_microcompact_on_reads_the_threshold_at_every_call():
    # the step compares its threshold elsewhere too: it says so (no Step.compared) and each cell goes alone
    conversation = load_conversation(CLAUDE_CODE_LOGS[-1])
    counts = check_thresholds(conversation, "claude-code",
                              claude_code_grid((60_000, 200_000), (13_000, 20_000), warning_microcompact="on"))
    assert counts.replays == 4


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.iterdir() if p.suffix in (".json", ".jsonl")))
def test_samples(name):
    grid = claude_code_grid((40_000, 45_000, 60_000), (0, 2_000, 5_000), output_reserve_tokens=2_000)
    counts = check_thresholds(load_conversation(SAMPLES / name), "claude-code", grid)
    assert counts.replays <= len(grid)


windows = st.lists(st.integers(3_000, 40_000), min_size=1, max_size=3, unique=True)
buffers = st.lists(st.integers(0, 1_500), min_size=1, max_size=3, unique=True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(conversations(max_turns=40), windows, buffers, st.sampled_from([500, 1_000]))
def test_claude_code_random_sessions_and_grids(messages, window_values, buffer_values, reserve):
    grid = claude_code_grid(window_values, buffer_values, output_reserve_tokens=reserve)
    check_thresholds(messages, "claude-code", [cell for cell in grid
                                               if cell["window_tokens"] - reserve - cell["buffer_tokens"] >= 1])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.integers(20, 90), st.integers(0, 10 ** 6), windows, buffers)
def test_claude_code_longer_sessions(turns, seed, window_values, buffer_values):
    grid = claude_code_grid([window * 2 for window in window_values], buffer_values, output_reserve_tokens=1_000)
    check_thresholds(build(random_turns(turns, seed=seed, big_every=13)), "claude-code", grid)


CODEX_LOG = ENGINE / "codex_logs" / "reasoning_decides.jsonl"


def test_codex_log_over_its_auto_compact_limit_and_window():
    # its window of 9,500 reported: the log's own compaction and the preset's summaries on either side
    grid = [{"auto_compact_token_limit": limit, "window_tokens": window}
            for limit in (0, 2_000, 4_000, 6_000, 8_000) for window in (0, 7_000)]
    counts = check_thresholds(load_conversation(CODEX_LOG), "codex", grid)
    assert counts.replays < len(grid)


limits = st.lists(st.integers(200, 30_000), min_size=1, max_size=5, unique=True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(conversations(max_turns=40), limits)
def test_codex_random_sessions_and_limits(messages, values):
    check_thresholds(messages, "codex", [{"auto_compact_token_limit": value} for value in values])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(conversations(max_turns=40), st.lists(st.sampled_from([0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9]), min_size=1,
                                             max_size=4, unique=True), st.sampled_from([4_000, 20_000]))
def test_gemini_cli_random_sessions_and_thresholds(messages, fractions, window):
    check_thresholds(messages, "gemini-cli", [{"threshold_fraction": fraction, "window_tokens": window}
                                              for fraction in fractions])


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.integers(20, 90), st.integers(0, 10 ** 6), limits)
def test_codex_and_gemini_cli_longer_sessions(turns, seed, values):
    messages = build(random_turns(turns, seed=seed, big_every=13))
    check_thresholds(messages, "codex", [{"auto_compact_token_limit": value} for value in values])
    check_thresholds(messages, "gemini-cli", [{"threshold_fraction": 0.5, "window_tokens": 2 * value}
                                              for value in values])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(conversations(max_turns=40), limits, st.sampled_from([0, 200]))
def test_opencode_random_sessions_and_context_limits(messages, values, protect):
    # a usable window of the context limit less a 1,000-token reply; 0 and below: it never compacts
    check_thresholds(messages, "opencode", [{"context_limit_tokens": value, "output_limit_tokens": 1_000,
                                             "prune_protect_tokens": protect} for value in (*values, 500)])


NEW_AGENTS = {  # each preset's threshold knobs at values that compact the random sessions
    "copilot-cli": lambda value: {"window_tokens": 2 * value, "threshold_fraction": 0.5},
    "pi": lambda value: {"window_tokens": value + 1_000, "reserve_tokens": 1_000, "keep_recent_tokens": 300},
    "crush": lambda value: {"window_tokens": value + 500, "remaining_tokens": 500},
    "goose": lambda value: {"window_tokens": 2 * value, "threshold": 0.5},
}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(conversations(max_turns=40), limits, st.sampled_from(sorted(NEW_AGENTS)))
def test_other_agents_random_sessions_and_thresholds(messages, values, preset):
    check_thresholds(messages, preset, [NEW_AGENTS[preset](value) for value in values])


@pytest.mark.parametrize("preset", sorted(NEW_AGENTS))
def test_other_agents_longer_session(preset):
    messages = build(random_turns(60, seed=7, big_every=13))
    counts = check_thresholds(messages, preset, [NEW_AGENTS[preset](value) for value in (2_000, 4_000, 8_000, 16_000)])
    assert counts.replays <= 4
