"""A realistic coding-agent session: a request, then many turns of read_file / grep / bash / edit_file /
run_tests, with heavy-tailed output sizes, some parallel calls, some tool errors, occasional user
follow-ups (with constraints the summary should keep) and assistant reasoning text.

Every turn is one assistant message and one user message, and the session ends with tool results (the
state just before the next model call), so `turns` turns give `2 * turns + 1` messages. The result is
always valid per compaction.model.validity.check_pairs, and the same for the same knobs and seed.
"""

import math
import random
import string

from compaction.errors import SettingsError
from compaction.generate import outputs
from compaction.generate.outputs import FUNCTIONS

MAX_TURNS = 1_000_000
# Spread of the log-normal output sizes: with 1.2, about 1 output in 200 is 25x the typical size.
SIZE_SIGMA = 1.2
ERROR_SHARE = 0.07
FOLLOW_UP_SHARE = 0.04
REASONING_SHARE = 0.6

# Relative weight of each tool, and how large its outputs are compared with the typical size.
TOOLS = {"read_file": (30, 1.5), "grep": (15, 0.6), "bash": (20, 1.0), "edit_file": (20, 0.0),
         "run_tests": (15, 1.3)}
PARALLEL_TOOLS = ("read_file", "grep", "bash")

REQUESTS = (
    "The `{pkg} export` command crashes with a ValueError on an empty input file. Find the cause, fix it "
    "and add a regression test.",
    "Add a `--json` flag to the {pkg} CLI so the report can be piped to jq. Keep the table output as the "
    "default.",
    "Our nightly job in {pkg} is slow since last week. Profile the scheduler, find what got slower and "
    "fix it.",
    "Refactor the storage layer of {pkg} so the sqlite code is behind one interface; tests must still pass.",
)
FOLLOW_UPS = (
    "Please don't add any new dependencies; standard library only.",
    "Keep it compatible with Python 3.9, we still deploy there.",
    "Don't change the public function signatures in {path}; other teams import them.",
    "Also add a test for the empty-input case.",
    "Use pathlib rather than os.path in new code.",
    "Keep the CLI output format unchanged, scripts parse it.",
    "Stop for a moment: what have you changed so far? Then carry on.",
)
# Reasoning text before a call, by the tool it leads to ("parallel" when several calls follow).
REASONING = {
    "read_file": ("Let me look at how `{func}` is used in {path} before changing anything.",
                  "The traceback points into {path}. I'll read it and check the empty-input branch."),
    "grep": ("I'll search for other callers of `{func}` so the fix covers all of them.",),
    "bash": ("I'll check the log for the original error.", "Let me reproduce the failure from the shell."),
    "edit_file": ("That failure is in `{func}`: it assumes at least one row. I'll guard the empty case in {path}.",),
    "run_tests": ("Now I'll run the tests to see whether the change broke anything.",),
    "parallel": ("Reading the related modules in parallel to understand the data flow.",),
}
ID_ALPHABET = string.ascii_letters + string.digits


def realistic_session(turns: int = 300, typical_output: int = 800, max_output: int = 100_000,
                      parallel_share: float = 0.15, seed: int = 0) -> list[dict]:
    """A generated session; see the module docstring. Sizes are characters of tool output."""
    _check_knobs(turns, typical_output, max_output, parallel_share)
    return _Session(random.Random(seed), typical_output, max_output, parallel_share).run(turns)


def _check_knobs(turns, typical_output, max_output, parallel_share) -> None:
    if not isinstance(turns, int) or not 1 <= turns <= MAX_TURNS:
        raise SettingsError(f"turns must be a whole number from 1 to {MAX_TURNS}, got {turns!r}")
    if not isinstance(typical_output, int) or typical_output < 1:
        raise SettingsError(f"typical_output must be a positive whole number, got {typical_output!r}")
    if not isinstance(max_output, int) or max_output < typical_output:
        raise SettingsError(f"max_output must be a whole number of at least typical_output ({typical_output}), "
                            f"got {max_output!r}")
    if not isinstance(parallel_share, int | float) or not 0 <= parallel_share <= 1:
        raise SettingsError(f"parallel_share must be between 0 and 1, got {parallel_share!r}")


