"""OpenCode (sst/opencode, now anomalyco/opencode): its sessions as exports, its database and its older
JSON files (log/), its preset (preset.py: a summary at the usable window; prune.py: old tool outputs
cleared when a turn ends), its opencode.json as the export form (export_form.py), Tune's knobs, and the
words its compaction leaves (markers.py).

A database holds every session of every project: a corpus lists each (log.sessions). OpenCode keeps it in
~/.local/share/opencode/ with its older storage folder, and the Live page has no reader of it."""

from compaction.agents.base import Agent
from compaction.agents.opencode import export_form, knobs, log, preset
from compaction.agents.opencode.markers import PRUNED, SUMMARY_PREFIX
from compaction.export.base import Form
from compaction.importers.formats import Format
from compaction.measures.windows import rows

NAME, TITLE = log.FORMAT, "OpenCode"

AGENT = Agent(
    NAME, TITLE,
    formats=(Format(NAME, TITLE, "an OpenCode session: `opencode export` JSON, its database (opencode.db) or a "
                    "session file of its older storage folder", (".json", ".db"), log.from_json, None,
                    log.looks_like_document, document_rank=250, binary=log.database.is_database,
                    load_bytes=log.load_bytes, sessions=log.sessions, load_session=log.load_session),),
    presets=preset.SPECS,
    own_preset=NAME,
    knobs=knobs.KNOBS,
    forms=(Form(NAME, "OpenCode opencode.json", "OpenCode's opencode.json compaction settings (opencode)",
                export_form.STRATEGIES, export_form.render),),
    summary_prefixes=(SUMMARY_PREFIX,),
    placeholders=(PRUNED,),
    # the models of the real OpenCode logs read (OpenCode takes a model's limits from models.dev; the log
    # does not record them): Moonshot's Kimi K2 thinking models
    windows=rows("kimi-k2.5 kimi-k2.6", 256_000, "https://www.promptfoo.dev/docs/providers/moonshot/ (Kimi K2 "
                 "thinking models, 256k context; docs.openclaw.ai/providers/moonshot: contextWindow 256000)"),
)
