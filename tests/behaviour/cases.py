"""The behaviour cases: what the engine computes on fixed inputs, one case per pipeline run, replay and sweep.

Seven inputs (six samples and a generated session with parallel tool calls), each with a pipeline run at
the default settings, a replay with every registered strategy and a sweep of context_limit x keep_recent.
Each case's value is what the engine's own `as_dict`/`result_dict` gives; render.py writes it as text.
"""

import functools
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compaction import OutputStore, generate, load_conversation, run_pipeline
from compaction.layers.pipeline_data import result_dict
from compaction.replay.loop import replay
from compaction.strategies import REGISTRY
from compaction.sweep.sweeps import sweep
from tests.behaviour.render import render_replay, render_run, render_sweep

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
EXPECTED = Path(__file__).with_name("expected")
SAMPLE_FILES = ("seed_demo.json", "realistic_session.json", "anthropic_request.json", "claude_code_session.jsonl",
                "claude_code_long_session.jsonl", "openai_chat.json")
GENERATED = "generated_parallel"
REGENERATE = "python -m tests.behaviour.regenerate"
SWEEP_X = ("context_limit", [20_000, 50_000, 200_000])
SWEEP_Y = ("keep_recent", [0, 3])
# Persisted outputs' previews quote the store's path, so its length must not vary: a folder made
# under /tmp (not $TMPDIR, which differs between machines) always has the same length.
STORE_PARENT = "/tmp"


@dataclass(frozen=True)
class Case:
    sample: str  # a file of sample_data/ or GENERATED
    kind: str  # "run", "sweep" or "replay"
    strategy: str = ""  # for a replay

    @property
    def name(self) -> str:
        stem = self.sample.split(".")[0]
        return f"{stem}/replay/{self.strategy}" if self.kind == "replay" else f"{stem}/{self.kind}"

    @property
    def expected_path(self) -> Path:
        return EXPECTED / f"{self.name}.txt"

    def title(self) -> str:
        if self.kind == "run":
            return f"Pipeline run of {self.sample} at the default settings"
        if self.kind == "sweep":
            return (f"Sweep of {self.sample} with the pipeline strategy: {SWEEP_X[0]} {SWEEP_X[1]} "
                    f"x {SWEEP_Y[0]} {SWEEP_Y[1]}")
        return f"Replay of {self.sample} with the {self.strategy} strategy at its own settings"


def cases() -> list[Case]:
    """Every case, in a fixed order (the strategies as registered when this is called)."""
    found = []
    for sample in (*SAMPLE_FILES, GENERATED):
        found.append(Case(sample, "run"))
        found.extend(Case(sample, "replay", strategy) for strategy in REGISTRY)
        found.append(Case(sample, "sweep"))
    return found


@functools.cache
def conversation(sample: str):
    """Loaded once per process; no case changes it (no layer mutates its input)."""
    if sample == GENERATED:
        return generate("realistic", turns=120, seed=11, parallel_share=0.4)
    return load_conversation(SAMPLES / sample)


def compute(case: Case) -> Any:
    """The case's value, as plain data; the store is fresh and removed afterwards."""
    with tempfile.TemporaryDirectory(dir=STORE_PARENT) as folder:
        store = OutputStore(Path(folder) / "s")
        if case.kind == "run":
            run = result_dict(run_pipeline(conversation(case.sample), store=store))
            if run["summary"]:
                run["summary"]["transcript_path"] = None  # named after the time it was written
            return json.loads(json.dumps(run).replace(folder, "<folder>"))
        if case.kind == "replay":
            return replay(conversation(case.sample), strategy=case.strategy, store=store,
                          keep_histories=False).as_dict()
        return sweep(conversation(case.sample), SWEEP_X, SWEEP_Y).cells


def text(case: Case) -> str:
    """The case's expected file as it would be written now."""
    value = compute(case)
    if case.kind == "run":
        lines = render_run(value)
    elif case.kind == "replay":
        lines = render_replay(value)
    else:
        lines = render_sweep(value, SWEEP_X, SWEEP_Y)
    return "\n".join([f"# {case.title()}.", f"# Written by `{REGENERATE}`; the format: tests/behaviour/README.md.",
                      *lines]) + "\n"
