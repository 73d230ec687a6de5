"""Write the files in sample_data/ (run `python -m compaction.generate.write_samples [DIR]`).

Everything is generated from fixed seeds, so running it again gives the same bytes.
"""

import json
import sys
from pathlib import Path

from compaction.generate.openai_export import to_openai
from compaction.generate.realistic import realistic_session
from compaction.generate.seed_demo import seed_demo
from compaction.generate.writers import writers

SYSTEM_PROMPT = ("You are a coding agent working in the user's repository. Use the tools to read, search, "
                 "edit and test code. Keep changes small and explain what you changed.")


def _tool(name: str, description: str, **properties: str) -> dict:
    return {"name": name, "description": description, "input_schema": {
        "type": "object", "properties": {key: {"type": "string", "description": text}
                                         for key, text in properties.items()},
        "required": list(properties)}}


TOOLS = [
    _tool("read_file", "Read a file of the repository.", path="path relative to the repository root"),
    _tool("grep", "Search files for a pattern.", pattern="regular expression", path="folder to search"),
    _tool("bash", "Run a shell command.", command="the command line"),
    _tool("edit_file", "Replace one exact string in a file.", path="the file", old_string="text to replace",
          new_string="replacement"),
    _tool("run_tests", "Run the test suite or part of it.", command="the pytest command line"),
]
# A 1x1 PNG: enough to show how an image block is carried and counted.
TINY_PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")


def anthropic_request() -> dict:
    """A request body: system, tools, a screenshot in the first message, a tool_result made of blocks."""
    messages = realistic_session(turns=10, typical_output=500, max_output=6000, parallel_share=0.3, seed=11)
    messages[0]["content"] = [
        {"type": "text", "text": messages[0]["content"] + " The screenshot shows the error."},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": TINY_PNG}}]
    first_result = messages[2]["content"][0]
    first_result["content"] = [{"type": "text", "text": first_result["content"]}]
    return {"model": "claude-sonnet-4-5", "max_tokens": 8000, "system": SYSTEM_PROMPT, "tools": TOOLS,
            "messages": messages}


def openai_chat() -> dict:
    """A chat completions request: system and developer messages, tool calls, one with broken arguments."""
    messages = to_openai(realistic_session(turns=12, typical_output=500, max_output=6000, parallel_share=0.3,
                                           seed=31), system=SYSTEM_PROMPT)
    messages.insert(1, {"role": "developer", "content": "Answer in English; keep replies short."})
    first_call = next(m for m in messages if m.get("tool_calls"))["tool_calls"][0]
    first_call["function"]["arguments"] = first_call["function"]["arguments"][:-2]  # cut off, as streams do
    tools = [{"type": "function", "function": {"name": t["name"], "description": t["description"],
                                               "parameters": t["input_schema"]}} for t in TOOLS]
    return {"model": "gpt-4.1", "messages": messages, "tools": tools}


def write_samples(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    files = {
        "anthropic_request.json": _json(anthropic_request(), indent=1),
        "openai_chat.json": _json(openai_chat(), indent=1),
        "seed_demo.json": _json(seed_demo()),
        "realistic_session.json": _json(realistic_session(turns=500, typical_output=800, max_output=60_000,
                                                          parallel_share=0.15, seed=7)),
    }
    for agent_writer in writers():
        files.update(agent_writer.samples())
    written = []
    for name, text in files.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def _json(value, indent: int | None = None) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent) + "\n"


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "sample_data"
    for path in write_samples(target):
        print(f"{path}  {path.stat().st_size / 1000:.0f} KB")
