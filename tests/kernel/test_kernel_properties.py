"""Property: over random sessions and random grids of settings, every cell the kernel computes is exactly
the loop's replay of it, call by call (the cells of a grid share the kernel's caches: its L3 and summary
variants, its message versions), and it leaves to the loop only what it says it does not model."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ..engine.conv_builder import build, random_turns
from ..engine.strategies import conversations, random_settings
from .kernel_check import check_grid

LEFT = {"a call goes over the model window: reactive compaction"}

@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(conversations(max_turns=40), st.lists(random_settings, min_size=1, max_size=4),
       st.sampled_from([200, 1_000, 200_000]))
def test_random_sessions_and_grids(messages, grid, window):
    done, left = check_grid(messages, grid, model_window_tokens=window)
    assert done + len(left) == len(grid) and set(left) <= LEFT


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.integers(20, 90), st.integers(0, 10 ** 6), st.lists(random_settings, min_size=2, max_size=4))
def test_longer_sessions_with_parallel_calls_and_large_outputs(turns, seed, grid):
    done, left = check_grid(build(random_turns(turns, seed=seed, big_every=13)), grid)
    assert done + len(left) == len(grid) and set(left) <= LEFT
