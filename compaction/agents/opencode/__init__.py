"""OpenCode (sst/opencode): its sessions as exports, its database and its older JSON files (log/), its
preset (preset.py: overflow at the usable window, pruning of old tool outputs), its opencode.json
`compaction` settings as the export form (export_form.py) and Tune's knobs (knobs.py)."""

from compaction.agents.base import Agent
from compaction.agents.opencode import log
from compaction.importers.formats import Format

NAME, TITLE = log.FORMAT, "OpenCode"

AGENT = Agent(
    NAME, TITLE,
    formats=(Format(NAME, TITLE, "an OpenCode session: `opencode export` JSON, its database (opencode.db) or a "
                    "session file of its older storage folder", (".json", ".db"), log.from_json, None,
                    log.looks_like_document, document_rank=250, binary=log.database.is_database,
                    load_bytes=log.load_bytes, sessions=log.sessions, load_session=log.load_session),),
)
