"""Characters -> tokens fitted on what a log recorded: recorded ~ overhead + k x characters.

Each call of a log with usage says how many tokens it carried (input + cache_creation + cache_read).
Over the calls before the log's first compaction, when the agent sent the whole history, the
characters of that history (as the tutorial measures them) are known too, so the two are fitted with
a robust straight line (Huber's loss, iteratively reweighted: a few odd calls do not bend it). `k` is
this conversation's tokens per character; `overhead` is what every call sent that the log does not hold
(the system prompt and tool definitions: several thousand tokens for a coding agent).
"""

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from compaction.model.sizes import list_chars
from compaction.model.tokens import TokenModel

MIN_CALLS = 3  # fewer recorded calls fit any line: no calibration
HUBER = 1.345  # in robust scale units: the usual constant (95 % efficiency for normal errors)


@dataclass(frozen=True)
class Calibration:
    tokens_per_char: float
    overhead_tokens: int
    median_abs_error: float  # median of |estimate - recorded| / recorded over the fitted calls
    calls: int

    @property
    def model(self) -> TokenModel:
        return TokenModel(self.tokens_per_char, self.overhead_tokens, calibrated=True)

    def as_dict(self) -> dict:
        return {"tokens_per_char": round(self.tokens_per_char, 6), "overhead_tokens": self.overhead_tokens,
                "median_abs_error": round(self.median_abs_error, 6), "calls": self.calls}

    def describe(self) -> str:
        return (f"estimates within {100 * self.median_abs_error:.1f} % of what the log recorded (median over "
                f"{self.calls:,} calls); {self.tokens_per_char:.3f} tokens per character plus "
                f"{self.overhead_tokens:,} tokens a call the log does not hold")


def recorded_context(usage: dict | None) -> int | None:
    """Tokens a call carried, as its usage recorded them."""
    if usage is None:
        return None
    return usage["input_tokens"] + usage["cache_creation_input_tokens"] + usage["cache_read_input_tokens"]


def fit_line(points: Sequence[tuple[float, float]], iterations: int = 30) -> tuple[float, float]:
    """(intercept, slope) of a Huber regression of y on x, by iteratively reweighted least squares."""
    weights = [1.0] * len(points)
    intercept = slope = 0.0
    for _ in range(iterations):
        total = sum(weights)
        mean_x = sum(w * x for w, (x, _) in zip(weights, points, strict=True)) / total
        mean_y = sum(w * y for w, (_, y) in zip(weights, points, strict=True)) / total
        spread = sum(w * (x - mean_x) ** 2 for w, (x, _) in zip(weights, points, strict=True))
        if spread == 0:
            return mean_y, 0.0
        slope = sum(w * (x - mean_x) * (y - mean_y) for w, (x, y) in zip(weights, points, strict=True)) / spread
        intercept = mean_y - slope * mean_x
        residuals = [y - intercept - slope * x for x, y in points]
        scale = statistics.median(abs(r) for r in residuals) / 0.6745 or 1e-9  # MAD, as a standard deviation
        bound = HUBER * scale
        new = [1.0 if abs(r) <= bound else bound / abs(r) for r in residuals]
        if max(abs(a - b) for a, b in zip(new, weights, strict=True)) < 1e-6:
            break
        weights = new
    return intercept, slope


def calibrate(sizes: list[int], overhead_chars: int, usage: list, boundaries: list[dict]) -> Calibration | None:
    """The fit over the calls before the first compaction; None without enough recorded calls.

    `sizes` are the characters of each message (len(str(message))), `usage` the per-message usage
    (conversation.usage), `boundaries` the log's own compactions ({"index", ...})."""
    if not usage:
        return None
    first_compaction = min((b["index"] for b in boundaries if isinstance(b.get("index"), int)), default=len(sizes))
    points = []
    before = 0  # characters of the messages before this one
    for index in range(min(first_compaction, len(sizes), len(usage))):
        carried = recorded_context(usage[index])
        if carried:  # the call that wrote this message sent the history before it
            points.append((list_chars(before, index) + overhead_chars, carried))
        before += sizes[index]
    if len(points) < MIN_CALLS:
        return None
    intercept, slope = fit_line(points)
    if slope <= 0:
        return None
    overhead = max(round(intercept), 0)
    errors = [abs(overhead + slope * x - y) / y for x, y in points]
    return Calibration(slope, overhead, statistics.median(errors), len(points))
