"""Whatever the input, the loader either returns a conversation or raises ConversationError."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from compaction.errors import ConversationError
from compaction.importers import choices, load_conversation
from compaction.model.conversation import Conversation

_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.sampled_from(
    ["user", "assistant", "tool", "system", "text", "tool_use", "tool_result", "image_url", "function", "x"])
_keys = st.sampled_from(["role", "content", "type", "text", "id", "name", "input", "tool_use_id", "messages",
                         "tools", "system", "tool_calls", "tool_call_id", "function", "arguments", "uuid",
                         "parentUuid", "message", "isSidechain", "subtype", "compactMetadata", "image_url"])
_json = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=5),
                     max_leaves=30)


def _load(data: bytes, fmt: str) -> None:
    try:
        assert isinstance(load_conversation(data, format=fmt, name="fuzz"), Conversation)
    except ConversationError as error:
        assert str(error).startswith("fuzz") or "format" in str(error)


@settings(max_examples=150, deadline=None)
@given(value=_json, fmt=st.sampled_from(choices()))
def test_any_json_document_loads_or_fails_cleanly(value, fmt):
    _load(json.dumps(value).encode(), fmt)


@settings(max_examples=100, deadline=None)
@given(lines=st.lists(_json, min_size=1, max_size=6), fmt=st.sampled_from(choices()))
def test_any_jsonl_document_loads_or_fails_cleanly(lines, fmt):
    _load("\n".join(json.dumps(line) for line in lines).encode(), fmt)


@settings(max_examples=100, deadline=None)
@given(data=st.binary(max_size=200))
def test_any_bytes_load_or_fail_cleanly(data):
    _load(data, "auto")
