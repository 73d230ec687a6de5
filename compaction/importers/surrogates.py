"""Lone UTF-16 surrogates: JSON may spell them ("\\ud800"), but they are not text.

No UTF-8 encoder accepts them (the API request, pyarrow tables, a browser page, a download), so the
loader replaces each lone surrogate by U+FFFD and says so in a warning. A valid pair ("\\ud83d\\ude00")
is decoded by json into one character and is not touched.
"""

import re
from dataclasses import replace
from typing import Any

from compaction.model.conversation import Conversation, LoadWarning
from compaction.words import plural

# A \u escape of a surrogate in the raw text: only then can a parsed string hold one (cheap test).
_ESCAPE = re.compile(rb"\\u[dD][89abcdefABCDEF]")
_LONE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def might_hold_surrogates(data: bytes) -> bool:
    return _ESCAPE.search(data) is not None


def _clean(value: Any) -> tuple[Any, int]:
    """A copy of `value` with lone surrogates replaced (iterative), and how many strings changed."""
    changed = 0

    def fix(item: Any) -> Any:
        nonlocal changed
        if isinstance(item, str) and _LONE.search(item):
            changed += 1
            return _LONE.sub(REPLACEMENT, item)
        return item

    root = [value]
    stack: list[list | dict] = [root]
    while stack:
        container = stack.pop()
        keys = range(len(container)) if isinstance(container, list) else list(container)
        for key in keys:
            item = container[key]
            if isinstance(item, dict):
                item = container[key] = {fix(k): v for k, v in item.items()}
                stack.append(item)
            elif isinstance(item, list):
                item = container[key] = list(item)
                stack.append(item)
            else:
                container[key] = fix(item)
    return root[0], changed


def without_lone_surrogates(conversation: Conversation) -> Conversation:
    """The conversation with every lone surrogate replaced by U+FFFD, and a warning when there were any."""
    (messages, system, tools), changed = _clean([conversation.messages, conversation.system, conversation.tools])
    if not changed:
        return conversation
    warning = LoadWarning(f"{plural(changed, 'string')} held lone UTF-16 surrogates (\\ud800-\\udfff), which are not "
                          "text; each was replaced by U+FFFD")
    return replace(conversation, messages=messages, system=system, tools=tools,
                   warnings=[warning, *conversation.warnings])
