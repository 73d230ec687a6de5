"""The bounds on what the loader accepts, so that no input can exhaust memory, the stack or time.

docs/limits.md explains each bound and the measured memory use that goes with it. The checks here run
before or right after parsing and raise ConversationError naming the bound, never MemoryError or
RecursionError.
"""

from compaction.errors import ConversationError

# Largest file (or upload) read, in bytes: 200 MiB, the same as Streamlit's default upload limit.
MAX_FILE_BYTES = 200 * 1024 * 1024

# Deepest nesting of JSON containers. Real transcripts nest a handful of levels (line -> message ->
# content -> block -> input -> ...); refusing deeper input keeps every recursive step (repr, json.dumps,
# deepcopy) far from Python's recursion limit, also in Streamlit's script thread.
MAX_NESTING_DEPTH = 100

# Most JSON values (objects, arrays, numbers, strings after the first in each container) in one file.
# A 200 MiB file of tiny values ("[0.0,0.0,...]" or millions of empty blocks) would otherwise become
# gigabytes of Python objects; 5 million values stay under ~0.6 GB while parsing. A realistic 200 MiB
# agent session holds about 2 million values (the generated ones: ~8,500 values per MB).
MAX_JSON_VALUES = 5_000_000

# Most messages in one conversation, after import. Charts and tables per message stay usable, and a
# pipeline run over 100,000 messages takes well under a second.
MAX_MESSAGES = 100_000

# Peak resident memory of one load + pipeline run over any input within the bounds above (measured, not
# enforced: tests/hostile checks every corpus case against it; the worst accepted input takes ~0.6 GB).
MEMORY_BOUND_BYTES = 1024 ** 3

_STRUCTURE = b'",[{'
_NOT_STRUCTURE = bytes(c for c in range(256) if c not in _STRUCTURE)
_NOT_COUNTED = bytes(c for c in range(256) if c not in b",[{")


def _structure_count(data: bytes) -> int:
    """Commas and opening brackets, plus one: one pass over the bytes (keeping only those), not three."""
    return len(data.translate(None, _NOT_COUNTED)) + 1


def json_value_bound(data: bytes) -> int:
    """An upper bound on the number of JSON values in `data` (one document or JSONL), at C speed.

    Every value after the first in an array or object follows a comma, and every container (a JSONL
    line too) opens with '[' or '{'. Counted over the raw bytes first (memchr speed); only when that
    crude bound, which also counts the commas and brackets inside strings, is over the maximum are
    those inside strings taken out (see _outside_strings).
    """
    if len(data) < MAX_JSON_VALUES:  # fewer bytes than the bound: fewer values too
        return len(data)
    crude = _structure_count(data)
    if crude <= MAX_JSON_VALUES:
        return crude
    return _structure_count(_outside_strings(data))


def _outside_strings(data: bytes) -> bytes:
    """The commas and brackets of `data` that are outside JSON strings, without a regular expression
    (which needs gigabytes for millions of tiny strings). A character is inside a string when an odd
    number of unescaped quotes precede it. Escaped backslashes and escaped quotes are dropped first;
    then everything but quotes and the counted characters; then pairs of adjacent quotes (strings
    holding none of them), which keeps every parity; what is left is split at the quotes."""
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    compact = data.translate(None, _NOT_STRUCTURE).replace(b'""', b"")
    return b"".join(compact.split(b'"')[0::2])


def check_value_count(data: bytes, label: str) -> None:
    """Refuse bytes that would parse into more than MAX_JSON_VALUES values."""
    if len(data) < MAX_JSON_VALUES:
        return
    count = json_value_bound(data)
    if count > MAX_JSON_VALUES:
        raise ConversationError(
            f"holds about {count:,} JSON values, above the maximum of {MAX_JSON_VALUES:,}; "
            "a conversation this fragmented would not fit in memory", where=label)


def check_message_count(count: int, label: str) -> None:
    if count > MAX_MESSAGES:
        raise ConversationError(f"has {count:,} messages, above the maximum of {MAX_MESSAGES:,}", where=label)


def megabytes(size: int) -> str:
    """A byte count in MiB as the bounds are stated (200 MiB reads "200 MB")."""
    return f"{size / (1024 * 1024):,.0f} MB"
