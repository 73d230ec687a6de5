"""The s08 tutorial's agent loop on Compaction Lab's compacting client.

The tutorial compacts inside its loop (L3, L1, L2, L4 before every call, reactive compaction when the API
says the prompt is too long, the `compact` tool). Here the client does all of it, at the settings tuned in
the lab, and writes a trace of every call; the loop only calls the model and runs the tools:

    python examples/seed_agent_loop.py "Write a command-line tool hello.py" --trace trace.jsonl
    compaction replay trace.jsonl --strategy pipeline --context-limit 20000   # the prediction, beside what ran

It needs an Anthropic key (ANTHROPIC_API_KEY) and the anthropic package (pip install 'compaction-lab[claude]').
"""

import argparse
import subprocess
from pathlib import Path

from compaction.client import CompactingClient

TOOLS = [
    {"name": "read_file", "description": "Read a file.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}},
    {"name": "bash", "description": "Run a shell command.",
     "input_schema": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}},
]


def run_tool(name: str, tool_input: dict) -> str:
    """The tutorial's two tools. A real agent checks what it runs: this is a demo."""
    if name == "read_file":
        return Path(tool_input["path"]).read_text(encoding="utf-8", errors="replace")
    if name == "bash":
        done = subprocess.run(tool_input["command"], shell=True, capture_output=True, text=True, timeout=120)
        return done.stdout + done.stderr
    return f"unknown tool {name!r}"


def agent_loop(client: CompactingClient, messages: list, model: str, tools: list, run_tool, system: str | None = None):
    """The tutorial's loop, the compaction left to the client: call, append the answer, run the tools."""
    extra = {"system": system} if system else {}
    while True:
        response = client.messages.create(model=model, max_tokens=8000, messages=messages, tools=tools, **extra)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return response
        results = [client.answer_compact(block) or  # the client answers `compact` and compacts after it
                   {"type": "tool_result", "tool_use_id": block.id, "content": run_tool(block.name, block.input)}
                   for block in response.content if block.type == "tool_use"]
        messages.append({"role": "user", "content": results})


def main() -> None:
    import anthropic

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("task", help="what the agent should do")
    parser.add_argument("--model", default="claude-sonnet-4-5")
    parser.add_argument("--trace", default="compaction-trace.jsonl", help="the JSONL trace of every call")
    parser.add_argument("--context-limit", type=int, default=50_000, help="CONTEXT_LIMIT, as tuned in the lab")
    parser.add_argument("--keep-recent", type=int, default=3, help="KEEP_RECENT, as tuned in the lab")
    args = parser.parse_args()
    client = CompactingClient(anthropic.Anthropic(), strategy="pipeline", trace=args.trace, compact_tool=True,
                              settings={"context_limit": args.context_limit, "keep_recent": args.keep_recent})
    response = agent_loop(client, [{"role": "user", "content": args.task}], args.model, TOOLS, run_tool)
    print("".join(block.text for block in response.content if block.type == "text"))
    print(f"{client.calls} model calls; trace in {args.trace}")


if __name__ == "__main__":
    main()
