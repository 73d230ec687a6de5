"""A folder of many generated sessions, for corpus tests and benchmarks.

`write_corpus(folder, sessions)` writes `sessions` varied realistic sessions (lengths, output sizes,
parallel share and seed drawn per session from `seed`): most as Claude Code session logs laid out as
`~/.claude/projects` is (`projects/<project dir>/<session id>.jsonl`), the rest as Anthropic Messages
JSON under `exports/<project>/`. The same arguments write the same bytes.

`python -m compaction.generate.corpus DIR --sessions N [--seed S]` writes one from the command line.
"""

import argparse
import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from compaction.generate.claude_code_log import ClaudeCodeLog
from compaction.generate.realistic import realistic_session

PROJECTS = ("invoicer", "tidyfeed", "pgsnap", "mdlint", "shipyard")
CLAUDE_CODE_SHARE = 0.75
START = datetime(2025, 3, 3, 8, 0, tzinfo=UTC)


@dataclass(frozen=True)
class GeneratedSession:
    path: Path  # where it was written
    format: str  # "claude-code" or "anthropic"
    project: str  # the project folder's name
    messages: int  # messages the session holds (before the Claude Code layout splits them into lines)


def project_dir(cwd: str) -> str:
    """The folder name Claude Code gives a working directory under ~/.claude/projects."""
    return cwd.replace("/", "-").replace(".", "-")


def write_corpus(folder: str | Path, sessions: int, seed: int = 0, min_turns: int = 4, max_turns: int = 80,
                 typical_output: tuple[int, int] = (200, 1_500)) -> list[GeneratedSession]:
    """Write `sessions` generated sessions under `folder`; return what was written, in order."""
    folder = Path(folder)
    rng = random.Random(seed)
    written = []
    for number in range(sessions):
        project = PROJECTS[number % len(PROJECTS)]
        knobs = {"turns": rng.randint(min_turns, max_turns), "typical_output": rng.randint(*typical_output),
                 "parallel_share": round(rng.uniform(0.0, 0.4), 2), "seed": rng.getrandbits(32)}
        knobs["max_output"] = knobs["typical_output"] * rng.choice((10, 40, 100))
        messages = realistic_session(**knobs)
        if rng.random() < CLAUDE_CODE_SHARE:
            cwd = f"/home/dev/{project}"
            log = ClaudeCodeLog(seed=knobs["seed"], cwd=cwd, start=START + timedelta(hours=5 * number))
            log.session(messages)
            path = folder / "projects" / project_dir(cwd) / f"{log.session_id}.jsonl"
            text, kind, where = log.jsonl(), "claude-code", project_dir(cwd)
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
