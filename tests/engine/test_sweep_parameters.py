"""Sweeps over a strategy's own parameters: an axis names a parameter of the chosen strategy (checked by
its spec), beside or instead of a setting, and a sweep of one axis is a line. Every cell is its own
replay at that cell's parameters, here and spread over worker processes; bad names, values and cells
are refused before any replay, naming what is wrong."""

import json

import pytest

from compaction import Settings
from compaction.cli import main as cli
from compaction.errors import SettingsError
from compaction.generate import generate
from compaction.replay.loop import replay
from compaction.strategies import build, pipeline_step
from compaction.sweep.grid import cell_measures
from compaction.sweep.parallel import open_executor
from compaction.sweep.sweeps import sweep, sweep_stream

LIMITS = [3_000, 6_000, 12_000, 1_000_000]  # tokens: the last is never reached


@pytest.fixture(scope="module")
def session():
    return generate("realistic", turns=60, seed=3)


def own_replay(session, strategy: str, params: dict, settings: Settings | None = None) -> dict:
    return cell_measures(replay(session, settings, strategy=build(strategy, params), keep_histories=False))


def test_a_line_over_codex_auto_compact_limit_is_one_replay_per_value(session):
    result = sweep(session, ("auto_compact_token_limit", LIMITS), strategy="codex", measure="summaries")
    assert result.y_name is None and result.rows == 1 and result.cell_count == 4
    assert result.parameters == ("auto_compact_token_limit",)
    for column, limit in enumerate(LIMITS):
        assert result.cells[0][column] == own_replay(session, "codex", {"auto_compact_token_limit": limit})
        assert result.params_at(0, column) == {**build("codex").params, "auto_compact_token_limit": limit}
    summaries = result.line()
    assert summaries == sorted(summaries, reverse=True) and summaries[0] > 0 == summaries[-1]
    data = result.as_dict()
    assert data["y"] is None and data["x"]["kind"] == "parameter" and data["grid"] == [summaries]
    assert result.trade_off_front() <= {(0, column) for column in range(4)}


def test_two_parameters_of_a_built_strategy_start_from_its_own_parameters(session):
    gemini = build("gemini-cli", {"window_tokens": 100_000})  # fractions of a 100,000-token limit
    result = sweep(session, ("threshold_fraction", [0.05, 0.1, 0.9]), ("preserve_fraction", [0.2, 0.6]),
                   strategy=gemini, measure="summaries")
    for row, preserve in enumerate([0.2, 0.6]):
        for column, threshold in enumerate([0.05, 0.1, 0.9]):
            params = {"window_tokens": 100_000, "threshold_fraction": threshold, "preserve_fraction": preserve}
            assert result.params_at(row, column) == {**gemini.params, **params}
            assert result.cells[row][column] == own_replay(session, "gemini-cli", params), (row, column)
    assert result.grid()[0][0] > 0 and result.grid()[0][-1] == 0


def test_a_parameter_beside_a_setting(session):
    result = sweep(session, ("auto_compact_token_limit", LIMITS[:2]), ("reactive_keep_last", [2, 6]),
                   strategy="codex")
    assert result.parameters == ("auto_compact_token_limit",)
    for row, keep in enumerate([2, 6]):
        for column, limit in enumerate(LIMITS[:2]):
            settings = Settings(reactive_keep_last=keep)
            assert result.settings_at(row, column) == settings
            assert result.cells[row][column] == own_replay(session, "codex", {"auto_compact_token_limit": limit},
                                                           settings)


def test_the_tutorials_settings_stay_settings_and_its_own_names_are_parameters(session):
    # the pipeline's parameters are named as the settings: those axes are the settings, as before
    assert sweep(session, ("context_limit", [5_000, 50_000])).parameters == ()
    # masking's `window` is a parameter (its setting is KEEP_RECENT)
    masked = sweep(session, ("window", [1, 8]), strategy="masking")
    assert masked.parameters == ("window",)
    assert masked.cells[0][1] == own_replay(session, "masking", {"window": 8})
    assert masked.cells[0][0] != masked.cells[0][1]


def test_a_line_and_a_grid_of_parameters_spread_over_workers_give_the_same_cells(session):
    line = (("auto_compact_token_limit", LIMITS), None)
    grid = (("buffer_tokens", [13_000, 170_000]), ("window_tokens", [210_000, 250_000]))  # thresholds of 20-220 K
    here = [sweep(session, *line, strategy="codex"), sweep(session, *grid, strategy="claude-code")]
    with open_executor(2) as executor:
        done = [(result.cells_done, result) for result in sweep_stream(session, *line, strategy="codex",
                                                                         executor=executor)]
        spread = [done[-1][1], sweep(session, *grid, strategy="claude-code", executor=executor)]
    assert [result.cells for result in spread] == [result.cells for result in here]
    assert [count for count, _ in done] == [1, 2, 3, 4]  # a line spreads one cell per task: one by one


@pytest.mark.parametrize(("x", "y", "strategy", "message"), [
    (("speed", [1]), None, "codex", "'speed' is neither a setting nor a parameter of codex; its parameters are "
                                    "auto_compact_token_limit"),
    (("auto_compact_token_limit", [-5]), None, "codex", "auto_compact_token_limit=-5: codex: auto_compact_token_limit"
                                                         " must be a whole number of tokens, 0 to"),
    (("threshold_fraction", [0.5, 2.0]), None, "gemini-cli", "threshold_fraction=2.0: gemini-cli:"),
    (("buffer_tokens", [13_000, 90_000]), ("window_tokens", [100_000]), "claude-code",
     "buffer_tokens=90000, window_tokens=100000: claude-code: window_tokens must be larger than"),
    (("window_tokens", [1]), ("window_tokens", [2]), "codex", "two different"),
    (("window", [1]), None, pipeline_step, "unknown setting 'window'"),  # a function of its own has no spec
    (("auto_compact_token_limit", []), None, "codex", "at least one value"),
])
def test_bad_parameter_axes_are_refused_before_any_replay(session, x, y, strategy, message):
    with pytest.raises(SettingsError) as raised:
        sweep(session, x, y, strategy=strategy)
    assert message in str(raised.value)


def test_the_sweep_command_takes_a_parameter_axis_and_a_line(tmp_path, capsys):
    path = tmp_path / "session.json"
    path.write_text(json.dumps(generate("realistic", turns=60, seed=3)), encoding="utf-8")
    assert cli.main(["sweep", str(path), "--strategy", "codex", "--x", "auto-compact-token-limit=3000,1000000",
                     "--measure", "summaries", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["x"] == {"name": "auto_compact_token_limit", "values": [3_000, 1_000_000], "kind": "parameter"}
    assert data["y"] is None and data["strategy"] == "codex" and data["grid"][0][0] > data["grid"][0][1] == 0
    assert cli.main(["sweep", str(path), "--strategy", "gemini-cli", "--param", "window_tokens=100000",
                     "--x", "threshold_fraction=0.05,0.9", "--y", "preserve_fraction=0.3", "--measure",
                     "summaries"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["preserve_fraction", "\\", "threshold_fraction", "0.05", "0.9"]
    assert lines[2].split()[0] == "0.3" and lines[2].split()[-1] == "0"
    assert cli.main(["sweep", str(path), "--strategy", "gemini-cli", "--x", "threshold_fraction=lots"]) == 2
    assert "threshold_fraction must be a number" in capsys.readouterr().err
