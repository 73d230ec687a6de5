"""Every model call followed so far, as columns of machine numbers: what a session that runs for hours
keeps of the calls it has measured (about 70 bytes a call; never a message's text).

Per call: the line it was read from, its uncached input, its cache writes (5-minute and 1-hour), its
cache reads, its output, what it cost at its model's price, its time (seconds since the epoch, NaN when
the log gives none), its model (an index into the models seen) and the segment it belongs to (0 before
the first compaction, then 1, ...).
"""

import math
from array import array
from dataclasses import dataclass
from datetime import datetime

from compaction.measures.prices import cache_writes

INT_COLUMNS = ("line", "input", "write_5m", "write_1h", "read", "output")


@dataclass(frozen=True)
class Call:
    number: int  # 1 for the first call of the file
    line: int
    model: str | None
    input: int
    write_5m: int
    write_1h: int
    read: int
    output: int
    cost_usd: float
    time: float | None
    segment: int

    @property
    def context(self) -> int:
        """Tokens the call carried: uncached input, cache writes and cache reads."""
        return self.input + self.write_5m + self.write_1h + self.read


def seconds(text: str | None) -> float:
    """An ISO time as seconds since the epoch; NaN for none or one that cannot be read."""
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() if text else math.nan
    except (AttributeError, ValueError):
        return math.nan


def _count(usage: dict, key: str) -> int:
    value = usage.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


class CallLog:
    def __init__(self):
        self._ints = {name: array("q") for name in INT_COLUMNS}
        self._cost = array("d")
        self._time = array("d")
        self._model = array("H")  # index into self.models, 0 for none
        self._segment = array("I")
        self.models: list[str | None] = [None]

    def __len__(self) -> int:
        return len(self._cost)

    def add(self, line: int, usage: dict, cost_usd: float, time: str | None, segment: int) -> Call:
        for name, value in zip(INT_COLUMNS, (line, *self._counts(usage)), strict=True):
            self._ints[name].append(value)
        self._cost.append(cost_usd)
        self._time.append(seconds(time))
        self._model.append(self._model_index(usage.get("model")))
        self._segment.append(segment)
        return self[len(self) - 1]

    def add_unmeasured(self, line: int, time: str | None, segment: int) -> Call:
        """A call whose usage was never written: the previous call's context again, no output, no cost."""
        last = len(self) - 1
        for name in INT_COLUMNS:
            self._ints[name].append(line if name == "line" else
                                    0 if name == "output" or last < 0 else self._ints[name][last])
        self._cost.append(0.0)
        self._time.append(seconds(time))
        self._model.append(self._model[last] if last >= 0 else 0)
        self._segment.append(segment)
        return self[len(self) - 1]

    def update_last(self, usage: dict, cost_usd: float) -> Call:
        """The newest call with the usage of a later line of its response."""
        last = len(self) - 1
        for name, value in zip(INT_COLUMNS[1:], self._counts(usage), strict=True):
            self._ints[name][last] = value
        self._cost[last] = cost_usd
        return self[last]

    def _counts(self, usage: dict) -> tuple[int, int, int, int, int]:
        five, hour = cache_writes(usage)
        return (_count(usage, "input_tokens"), five, hour, _count(usage, "cache_read_input_tokens"),
                _count(usage, "output_tokens"))

    def _model_index(self, model) -> int:
        if not isinstance(model, str) or not model:
            return 0
        if model not in self.models:
            self.models.append(model)  # a session uses a handful of models
        return self.models.index(model)

    def __getitem__(self, index: int) -> Call:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        line, tokens_in, write_5m, write_1h, read, output = (self._ints[name][index] for name in INT_COLUMNS)
        time = self._time[index]
        return Call(index + 1, line, self.models[self._model[index]], tokens_in, write_5m, write_1h, read, output,
                    self._cost[index], None if math.isnan(time) else time, self._segment[index])

    def contexts(self, start: int = 0) -> list[int]:
        """The context of each call from `start` on (for charts)."""
        columns = [self._ints[name] for name in ("input", "write_5m", "write_1h", "read")]
        return [sum(column[i] for column in columns) for i in range(start, len(self))]

    def total_cost(self) -> float:
        return math.fsum(self._cost)

    def nbytes(self) -> int:
        """Bytes the columns hold (what the memory benchmark reports beside the process's growth)."""
        arrays: list[array] = [*self._ints.values(), self._cost, self._time, self._model, self._segment]
        return sum(column.itemsize * len(column) for column in arrays)
