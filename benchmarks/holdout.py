"""The fixed split of the public logs by repository: a part the rules are tuned on, and a part they are only
checked on, so that a figure fitted to some logs shows on the others.

    .venv/bin/python benchmarks/holdout.py DIR [--write]

The logs sit at DIR/<agent>/<owner>+<repo>/<path in that repository> (one folder per public repository). A
repository's part comes from a hash of its name with SEED: a new repository falls where its hash puts it,
and one already listed in holdout_repos.json (beside this script) stays where the list puts it, so the split
does not move as logs are added. `--write` adds the repositories under DIR to that list (none is moved);
without it the command prints how many logs and repositories each part holds, by agent.
"""

import argparse
import hashlib
import json
import re
import sys
from collections import Counter
from pathlib import Path

SEED = "compaction-lab holdout 1"
HELD_OUT_SHARE = 0.4  # of the repositories
PARTS = ("tune", "held-out")
LIST = Path(__file__).resolve().parent / "holdout_repos.json"
REPOSITORY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,38}\+[A-Za-z0-9._-]{1,100}$")


def repository_of(path: Path) -> str | None:
    """'owner/repo' from the first folder of `path` named owner+repo; None outside that layout."""
    for part in path.parts:
        if REPOSITORY.match(part):
            return part.replace("+", "/", 1)
    return None


def _listed() -> dict[str, str]:
    if not LIST.exists():
        return {}
    stored = json.loads(LIST.read_text())
    return {repo: part for part in PARTS for repo in stored.get(part, ())}


LISTED = _listed()


def hashed_part(repository: str) -> str:
    digest = hashlib.sha256(f"{SEED}\n{repository.lower()}".encode()).digest()
    return PARTS[1] if int.from_bytes(digest[:8], "big") / 2 ** 64 < HELD_OUT_SHARE else PARTS[0]


def part_of(path: Path) -> str:
    """'tune' or 'held-out' for a log (a file outside the owner+repo layout is held out: nothing was fitted
    to it)."""
    repository = repository_of(path)
    if repository is None:
        return PARTS[1]
    return LISTED.get(repository) or hashed_part(repository)


def agent_folder(path: Path, root: Path | None = None) -> str:
    """The agent folder a log sits in (the folder above owner+repo)."""
    parts = path.parts
    for index, part in enumerate(parts):
        if REPOSITORY.match(part) and index:
            return parts[index - 1]
    return parts[len(root.parts)] if root is not None and len(parts) > len(root.parts) else "-"


def split_counts(root: Path) -> dict[tuple[str, str], Counter]:
    """{(agent folder, part): Counter(logs=, repositories=)} over the files under `root`."""
    found: dict[tuple[str, str], Counter] = {}
    repositories: dict[tuple[str, str], set] = {}
    for path in root.rglob("*"):
        if not path.is_file() or path.name == "MANIFEST.tsv":
            continue
        key = (agent_folder(path, root), part_of(path))
        found.setdefault(key, Counter())["logs"] += 1
        repositories.setdefault(key, set()).add(repository_of(path))
    for key, names in repositories.items():
        found[key]["repositories"] = len(names)
    return found


def write_list(root: Path) -> int:
    """Adds the repositories under `root` to holdout_repos.json, each in its hashed part; none listed moves."""
    stored = {part: set() for part in PARTS}
    for repo, part in LISTED.items():
        stored[part].add(repo)
    added = 0
    for path in root.rglob("*"):
        repository = repository_of(path) if path.is_file() else None
        if repository and repository not in LISTED and all(repository not in s for s in stored.values()):
            stored[hashed_part(repository)].add(repository)
            added += 1
    LIST.write_text(json.dumps({"seed": SEED, "held_out_share": HELD_OUT_SHARE,
                                **{part: sorted(stored[part], key=str.lower) for part in PARTS}}, indent=1) + "\n")
    return added


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--write", action="store_true", help="add the repositories under DIR to the list")
    args = parser.parse_args(argv)
    if args.write:
        print(f"{write_list(args.folder)} repositories added to {LIST.name}")
        return 0
    counts = split_counts(args.folder)
    print(f"{'agent':<14} {'part':<9} {'repositories':>12} {'logs':>6}")
    for (agent, part), count in sorted(counts.items()):
        print(f"{agent:<14} {part:<9} {count['repositories']:>12} {count['logs']:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
