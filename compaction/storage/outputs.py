"""Where persisted tool outputs and saved transcripts go on disk.

One root per run or per browser session. File names come from tool_use ids, which the user
controls, so they are sanitised: an id never names a path outside the root.
"""

import hashlib
import json
import re
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from compaction.model.messages import Message

_SAFE = re.compile(r"[^A-Za-z0-9_-]")
_MAX_NAME = 80
ENCODING = "utf-8"
ERRORS = "surrogatepass"  # JSON may carry lone surrogates; keep them byte for byte


def safe_name(tool_use_id: str) -> str:
    """A file name for an id: the id itself when it is plain, else a cleaned prefix and a hash."""
    text = str(tool_use_id)
    cleaned = _SAFE.sub("_", text)[:_MAX_NAME]
    if cleaned == text and cleaned:
        return cleaned
    digest = hashlib.sha256(text.encode(ENCODING, ERRORS)).hexdigest()[:16]
    return f"{cleaned or 'id'}-{digest}"


@dataclass(frozen=True)
class StoredOutput:
    tool_use_id: str
    tool: str
    chars: int
    bytes: int
    sha256: str
    path: Path


class OutputStore:
    """Persisted outputs under `root/tool-results`, transcripts under `root/transcripts`."""

    writes_transcripts = True  # save_transcript writes a file (a sweep's store does not: sweep/grid.py)

    def __init__(self, root: str | Path):
        self.root = Path(root).resolve()
        self.results_dir = self.root / "tool-results"
        self.transcripts_dir = self.root / "transcripts"
        self._next_transcript: tuple[tuple[str, int] | None, int] = (None, 0)
        # outputs this store already holds, by (tool_use_id, length, hash): a replay persists the same
        # output before every call it stays the newest, and hashing it for its digest each time would
        # cost a pass over it (a str caches its own hash, so the key costs nothing the second time)
        self._held: dict[tuple[str, int, int], StoredOutput] = {}

    @classmethod
    def temporary(cls) -> "OutputStore":
        return cls(tempfile.mkdtemp(prefix="compaction-store-"))

    def _inside(self, path: Path) -> Path:
        resolved = path.resolve()
        if self.root not in resolved.parents:
            raise ValueError(f"refusing a path outside the store: {path}")
        return resolved

    def path_for(self, tool_use_id: str) -> Path:
        return self._inside(self.results_dir / f"{safe_name(tool_use_id)}.txt")

    def persist(self, tool_use_id: str, output: str, tool: str = "?") -> StoredOutput:
        """Write the output unless the same output is already there; return where it lies."""
        key = (str(tool_use_id), len(output), hash(output))
        held = self._held.get(key)
        if held is not None and held.path.exists():
            return held
        data = output.encode(ENCODING, ERRORS)
        digest = hashlib.sha256(data).hexdigest()
        path = self.path_for(tool_use_id)
        meta_path = path.with_suffix(".json")
        existing = self._read_meta(meta_path)
        if existing is None or existing.get("sha256") != digest:
            if existing is not None:  # a reused id with other content must not overwrite the first
                path = self._inside(self.results_dir / f"{safe_name(tool_use_id)}-{digest[:12]}.txt")
                meta_path = path.with_suffix(".json")
            self.results_dir.mkdir(parents=True, exist_ok=True)
            if not path.exists():
                path.write_bytes(data)
                meta = {"tool_use_id": str(tool_use_id), "tool": tool, "chars": len(output),
                        "bytes": len(data), "sha256": digest, "file": path.name}
                meta_path.write_text(json.dumps(meta), encoding=ENCODING)
        stored = self._held[key] = StoredOutput(str(tool_use_id), tool, len(output), len(data), digest, path)
        return stored

    @staticmethod
    def _read_meta(meta_path: Path) -> dict | None:
        try:
            return json.loads(meta_path.read_text(encoding=ENCODING))
        except (OSError, ValueError):
            return None

    def list_outputs(self) -> list[StoredOutput]:
        if not self.results_dir.is_dir():
            return []
        found = []
        for meta_path in sorted(self.results_dir.glob("*.json")):
            meta = self._read_meta(meta_path)
            if not meta:
                continue
            found.append(StoredOutput(meta["tool_use_id"], meta.get("tool", "?"), meta.get("chars", 0),
                                      meta["bytes"], meta["sha256"], meta_path.with_suffix(".txt")))
        return found

    def find(self, tool_use_id: str) -> StoredOutput | None:
        for stored in self.list_outputs():
            if stored.tool_use_id == tool_use_id:
                return stored
        return None

    def read(self, tool_use_id: str) -> str:
        stored = self.find(tool_use_id)
        if stored is None:
            raise KeyError(f"no persisted output for tool_use_id {tool_use_id!r}")
        return self._inside(stored.path).read_bytes().decode(ENCODING, ERRORS)

    def read_slice(self, stored: StoredOutput, start: int, length: int) -> str:
        """The whole characters that begin in bytes [start, start + length) of a stored output, read
        without loading the file: consecutive pages join to the output, no character cut in two."""
        start, length = max(start, 0), max(length, 0)
        with open(self._inside(stored.path), "rb") as handle:
            handle.seek(start)
            data = handle.read(length + 3)  # a character that begins in the page ends within 3 more bytes

        def next_character(index: int) -> int:
            while index < len(data) and 0x80 <= data[index] < 0xC0:  # UTF-8 continuation byte
                index += 1
            return index

        return data[next_character(0):next_character(min(length, len(data)))].decode(ENCODING, ERRORS)

    def matches(self, stored: StoredOutput, output: str) -> bool:
        """Whether the file on disk holds exactly `output`."""
        return self._inside(stored.path).read_bytes() == output.encode(ENCODING, ERRORS)

    def save_transcript(self, messages: list[Message], label: str = "transcript") -> Path:
        """The history before a summary replaces it: one JSON message per line."""
        self.transcripts_dir.mkdir(parents=True, exist_ok=True)
        stamp = int(time.time())
        name = safe_name(label)
        # many summaries in one second (a replay): start after the names this store already took
        key, attempt = self._next_transcript
        attempt = attempt if key == (name, stamp) else 0
        while True:
            suffix = f"_{attempt}" if attempt else ""
            path = self._inside(self.transcripts_dir / f"{name}_{stamp}{suffix}.jsonl")
            if not path.exists():
                break
            attempt += 1
        self._next_transcript = ((name, stamp), attempt + 1)
        with open(path, "w", encoding=ENCODING, errors=ERRORS) as handle:
            for message in messages:
                handle.write(json.dumps(message, default=str, ensure_ascii=False) + "\n")
        return path

    def list_transcripts(self) -> list[Path]:
        if not self.transcripts_dir.is_dir():
            return []
        return sorted(self.transcripts_dir.glob("*.jsonl"))
