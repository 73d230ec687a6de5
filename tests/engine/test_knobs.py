"""Each agent's knobs: parameters of its own preset, with values around its default in its own units that
cover the log's regime, every cell of their grid a valid set of parameters."""

import pytest

from compaction.agents import AGENTS, agent
from compaction.model import DEFAULTS
from compaction.strategies import Regime, build, lookup, regime_params
from compaction.sweep.grid import sweep_grid

REGIMES = {
    "small session": Regime(200_000, peak_tokens=12_000, base_tokens=3_000, compacted_at=None, messages=40),
    "compacted at 167 K": Regime(200_000, peak_tokens=168_000, base_tokens=18_000, compacted_at=167_285, messages=640),
    "a 272 K window": Regime(272_000, peak_tokens=231_922, base_tokens=29_903, compacted_at=232_571, messages=141),
    "a million-token window": Regime(1_048_576, peak_tokens=67_678, base_tokens=28_424, compacted_at=None,
                                     messages=113),
}
TUNED = [item for item in AGENTS if item.knobs]


def test_the_agents_with_a_preset_of_their_own_have_knobs():
    assert {item.name for item in TUNED} == {"claude-code", "codex", "gemini-cli", "aider", "openhands", "opencode", "crush", "goose", "copilot-cli", "pi",
                                             "cline", "roo-code", "kilo-code"}
    assert {item.name: len(item.knobs) for item in TUNED if len(item.knobs) == 2} == {"claude-code": 2,
                                                                                       "gemini-cli": 2, "opencode": 2,
                                                                                       "pi": 2}


@pytest.mark.parametrize("regime", REGIMES.values(), ids=REGIMES.keys())
@pytest.mark.parametrize("tuned", TUNED, ids=lambda item: item.name)
def test_knob_values_are_sorted_hold_the_default_and_make_a_valid_grid(tuned, regime):
    spec = lookup(tuned.own_preset)
    axes = []
    for knob in tuned.knobs:
        spec.param(knob.param)  # a parameter of the agent's own preset
        values = knob.values(regime)
        assert list(values) == sorted(set(values)) and len(values) >= 3
        assert knob.default(regime) in values
        axes.append((knob.param, values))
    strategy = build(spec.name, regime_params(spec, regime))
    sweep_grid(DEFAULTS, axes[0], axes[1] if len(axes) > 1 else None, strategy)  # no cell refused by the spec


def test_codex_limits_run_from_early_to_its_default_with_the_logs_own_compaction_point():
    [knob] = agent("codex").knobs
    regime = REGIMES["a 272 K window"]
    values = knob.values(regime)
    assert values[-1] == knob.default(regime) == 244_800  # 90 % of the window, as Codex computes it
    assert 233_000 in values  # where the agent compacted (232,571), rounded
    assert values[0] < regime.peak_tokens / 4  # compacting early


def test_gemini_thresholds_cover_a_log_far_below_half_the_limit():
    threshold, _ = agent("gemini-cli").knobs
    regime = REGIMES["a million-token window"]
    shares = threshold.values(regime)
    below_peak = [share for share in shares if share * regime.window_tokens < regime.peak_tokens]
    assert len(below_peak) >= 5 and shares[-1] == 0.5  # where compression acts, and the default, which never does


def test_claude_code_buffers_hold_at_the_smallest_window():
    buffer, window = agent("claude-code").knobs
    regime = REGIMES["compacted at 167 K"]
    assert window.values(regime) == (100_000, 125_000, 150_000, 175_000, 200_000)
    assert buffer.values(regime)[0] == 13_000 and 100_000 - 20_000 - buffer.values(regime)[-1] > regime.base_tokens