class _Session:
    def __init__(self, rng: random.Random, typical: int, maximum: int, parallel_share: float):
        self.rng = rng
        self.typical = typical
        self.maximum = maximum
        self.parallel_share = parallel_share
        self.project = outputs.make_project(rng)
        self.ids: set[str] = set()
        self.follow_ups: list[str] = []
        self.tool_names = list(TOOLS)
        self.tool_weights = [weight for weight, _ in TOOLS.values()]

    def run(self, turns: int) -> list[dict]:
        request = self.rng.choice(REQUESTS).format(pkg=self.project.package)
        messages = [{"role": "user", "content": request}]
        for turn in range(turns):
            # A follow-up only after a tool turn, never as the last turn (sessions end in tool results).
            after_tools = messages[-1]["role"] == "user" and isinstance(messages[-1]["content"], list)
            if after_tools and turn < turns - 1 and self.rng.random() < FOLLOW_UP_SHARE:
                messages.extend(self._follow_up_turn())
            else:
                messages.extend(self._tool_turn())
        return messages

    def _follow_up_turn(self) -> list[dict]:
        """The assistant reports, the person answers with a new constraint or question."""
        path = self._path()
        report = (f"I've updated {path} and the focused tests pass. Next I plan to check the remaining "
                  f"callers of `{self.rng.choice(FUNCTIONS)}`.")
        if not self.follow_ups:  # each follow-up once before any repeats, as a person would
            self.follow_ups = self.rng.sample(FOLLOW_UPS, len(FOLLOW_UPS))
        follow_up = self.follow_ups.pop().format(path=path)
        return [{"role": "assistant", "content": [{"type": "text", "text": report}]},
                {"role": "user", "content": follow_up}]

    def _tool_turn(self) -> list[dict]:
        rng = self.rng
        if rng.random() < self.parallel_share:
            names = [rng.choice(PARALLEL_TOOLS) for _ in range(rng.randint(2, 4))]
        else:
            names = rng.choices(self.tool_names, self.tool_weights)
        content: list[dict] = []
        if rng.random() < REASONING_SHARE:
            topic = names[0] if len(names) == 1 else "parallel"
            text = rng.choice(REASONING[topic]).format(func=rng.choice(FUNCTIONS), path=self._path())
            content.append({"type": "text", "text": text})
        results = []
        for name in names:
            tool_input, output, is_error = self._call(name)
            output = output[: self.maximum]  # a hard cap: templates and whole lines may overshoot
            use_id = self._new_id()
            content.append({"type": "tool_use", "id": use_id, "name": name, "input": tool_input})
            result: dict = {"type": "tool_result", "tool_use_id": use_id, "content": output}

            if is_error:
                result["is_error"] = True
            results.append(result)
        return [{"role": "assistant", "content": content}, {"role": "user", "content": results}]

    def _size(self, name: str) -> int:
        """Heavy-tailed: log-normal around the typical size (scaled per tool), capped at the maximum."""
        factor = TOOLS[name][1]
        drawn = self.rng.lognormvariate(math.log(self.typical * factor), SIZE_SIGMA)
        return min(self.maximum, max(40, int(drawn)))

    def _call(self, name: str) -> tuple[dict, str, bool]:
        """Input, output and error flag of one tool call."""
        rng, project = self.rng, self.project
        failed = rng.random() < ERROR_SHARE
        if name == "read_file":
            path = self._path()
            if failed:
                return {"path": path.replace(".py", "_old.py")}, "Error: File does not exist.", True
            return {"path": path}, outputs.file_content(rng, project, self._size(name)), False
        if name == "grep":
            pattern = rng.choice(FUNCTIONS)
            output = outputs.grep_output(rng, project, pattern, self._size(name))
            return {"pattern": pattern, "path": f"src/{project.package}"}, output, False
        if name == "edit_file":
            path = self._path()
            tool_input = {"path": path, "old_string": "    return result",
                          "new_string": "    if not rows:\n        return {}\n    return result"}
            if failed:
                return tool_input, f"Error: old_string not found in {path}.", True
            return tool_input, f"The file {path} has been updated.", False
        if name == "run_tests":
            target = project.test_file(rng.choice(project.modules))
            failing = failed or rng.random() < 0.25
            output = outputs.test_output(rng, project, self._size(name), failing)
            return {"command": f"python -m pytest {target} -q"}, output, failing
        return self._bash(failed)

    def _bash(self, failed: bool) -> tuple[dict, str, bool]:
        rng, project = self.rng, self.project
        if failed:
            command = f"python -m {project.package} export --input data/empty.csv"
            return {"command": command}, (f"Exit code 1\nTraceback (most recent call last):\n  File "
                                          f"\"{self._path()}\", line {rng.randrange(10, 300)}\n"
                                          "ValueError: no rows to export"), True
        if rng.random() < 0.5:
            command = rng.choice(("tail -n 2000 logs/app.log", "cat logs/worker.log", "journalctl -u app -n 5000"))
            return {"command": command}, outputs.log_output(rng, self._size("bash")), False
        command = rng.choice((f"ls -la src/{project.package}", "ls -laR src tests"))
        return {"command": command}, outputs.listing_output(rng, project, self._size("bash")), False

    def _path(self) -> str:
        module = self.rng.choice(self.project.modules)
        return self.project.test_file(module) if self.rng.random() < 0.2 else self.project.source(module)

    def _new_id(self) -> str:
        """A tool_use id in the API's style; drawn again on the (unlikely) clash, since ids must be unique."""
        while True:
            use_id = "toolu_01" + "".join(self.rng.choices(ID_ALPHABET, k=22))
            if use_id not in self.ids:
                self.ids.add(use_id)
                return use_id
