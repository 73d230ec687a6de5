"""The bundled sample conversations (README.md here says what each shows), installed as the package data
of `compaction.samples`. `TITLES` names them for people, in the order they are offered; `sample_file(name)`
is the path of one, in the checkout or installed."""

from importlib.resources import as_file, files
from pathlib import Path

TITLES = {
    "seed_demo.json": "The tutorial's demo: 60 file reads and one huge output",
    "realistic_session.json": "A realistic coding session of several hundred turns",
    "anthropic_request.json": "An Anthropic Messages API request (with system prompt and tools)",
    "claude_code_session.jsonl": "A Claude Code session log (JSONL)",
    "claude_code_long_session.jsonl": "A long Claude Code session that compacted itself twice (JSONL, with usage)",
    "openai_chat.json": "An OpenAI chat conversation",
}
DEFAULT = "seed_demo.json"


def sample_file(name: str) -> Path:
    if name not in TITLES:
        raise ValueError(f"no bundled sample {name!r}; the samples are {', '.join(TITLES)}")
    with as_file(files(__name__) / name) as path:  # a real file: packages are installed unzipped
        return path
