"""Getting a conversation in: bundled samples, generated sessions and uploads, cached so that a slider
move never parses or measures the conversation again."""

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from compaction import samples
from compaction.generate import generate
from compaction.importers import (
    MAX_FILE_BYTES,
    RunKey,
    all_formats,
    load_conversation,
    load_run,
    sessions_in,
    title_of,
)
from compaction.layers import PipelineResult
from compaction.model import Conversation, History, Prepared, prepare

DEFAULT_SAMPLE = samples.DEFAULT
# The Conversation page's tabs, by Loaded.origin, and the key that holds the open one.
SOURCE_TABS = {"sample": "Bundled sample", "generated": "Generate", "upload": "Upload a file"}
SOURCE_TAB_KEY = "conversation_tab"
# the uploader takes any file: the formats are recognised by content, and a file no format reads is told why
# (a list of suffixes refused a chat history saved as .md: "text/markdown files are not allowed")
UPLOAD_TYPES = None
UPLOAD_LIMIT_MB = MAX_FILE_BYTES // (1024 * 1024)
UPLOAD_HELP = "; ".join(entry.described for entry in all_formats()) + ". The format is detected."


def format_title(name: str) -> str:
    """The Format metric's words: the registry's title, 'generated' for the generator's sessions."""
    return "generated" if name == "generated" else title_of(name)


@dataclass(frozen=True)
class Loaded:
    """The conversation the dashboard shows. `key` names its content, for the caches."""

    key: str
    label: str
    origin: str  # "sample", "generated" or "upload"
    conversation: Conversation
    upload: str | None = None  # an upload's content hash: the address bar names it, a reload loads it again
    session: int | None = None  # which session of a file of several is on show (RunKey.line); None: as read whole


def open_upload_tab() -> None:
    """The Conversation page opens next on its upload tab (called before switching to it)."""
    st.session_state[SOURCE_TAB_KEY] = SOURCE_TABS["upload"]


def sample_names() -> list[str]:
    """The bundled samples, in the order they are offered."""
    return list(samples.TITLES)


def sample_title(name: str) -> str:
    return samples.TITLES.get(name, name)


CACHE_TTL_S = 30 * 60


# Loaded conversations are shared by every session as they are (cache_resource, not cache_data's copy per
# caller): a sample loaded by 8 people is read and measured once. Pages treat them as read-only.
@st.cache_resource(show_spinner=False, max_entries=16)
def _read_sample(name: str) -> Conversation:
    return load_conversation(samples.sample_file(name), name=name)


def load_sample(name: str) -> Loaded:
    """A bundled sample by file name; ConversationError when it cannot be read."""
    return Loaded(f"sample:{name}", name, "sample", _read_sample(name))


# Uploads can be large and the caches are shared by every session: keep few, and not for long. Keyed by
# the content's digest, computed once (the bytes themselves are not hashed again for the key).
@st.cache_resource(show_spinner=False, max_entries=4, ttl=CACHE_TTL_S)
def _parse_upload(digest: str, name: str, _data: bytes, session: int | None, kept: str | None) -> Conversation:
    if session is None or kept is None:
        return load_conversation(_data, name=name)
    key = next(key for key in upload_sessions(digest, name, kept) if key.line == session)
    return load_run(kept, key, name=name)


@st.cache_resource(show_spinner=False, max_entries=8, ttl=CACHE_TTL_S)
def upload_sessions(digest: str, name: str, kept: str) -> tuple[RunKey, ...]:
    """The sessions of an uploaded file that holds several (importers.sessions_in, on the file the upload
    is kept in, under the name it came with), else ()."""
    return sessions_in(kept, name)


def load_upload(data: bytes, name: str, session: int | None = None, kept: Path | None = None) -> Loaded:
    """An uploaded file's bytes, or one session of a file holding several (`session`: its RunKey.line, read
    from `kept`, the file the upload is kept in; one no longer in the file: the whole file);
    ConversationError naming the file and the place when malformed."""
    digest = hashlib.sha256(data).hexdigest()
    sessions = upload_sessions(digest, name, str(kept)) if kept is not None else ()
    key = next((key for key in sessions if key.line == session), None)
    line = key.line if key is not None else None
    return Loaded(f"upload:{digest[:20]}" + (f":{line}" if key else ""), name if key is None else f"{name} [{key.name}]",
                  "upload", _parse_upload(digest, name, data, line, str(kept) if kept else None), digest, line)


@st.cache_resource(show_spinner=False, max_entries=4, ttl=CACHE_TTL_S)
def _read_file(path: str, label: str, version: tuple[int, int]) -> Conversation:
    return load_conversation(Path(path), name=label)


def load_file(path: Path, label: str) -> Loaded:
    """A session file on disk (one of a corpus, its path already checked); read again when it changes."""
    info = path.stat()
    version = (info.st_mtime_ns, info.st_size)
    # a file of the user's like an upload: the Conversation page shows it under its upload tab
    return Loaded(f"file:{path}:{version[0]}:{version[1]}", label, "upload", _read_file(str(path), label, version))


@st.cache_resource(show_spinner=False, max_entries=4, ttl=CACHE_TTL_S)
def _read_run(path: str, line: int, name: str, instance: str | None, label: str,
              version: tuple[int, int]) -> Conversation:
    return load_run(Path(path), RunKey(line, name, instance), name=label)


def load_run_of(path: Path, key: RunKey, label: str) -> Loaded:
    """One run of an evaluation output on disk (a corpus's session, its path already checked)."""
    info = path.stat()
    version = (info.st_mtime_ns, info.st_size)
    return Loaded(f"run:{path}:{key.line}:{version[0]}:{version[1]}", f"{label} [{key.name}]", "upload",
                  _read_run(str(path), key.line, key.name, key.instance, label, version))


@st.cache_resource(show_spinner=False, max_entries=4)
def _generate(kind: str, knobs: str) -> list[dict]:
    return generate(kind, **json.loads(knobs))


def load_generated(kind: str, **knobs) -> Loaded:
    """A generated conversation; SettingsError for a knob out of range."""
    encoded = json.dumps(knobs, sort_keys=True)
    label = kind if not knobs else f"{kind} ({', '.join(f'{k}={v}' for k, v in sorted(knobs.items()))})"
    messages = _generate(kind, encoded)
    conversation = Conversation(messages, format="generated", source=label)
    return Loaded(f"generated:{kind}:{encoded}", label, "generated", conversation)


@st.cache_resource(show_spinner=False, max_entries=8, ttl=CACHE_TTL_S)
def _measured(key: str, _conversation: Conversation) -> Prepared:
    return prepare(_conversation).prepared


def prepared(key: str, conversation: Conversation) -> History:
    """The measured form of a loaded conversation: the frozen Prepared is shared by every rerun and session
    (measured once); the History over it, with its own run, is this caller's."""
    facts = _measured(key, conversation)
    return History(facts.messages, facts.sizes, list(range(len(facts.messages))), facts,
                   pair_problems=facts.pair_problems)


def compacted_json(result: PipelineResult, conversation: Conversation) -> str:
    """What the pipeline would send, as an Anthropic request body (system and tools kept) that loads again
    (after a log's last compaction, its own summary first, as it is)."""
    document = {"messages": list(result.final.messages)}
    if conversation.system:
        document["system"] = conversation.system
    if conversation.tools:
        document["tools"] = conversation.tools
    return json.dumps(document, ensure_ascii=False, indent=1, default=str)
