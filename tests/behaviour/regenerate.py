"""Write every behaviour case's expected file: `python -m tests.behaviour.regenerate` from the checkout.

Run it when a change is meant to change what the engine computes, then read `git diff tests/behaviour/expected`
and name each change in the commit. Files of cases that no longer exist are removed. `--check` writes
nothing and lists the cases whose file differs (exit status 1 if any).
"""

import sys

from tests.behaviour.cases import EXPECTED, cases, text


def main(arguments: list[str]) -> int:
    check = arguments == ["--check"]
    if arguments and not check:
        print("usage: python -m tests.behaviour.regenerate [--check]", file=sys.stderr)
        return 2
    wanted = {case.expected_path: case for case in cases()}
    differing = []
    for path, case in wanted.items():
        found = text(case)
        if path.exists() and path.read_text(encoding="utf-8") == found:
            continue
        differing.append(case.name)
        if not check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(found, encoding="utf-8")
    stale = sorted(path for path in EXPECTED.rglob("*.txt") if path not in wanted) if EXPECTED.exists() else []
    for path in stale:
        differing.append(f"{path.relative_to(EXPECTED)} (no such case)")
        if not check:
            path.unlink()
    verb = "differ" if check else "written or removed"
    print(f"{len(differing)} of {len(wanted)} expected files {verb}" + "".join(f"\n  {name}" for name in differing))
    return 1 if check and differing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
