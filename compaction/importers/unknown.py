"""A file that no format the lab reads recognises: what it most resembles, or what the lab reads.

Detection hands a file no recogniser claims to the catch-all entries (formats.py: a JSON document to the
Anthropic reader, JSON lines to the session log that accepts any lines), whose errors speak of their own
format. When the file shares too few of that format's keys (Format.marks) to be one of its files gone
wrong, its error is replaced: the format whose keys it shares most is named, or, sharing too few with
every format, the formats the lab reads are listed with the file each agent writes. No message names a
format whose keys the file does not carry.
"""

from collections.abc import Callable, Iterable
from typing import Any

from compaction.errors import ConversationError
from compaction.importers.formats import Format, all_formats
from compaction.model.conversation import Conversation

SHARED = 2  # keys of a format's marks a file must carry to resemble it, unless it carries no other key
_LOOKED_AT = 20  # objects whose keys are gathered
_SHOWN = 6  # keys named in a message


def keys_of(values: Iterable[Any]) -> set[str]:
    """The keys of the first objects among `values`."""
    found: set[str] = set()
    for value in list(values)[:_LOOKED_AT]:
        if isinstance(value, dict):
            found.update(key for key in value if isinstance(key, str))
    return found


def document_keys(value: Any) -> set[str]:
    """The keys of a list's objects, or of an object and of the objects of its lists (its `messages`)."""
    if isinstance(value, list):
        return keys_of(value)
    inner = [item for part in (value.values() if isinstance(value, dict) else ()) if isinstance(part, list)
             for item in part[:_LOOKED_AT]]
    return keys_of([value]) | keys_of(inner)


def resembled(keys: set[str]) -> Format | None:
    """The format whose marks the keys share most (at least SHARED of them, or all the keys when they are
    fewer: `[{"content": ...}]` is a list of messages missing their role), the first registered on a tie."""
    best, most = None, 0
    for entry in all_formats():
        shared = len(keys & set(entry.marks))
        if shared and (shared >= SHARED or keys <= set(entry.marks)) and shared > most:
            best, most = entry, shared
    return best


def guarded(load: Callable[[], Conversation], entry: Format, caught: bool, keys: set[str], what: str,
            label: str) -> Conversation:
    """`load()`; when the catch-all `entry` was reached only for want of another (`caught`) and refuses the
    file, the refusal of a file of no known format instead, unless the file resembles `entry` itself."""
    try:
        return load()
    except ConversationError:
        if not caught or not keys or resembled(keys) is entry:  # `[]`: the catch-all's "no messages" says it
            raise
        raise unknown(label, f"{what} with the keys {_named(keys)}", keys) from None


def unknown(label: str, what: str, keys: set[str] = frozenset()) -> ConversationError:  # type: ignore[assignment]
    """The error of a file of no known format: what it most resembles, else every format and its file."""
    best = resembled(keys)
    if best is not None:
        shared = ", ".join(repr(key) for key in sorted(keys & set(best.marks))[:_SHOWN])
        return ConversationError(f"{what}: no format the lab reads recognises it. It most resembles {best.title} "
                                 f"({best.described}), whose keys {shared} it carries, but it is not one: is it "
                                 "the right file?", where=label)
    listed = "; ".join(f"{entry.title}: {entry.described}" for entry in all_formats())
    return ConversationError(f"{what}: no format the lab reads recognises it. The lab reads {listed}.", where=label)


def _named(keys: set[str]) -> str:
    shown = ", ".join(repr(key) for key in sorted(keys)[:_SHOWN])
    more = f" and {len(keys) - _SHOWN:,} more" if len(keys) > _SHOWN else ""
    return f"{shown}{more}"
