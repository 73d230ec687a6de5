"""Cursor: its agent transcripts (transcript.py: `{role, message: {content}}` lines, no model, no usage).
Cursor documents no compaction rule of its own, so there is no Cursor preset and no export form; a
transcript is replayed with any of the lab's strategies, its figures estimated."""

from compaction.agents.base import Agent
from compaction.agents.cursor import transcript
from compaction.corpus.homes import Home, folder_before
from compaction.importers.formats import Format

NAME, TITLE = transcript.FORMAT, "Cursor"


def _project(chain: tuple[str, ...], name: str) -> str | None:
    """~/.cursor/projects/<project>/agent-transcripts/<id>/<id>.jsonl: the folder before agent-transcripts."""
    return folder_before(chain, ("agent-transcripts",))


AGENT = Agent(
    NAME, TITLE,
    formats=(Format(NAME, TITLE, "a Cursor agent transcript (~/.cursor/projects/<project>/agent-transcripts/<id>/"
                    "<id>.jsonl; no model nor usage: estimated)", (".jsonl",), None, transcript.load, None,
                    transcript.looks_like, lines_rank=300, marks=("role", "message")),),
    homes=(Home(TITLE, (".cursor", "projects"), ("*.jsonl",), _project),),
)
