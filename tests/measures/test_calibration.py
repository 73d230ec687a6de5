"""The fit of recorded tokens on characters, with expectations worked out by hand."""

from compaction.model.calibration import calibrate, fit_line
from compaction.model.sizes import list_chars

# Six messages of 100..600 characters; calls (assistant messages) at 1, 3 and 5. The history a call
# sends is the messages before it, measured as len(str(list)): their sizes, ", " between them and "[]".
SIZES = [100, 200, 300, 400, 500, 600]
CHARS = {1: 100 + 2, 3: 600 + 2 * 2 + 2, 5: 1500 + 2 * 4 + 2}  # 102, 606, 1510


def _usage(tokens: int) -> dict:
    # Claude Code records most of a call as cache reads and writes; the split does not matter to the fit
    return {"input_tokens": 3, "cache_creation_input_tokens": 100, "cache_read_input_tokens": tokens - 103,
            "output_tokens": 20}


def test_the_list_chars_rule():
    assert [list_chars(100, 1), list_chars(600, 3), list_chars(1500, 5)] == [102, 606, 1510]
    assert list_chars(0, 0) == len(str([]))


def test_an_exact_line_is_recovered():
    usage = [None, _usage(1051), None, _usage(1303), None, _usage(1755)]  # 1000 + 0.5 x CHARS
    fit = calibrate(SIZES, 0, usage, [])
    assert (round(fit.tokens_per_char, 6), fit.overhead_tokens, fit.median_abs_error, fit.calls) == (0.5, 1000, 0.0, 3)


def test_system_prompt_characters_count_in_each_call():
    usage = [None, _usage(1101), None, _usage(1353), None, _usage(1805)]  # 1000 + 0.5 x (CHARS + 100)
    fit = calibrate(SIZES, 100, usage, [])
    assert (round(fit.tokens_per_char, 6), fit.overhead_tokens) == (0.5, 1000)


def test_calls_after_the_first_compaction_are_left_out():
    usage = [None, _usage(1051), None, _usage(1303), None, _usage(1755)]
    assert calibrate(SIZES, 0, usage, [{"index": 4}]) is None  # two calls before it: too few to fit
    assert calibrate(SIZES, 0, [], []) is None


def test_one_wild_point_does_not_bend_the_robust_line():
    points = [(x, 2000 + 0.25 * x) for x in range(1000, 9000, 1000)] + [(5500, 60_000)]
    intercept, slope = fit_line(points)
    assert abs(slope - 0.25) < 0.01 and abs(intercept - 2000) < 60
    # ordinary least squares would give a slope of about 1.5 here
