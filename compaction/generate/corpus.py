"""A folder of many generated sessions, for corpus tests and benchmarks.

`write_corpus(folder, sessions)` writes `sessions` varied realistic sessions (lengths, output sizes,
parallel share and seed drawn per session from `seed`): most as agents' logs laid out as each agent keeps
them (the agents that register a writer, writers.py, taking turns), the rest as Anthropic Messages JSON
under `exports/<project>/`. The same arguments write the same bytes.

`python -m compaction.generate.corpus DIR --sessions N [--seed S]` writes one from the command line.
"""

import argparse
import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from compaction.generate.realistic import realistic_session
from compaction.generate.writers import writers

PROJECTS = ("invoicer", "tidyfeed", "pgsnap", "mdlint", "shipyard")
AGENT_LOG_SHARE = 0.75
START = datetime(2025, 3, 3, 8, 0, tzinfo=UTC)


@dataclass(frozen=True)
class GeneratedSession:
    path: Path  # where it was written
    format: str  # an agent's format, or "anthropic"
    project: str  # the project folder's name
    messages: int  # messages the session holds (before an agent's layout splits them into lines)


def write_corpus(folder: str | Path, sessions: int, seed: int = 0, min_turns: int = 4, max_turns: int = 80,
                 typical_output: tuple[int, int] = (200, 1_500)) -> list[GeneratedSession]:
    """Write `sessions` generated sessions under `folder`; return what was written, in order."""
    folder = Path(folder)
    rng = random.Random(seed)
    agent_writers = writers()
    written = []
    for number in range(sessions):
        project = PROJECTS[number % len(PROJECTS)]
        knobs: dict[str, Any] = {
            "turns": rng.randint(min_turns, max_turns), "typical_output": rng.randint(*typical_output),
            "parallel_share": round(rng.uniform(0.0, 0.4), 2), "seed": rng.getrandbits(32)}

        knobs["max_output"] = knobs["typical_output"] * rng.choice((10, 40, 100))
        messages = realistic_session(**knobs)
        if rng.random() < AGENT_LOG_SHARE and agent_writers:
            writer = agent_writers[number % len(agent_writers)]
            placed = writer.place(messages, knobs["seed"], f"/home/dev/{project}", START + timedelta(hours=5 * number))
            path = folder.joinpath(*placed.relative.parts)
            text, kind, where = placed.text, writer.format, placed.project
        else:
            path = folder / "exports" / project / f"session-{number:05d}.json"
            text, kind, where = json.dumps(messages, ensure_ascii=False) + "\n", "anthropic", project
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(GeneratedSession(path, kind, where, len(messages)))
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m compaction.generate.corpus",
                                     description="Write a folder of generated sessions.")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--sessions", type=int, default=100, metavar="N", help="how many (default 100)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    args = parser.parse_args(argv)
    written = write_corpus(args.folder, args.sessions, args.seed)
    size = sum(session.path.stat().st_size for session in written)
    print(f"wrote {len(written):,} sessions ({size / 1e6:,.1f} MB) under {args.folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
