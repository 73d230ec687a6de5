"""Uploaded files kept in the server's workspace under their content's hash, so that a reload (whose new
browser session has nothing of the old one) loads the same file again from the address bar's hash.

`root/uploads/<sha256 hex>` holds the bytes and `<sha256 hex>.name` the name they were uploaded under,
both owner-only. The folder is never listed to anyone: a file is found only by the hash of its content,
which only someone who has the file (or its address) knows. A kept file untouched for KEPT_MAX_AGE_S is
removed when another is kept; reading one touches it.
"""

import hashlib
import os
import re
import time
from pathlib import Path

from compaction.storage.workspaces import SESSION_MAX_AGE_S, check_root

UPLOADS = "uploads"
KEPT_MAX_AGE_S = 7 * SESSION_MAX_AGE_S  # a week: a link to an upload keeps working that long
NAME_SUFFIX = ".name"
_DIGEST = re.compile(r"[0-9a-f]{64}")


def digest_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def keep_upload(root: str | Path, data: bytes, name: str) -> str:
    """Keep `data` (uploaded as `name`) under `root`; its digest, which names it in the address bar."""
    folder = _folder(root)
    digest = digest_of(data)
    path = folder / digest
    if not path.exists():
        _remove_stale(folder)
        _write(path, data)
    _write(folder / (digest + NAME_SUFFIX), name.encode("utf-8", "replace"))
    return digest


def kept_path(root: str | Path, digest: str) -> Path | None:
    """The file an upload is kept in (for the readers that take a path: a file's sessions), or None."""
    if not isinstance(digest, str) or not _DIGEST.fullmatch(digest):
        return None
    path = Path(root) / UPLOADS / digest
    return path if path.is_file() else None


def kept_upload(root: str | Path, digest: str) -> tuple[bytes, str] | None:
    """(bytes, name) of the upload kept under `digest`; None when the text is no digest, nothing is kept
    under it, or what is kept there no longer has that hash."""
    if not isinstance(digest, str) or not _DIGEST.fullmatch(digest):
        return None
    folder = Path(root) / UPLOADS
    path = folder / digest
    try:
        data = path.read_bytes()
        name = (folder / (digest + NAME_SUFFIX)).read_bytes().decode("utf-8", "replace")
    except OSError:
        return None
    if digest_of(data) != digest:
        return None
    os.utime(path)
    return data, name


def _folder(root: str | Path) -> Path:
    root = Path(root)
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    check_root(root)
    folder = root / UPLOADS
    folder.mkdir(mode=0o700, exist_ok=True)
    check_root(folder)
    return folder


def _write(path: Path, data: bytes) -> None:
    partial = path.with_name(path.name + ".part")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(data)
    os.replace(partial, path)


def _remove_stale(folder: Path, now: float | None = None) -> None:
    now = time.time() if now is None else now
    with os.scandir(folder) as entries:
        for entry in entries:
            digest = entry.name.removesuffix(NAME_SUFFIX)
            if not _DIGEST.fullmatch(digest) or not entry.is_file(follow_symlinks=False):
                continue
            try:
                if now - entry.stat(follow_symlinks=False).st_mtime > KEPT_MAX_AGE_S:
                    os.unlink(entry.path)
            except OSError:
                continue
