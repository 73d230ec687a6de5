"""A whole corpus: every file a row (a corrupt one too), the same rows in-process and over processes,
streaming with few tasks in flight, progress and cancellation."""

import concurrent.futures

import pytest

from compaction.corpus import COLUMNS, Job, analyse, discover
from compaction.errors import SettingsError
from compaction.sweep.parallel import InProcess, stream
from tests.hostile.corpus import CORPUS as HOSTILE
from tests.hostile.corpus import EXPECTED as HOSTILE_EXPECTED

from .conftest import CORRUPT_NAME

SWEEP = Job(x=("context_limit", (5_000, 50_000)), y=("keep_recent", (0, 3)))


@pytest.fixture(scope="module")
def in_process(small_corpus):
    return analyse(discover(small_corpus), SWEEP)


def test_every_file_is_a_row_and_the_corrupt_one_has_its_error(small_corpus, in_process):
    files = discover(small_corpus)
    assert [row["path"] for row in in_process.rows] == [item.relative for item in files]
    assert len(in_process.rows) == 7 and not in_process.cancelled
    by_path = {row["path"]: row for row in in_process.rows}
    corrupt = by_path.pop(CORRUPT_NAME)
    assert corrupt["error"].startswith(f"{CORRUPT_NAME}: not valid JSON")
    assert corrupt["project"] == "broken" and corrupt["messages"] is None
    assert all(row["error"] is None and set(row) == set(COLUMNS) for row in by_path.values())
    assert {row["format"] for row in by_path.values()} == {"anthropic", "claude-code"}
    # the generator's sessions are valid and end in tool results: 2 * turns + 1 messages, turns calls
    assert all(row["messages"] == 2 * row["model_calls"] + 1 for row in by_path.values())
    assert all(row["input_pair_problems"] == 0 == row["calls_with_pair_problems"] for row in by_path.values())


def test_the_sweep_aggregates_the_readable_sessions(in_process):
    sweep = in_process.sweep
    assert sweep["sessions"] == 6 and sweep["x"]["values"] == [5_000, 50_000]
    peak = sweep["measures"]["peak_tokens"]
    assert peak["sessions"] == [[6, 6], [6, 6]]
    for row in range(2):
        for column in range(2):
            assert peak["median"][row][column] <= peak["p90"][row][column]
    # a smaller CONTEXT_LIMIT never lets the median session's peak grow
    assert all(line[0] <= line[1] for line in peak["median"])


def test_two_processes_give_the_same_rows_and_sweep(small_corpus, in_process):
    seen = []
    pooled = analyse(discover(small_corpus), SWEEP, workers=2, progress=lambda done, total: seen.append((done, total)))
    assert pooled.rows == in_process.rows
    assert pooled.sweep == in_process.sweep
    assert seen == [(done, 7) for done in range(1, 8)]


def test_cancelling_stops_submitting_and_says_so(small_corpus):
    done = []
    result = analyse(discover(small_corpus), Job(), progress=lambda finished, total: done.append(finished),
                     cancelled=lambda: len(done) >= 2)
    assert result.cancelled and result.sessions == 7
    # in-process, a task runs when submitted: the third was already running when the second finished
    assert 2 <= len(result.rows) <= 3 and len(result.rows) == len(done)


def test_bad_sweep_axes_stop_before_any_work(small_corpus):
    with pytest.raises(SettingsError, match="unknown setting 'window'"):
        analyse(discover(small_corpus), Job(x=("window", (1,)), y=("keep_recent", (1,))))
    with pytest.raises(SettingsError, match="max_messages=3, keep_head=3"):
        analyse(discover(small_corpus), Job(x=("max_messages", (3,)), y=("keep_head", (3,))))


class Deferred(InProcess):
    """Tasks finish one per wait, so the number in flight can be watched."""

    def __init__(self):
        self.queue, self.most = [], 0

    def submit(self, function, *args):
        future = concurrent.futures.Future()
        self.queue.append((future, function, args))
        self.most = max(self.most, sum(1 for f, _, _ in self.queue if not f.done()))
        return future

    def wait_any(self, futures, timeout):
        future, function, args = next(entry for entry in self.queue if not entry[0].done())
        future.set_result(function(*args))
        return [future]


def test_only_a_few_tasks_are_in_flight():
    executor = Deferred()
    results = dict(stream(lambda n: n * n, list(range(50)), (), executor, on_failure=None, in_flight=4))
    assert results == {n: n * n for n in range(50)}
    assert executor.most == 4


def test_a_failing_task_becomes_its_failure_result():
    def half(n):
        if n == 3:
            raise ValueError("three")
        return n / 2

    results = dict(stream(half, [1, 2, 3, 4], (), InProcess(), on_failure=lambda item, error: f"{item}: {error}"))
    assert results == {0: 0.5, 1: 1.0, 2: "3: three", 3: 2.0}


def test_the_hostile_corpus_never_stops_the_run():
    result = analyse(discover(HOSTILE), Job())
    rows = {row["path"]: row for row in result.rows}
    assert set(rows) == set(HOSTILE_EXPECTED) | {"expected.json"}
    for name, expectation in HOSTILE_EXPECTED.items():
        error = rows[name]["error"]
        if expectation["outcome"] == "error":
            assert error and error.startswith(name), name
            assert all(word.lower() in error.lower() for word in expectation.get("words", [])), (name, error)
        else:
            assert error is None, (name, error)
