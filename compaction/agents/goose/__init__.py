"""Goose (block/goose): its sessions database (session.py: sessions.db, SQLite, every session) and the JSONL
of versions before it (legacy.py), read into one form (log.py, content.py); its preset (preset.py:
auto-compaction past 0.8 of the context limit), config.yaml as the export form, and its summary's words.

Logs are read whole, not followed while they are written: no live reader."""

from compaction.agents.base import Agent
from compaction.agents.goose import export_form, knobs, legacy, log, preset, session
from compaction.agents.goose.markers import SUMMARY_PREFIX
from compaction.corpus.homes import Home
from compaction.export.base import Form
from compaction.importers.formats import Format

NAME, TITLE = log.FORMAT, "Goose"
DATABASE_FILE = "sessions.db"  # ~/.local/share/goose/sessions/sessions.db, of the suffix .db (a picker matches suffixes)


def _project(chain: tuple[str, ...], name: str) -> str | None:
    return None  # sessions of every project lie in one folder; a session names its working_dir


AGENT = Agent(
    NAME, TITLE,
    formats=(Format(NAME, TITLE, "a Goose sessions database (~/.local/share/goose/sessions/sessions.db, SQLite: "
                    "every session) or a session's JSONL of older versions (sessions/<id>.jsonl)",
                    (".db", ".jsonl"), None, legacy.load, None, legacy.looks_like, lines_rank=350,
                    binary=session.looks_like, load_bytes=session.load, sessions=session.sessions,
                    load_session=session.load_session, marks=("working_dir", "description", "message_count",
                                                              "accumulated_total_tokens")),),
    presets=preset.SPECS,
    own_preset=NAME,
    knobs=knobs.KNOBS,
    forms=(Form(NAME, "Goose config.yaml", "Goose's config.yaml key GOOSE_AUTO_COMPACT_THRESHOLD (goose)",
                export_form.STRATEGIES, export_form.render),),
    homes=(Home(TITLE, (".local", "share", "goose", "sessions"), ("*.jsonl", DATABASE_FILE), _project),),
    summary_prefixes=(SUMMARY_PREFIX,),
)
