"""Crush (charmbracelet/crush): its database (`.crush/crush.db`, SQLite, every session of a project: log.py
reads one, database.py opens the file), its preset (preset.py: auto-summarise with 20,000 tokens or a
fifth of the window left), crush.json as the export form, and the words its summary opens with.

Crush keeps its database in each project's folder, not in a home folder of its own, and it is read whole,
not followed while it is written: no home nor live reader."""

from compaction.agents.base import Agent
from compaction.agents.crush import database, export_form, knobs, log, preset
from compaction.agents.crush.markers import SUMMARY_PREFIX
from compaction.export.base import Form
from compaction.importers.formats import Format

NAME, TITLE = log.FORMAT, "Crush"
# the suffix, not the name: a browser's file picker matches `.crush.db` only on a name that ends with it, and
# the file is named crush.db; another SQLite file of a corpus is told apart by its tables (database.py)
DATABASE_SUFFIX = ".db"

AGENT = Agent(
    NAME, TITLE,
    formats=(Format(NAME, TITLE, "a Crush database (.crush/crush.db, SQLite: every session of the project)",
                    (DATABASE_SUFFIX,), binary=database.looks_like, load_bytes=log.load, sessions=log.sessions,
                    load_session=log.load_session),),
    presets=preset.SPECS,
    own_preset=NAME,
    knobs=knobs.KNOBS,
    forms=(Form(NAME, "Crush crush.json", "Crush's crush.json options.disable_auto_summarize (crush)",
                export_form.STRATEGIES, export_form.render),),
    summary_prefixes=(SUMMARY_PREFIX,),
)
