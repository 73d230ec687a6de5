"""Fingerprints of what the engine computes on fixed inputs: a digest of each replay's, sweep's and pipeline
run's JSON. A change that should not change behaviour (moving code, a faster loop) keeps every digest;
one that should (new prices, new measures) updates fingerprints.json on purpose: `python -m
tests.behaviour.fingerprints --write`."""

import hashlib
import json
import sys
import tempfile
from pathlib import Path

from compaction import OutputStore, generate, load_conversation, run_pipeline
from compaction.layers.pipeline_data import result_dict
from compaction.replay.loop import replay
from compaction.replay.sweep import sweep
from compaction.strategies import REGISTRY

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
EXPECTED = Path(__file__).with_name("fingerprints.json")
SAMPLE_FILES = ("seed_demo.json", "realistic_session.json", "anthropic_request.json", "claude_code_session.jsonl",
                "claude_code_long_session.jsonl", "openai_chat.json")


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:16]


def inputs() -> dict:
    found = {name: load_conversation(SAMPLES / name) for name in SAMPLE_FILES}
    found["generated_parallel"] = generate("realistic", turns=120, seed=11, parallel_share=0.4)
    return found


def fingerprints() -> dict[str, str]:
    """Every output store sits at the same path, so the paths written into previews are the same each time."""
    prints = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, conversation in inputs().items():
            root = Path(folder) / "s"  # the same length every time: previews quote the path
            store = OutputStore(root)
            run = result_dict(run_pipeline(conversation, store=store))
            if run["summary"]:
                run["summary"]["transcript_path"] = None  # named after the time it was written
            prints[f"run/{name}"] = digest(json.loads(json.dumps(run).replace(folder, "<folder>")))
            for strategy in REGISTRY:
                result = replay(conversation, strategy=strategy, store=store, keep_histories=False)
                prints[f"replay/{name}/{strategy}"] = digest(result.as_dict())
            grid = sweep(conversation, ("context_limit", [20_000, 50_000, 200_000]), ("keep_recent", [0, 3]))
            prints[f"sweep/{name}"] = digest(grid.cells)
    return prints


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        EXPECTED.write_text(json.dumps(fingerprints(), indent=1, sort_keys=True) + "\n")
    else:
        print(json.dumps(fingerprints(), indent=1, sort_keys=True))
