"""Aider: its chat history (log/: `.aider.chat.history.md`, one model call per reply, its Tokens line's
usage, `/clear` and the visible summaries as compaction points), its preset (preset.py: ChatSummary's
summarisation of the done messages past max_chat_history_tokens), its `.aider.conf.yml` as the export
form (export_form.py) and its summary's words.

Aider keeps its history in each project's folder, not in a home folder of its own, and a history is
read whole, not followed while it is written: no home nor live reader. A history under another name
(--chat-history-file) is still recognised by its first line when it is loaded by path or with
`--format aider`; a corpus folder and an upload take the default name only."""

from compaction.agents.aider import export_form, knobs, log, preset
from compaction.agents.aider.markers import SUMMARY_PREFIX
from compaction.agents.base import Agent
from compaction.export.base import Form
from compaction.importers.formats import Format

NAME, TITLE = log.FORMAT, "Aider"
HISTORY_FILE = ".aider.chat.history.md"  # aider's default --chat-history-file, in the repository's root

AGENT = Agent(
    NAME, TITLE,
    # the file's own name as the suffix: ".md" would make every README of a corpus folder a session
    formats=(Format(NAME, TITLE, "an Aider chat history (.aider.chat.history.md: #### the person, > aider's notices "
                    "and Tokens lines, the replies between)", (HISTORY_FILE,), load_text=log.load,
                    text=log.looks_like, sessions=log.sessions, load_session=log.load_session),),
    presets=preset.SPECS,
    own_preset=NAME,
    knobs=knobs.KNOBS,
    forms=(Form(NAME, "Aider .aider.conf.yml", "Aider's .aider.conf.yml key max-chat-history-tokens (aider)",
                export_form.STRATEGIES, export_form.render),),
    summary_prefixes=(SUMMARY_PREFIX,),
)
