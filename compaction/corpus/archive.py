"""Unpacking an uploaded .zip of sessions into a folder, safely.

Only session files (a suffix of the formats registry) are written. A member is skipped, and listed with the reason,
when its name would land outside the folder (absolute, `..`, a drive letter), when it is a symbolic
link, or when it is larger than one session file may be (limits.MAX_FILE_BYTES). The archive as a whole
is refused past MAX_MEMBERS members or MAX_TOTAL_BYTES unpacked; sizes are counted while unpacking,
not taken from the archive's own headers, which a crafted file can understate.
"""

import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from compaction.corpus.files import SessionFile, discover, with_refused
from compaction.errors import ConversationError
from compaction.importers import limits
from compaction.importers.formats import suffixes

MAX_MEMBERS = 100_000
MAX_TOTAL_BYTES = 4 * 1024 ** 3
_CHUNK = 1024 * 1024


@dataclass
class Unpacked:
    folder: Path
    files: list[str] = field(default_factory=list)  # relative paths written
    skipped: dict[str, str] = field(default_factory=dict)  # member name -> why it was not written

    def sessions(self) -> list[SessionFile]:
        """The session files written and, as refused rows, the members that were not."""
        return with_refused(discover(self.folder), self.folder, self.skipped)


def unpack_sessions(archive: str | Path, folder: str | Path, name: str | None = None) -> Unpacked:
    """Write the session files of the zip `archive` under `folder` (created); ConversationError naming
    the archive when it is not a readable zip or exceeds the bounds."""
    label = name or Path(archive).name
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    root = folder.resolve()
    result = Unpacked(root)
    try:
        with zipfile.ZipFile(archive) as opened:
            members = opened.infolist()
            if len(members) > MAX_MEMBERS:
                raise ConversationError(f"holds {len(members):,} entries, above the maximum of {MAX_MEMBERS:,}",
                                        where=label)
            total = 0
            for member in members:
                if member.is_dir() or not member.filename.lower().endswith(suffixes()):
                    continue
                target, reason = _target(root, member)
                if reason:
                    result.skipped[member.filename] = reason
                    continue
                try:
                    written = _copy(opened, member, target, MAX_TOTAL_BYTES - total, label)
                except FileExistsError:
                    result.skipped[member.filename] = "the archive holds this name twice; the first was kept"
                    continue
                except OSError as error:  # e.g. a file and a folder of the same name
                    result.skipped[member.filename] = f"cannot be written: {error.strerror or error}"
                    continue
                if written is None:
                    result.skipped[member.filename] = (f"larger than {limits.megabytes(limits.MAX_FILE_BYTES)}, "
                                                       "the most one session file may hold")
                    continue
                total += written
                result.files.append(target.relative_to(root).as_posix())
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError) as error:
        raise ConversationError(f"not a readable .zip archive ({error})", where=label) from None
    except NotImplementedError as error:  # a compression method zipfile does not support
        raise ConversationError(f"cannot unpack: {error}", where=label) from None
    return result


def _target(root: Path, member: zipfile.ZipInfo) -> tuple[Path, str | None]:
    """Where a member goes, or why it may not be written."""
    name = member.filename
    if stat.S_ISLNK(member.external_attr >> 16):
        return root, "a symbolic link; links are not unpacked"
    parts = PurePosixPath(name.replace("\\", "/")).parts
    if not parts or name.startswith(("/", "\\")) or ":" in parts[0] or ".." in parts or "\x00" in name:
        return root, "its path would land outside the folder"
    target = root.joinpath(*parts)
    if root not in target.parents:
        return root, "its path would land outside the folder"
    if member.file_size > limits.MAX_FILE_BYTES:
        return root, f"larger than {limits.megabytes(limits.MAX_FILE_BYTES)}, the most one session file may hold"
    return target, None


def _copy(opened: zipfile.ZipFile, member: zipfile.ZipInfo, target: Path, allowance: int, label: str) -> int | None:
    """Unpack one member, counting what is really written; None when it passes the file size bound."""
    target.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with opened.open(member) as source, open(target, "xb") as sink:
        while chunk := source.read(_CHUNK):
            written += len(chunk)
            if written > allowance:
                sink.close()
                target.unlink()
                raise ConversationError(f"unpacks to more than {limits.megabytes(MAX_TOTAL_BYTES)}, the most "
                                        "an archive may hold", where=label)
            if written > limits.MAX_FILE_BYTES:
                break
            sink.write(chunk)
    if written > limits.MAX_FILE_BYTES:
        target.unlink()
        return None
    return written
