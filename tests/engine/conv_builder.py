"""Small, valid agent conversations for the replay tests, built from a list of turn specs.

A turn is (tool output sizes, whether one call is `compact`): an assistant message calling one tool
per size (parallel calls when several), then the user message with their results. An empty size
list is a text-only answer followed by a new user request.
"""

import copy
import random

from hypothesis import strategies as st

from compaction.layers.compact_tool import COMPACT_RESULT

TOOLS = ("read_file", "bash", "grep")


def _output(tag: str, chars: int) -> str:
    line = f"{tag}: line of tool output with an error now and then\n"
    return (line * (chars // len(line) + 1))[:chars]


def build(turns: list[tuple[list[int], bool]], task: str = "Fix the failing tests; do not touch docs/.") -> list[dict]:
    messages: list[dict] = [{"role": "user", "content": task}]
    for number, (output_sizes, compact) in enumerate(turns):
        if not output_sizes and not compact:
            messages.append({"role": "assistant", "content": [{"type": "text", "text": f"Step {number} done."}]})
            messages.append({"role": "user", "content": f"Now continue with part {number}. Keep it short."})
            continue
        uses, results = [], []
        for k, chars in enumerate(output_sizes):
            use_id = f"toolu_{number}_{k}"
            tool = TOOLS[(number + k) % len(TOOLS)]
            uses.append({"type": "tool_use", "id": use_id, "name": tool,
                         "input": {"path": f"src/mod_{number}_{k}.py"} if tool == "read_file"
                         else {"command": f"pytest -k case_{number}"}})
            results.append({"type": "tool_result", "tool_use_id": use_id,
                            "content": _output(f"{tool} {number}", chars)})
        if compact:
            use_id = f"toolu_{number}_compact"
            uses.append({"type": "tool_use", "id": use_id, "name": "compact",
                         "input": {"focus": f"the work up to step {number}"}})
            results.append({"type": "tool_result", "tool_use_id": use_id, "content": COMPACT_RESULT})
        messages.append({"role": "assistant", "content": [{"type": "text", "text": f"Looking at step {number}."},
                                                          *uses]})
        messages.append({"role": "user", "content": results})
    messages.append({"role": "assistant", "content": [{"type": "text", "text": "All done."}]})
    return messages


def random_turns(turns: int, seed: int = 0, big_every: int = 40, compact_every: int = 0
                 ) -> list[tuple[list[int], bool]]:
    """A realistic-ish mix: mostly one read of 200-3,000 chars, some parallel calls, a rare huge
    output (over the L3 budget), a text-only turn now and then."""
    rng = random.Random(seed)
    spec = []
    for number in range(turns):
        if rng.random() < 0.08:
            spec.append(([], False))
            continue
        outputs = [rng.randint(200, 3_000) for _ in range(rng.choice((1, 1, 1, 2, 3)))]
        if big_every and number % big_every == big_every - 1:
            outputs.append(rng.randint(210_000, 260_000))
        spec.append((outputs, bool(compact_every) and number % compact_every == compact_every - 1))
    return spec


def with_compact_calls(data, messages):
    """Rename the first tool of some assistant turns to `compact`, so the compact tool is exercised."""
    messages = copy.deepcopy(messages)
    for message in messages:
        uses = [b for b in message["content"] if isinstance(b, dict) and b.get("type") == "tool_use"] \
            if message["role"] == "assistant" and isinstance(message["content"], list) else []
        if uses and data.draw(st.integers(0, 4)) == 0:
            uses[0]["name"] = "compact"
    return messages
