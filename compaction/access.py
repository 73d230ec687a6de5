"""What of this machine a user of the lab may reach: the folders whose sessions are read, opened and
followed, and the Dask schedulers work is sent to.

Two environment variables name what a server allows, for everyone who reaches it:
- COMPACTION_SESSION_FOLDERS: the folders (separated by the system's path separator) whose sessions may
  be read, opened and followed; empty: none (uploads and the bundled samples only);
- COMPACTION_DASK_SCHEDULERS: the scheduler addresses (comma-separated) work may be sent to; empty:
  none (the work stays on this machine).
Unset, a user on this machine (the command line, a browser on loopback) reaches any folder and any
scheduler, as with one's own tools, and a browser on another machine reaches none of them. The engine
does not know who asks: the dashboard reads the browser's address (dashboard/ui/client.py) and says
whether it is remote. Within a list the real path decides, at every read (compaction/corpus/files.py:
`confined`).
"""

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from compaction.errors import CompactionError, ConversationError

SESSION_FOLDERS_ENV = "COMPACTION_SESSION_FOLDERS"
SCHEDULERS_ENV = "COMPACTION_DASK_SCHEDULERS"
REMOTE_FOLDERS = ("Your browser is on another machine, so this server reads none of its own folders or files "
                  f"for it (uploads and the bundled samples still work): its owner allows some by naming them in "
                  f"{SESSION_FOLDERS_ENV}.")
REMOTE_SCHEDULERS = ("Your browser is on another machine, so this server sends no work to a Dask scheduler for "
                     f"it (the work runs here): its owner allows some by naming them in {SCHEDULERS_ENV}.")


def session_folders(environ: Mapping[str, str] | None = None) -> list[Path] | None:
    """The folders of COMPACTION_SESSION_FOLDERS, or None when it is not set."""
    value = (os.environ if environ is None else environ).get(SESSION_FOLDERS_ENV)
    if value is None:
        return None
    return [Path(part.strip()).expanduser() for part in value.split(os.pathsep) if part.strip()]


def schedulers(environ: Mapping[str, str] | None = None) -> list[str] | None:
    """The addresses of COMPACTION_DASK_SCHEDULERS, or None when it is not set."""
    value = (os.environ if environ is None else environ).get(SCHEDULERS_ENV)
    if value is None:
        return None
    return [part.strip() for part in value.split(",") if part.strip()]


def is_local(address: object) -> bool:
    """Whether a browser at `address` is on this machine: no address (Streamlit gives none for a
    connection through localhost) or a loopback one. Anything else, an unreadable address included, is
    another machine."""
    if address is None:
        return True
    try:
        found = ipaddress.ip_address(str(address).strip())
    except ValueError:
        return False
    mapped = getattr(found, "ipv4_mapped", None)  # ::ffff:127.0.0.1 is loopback over IPv6
    return found.is_loopback or mapped is not None and mapped.is_loopback


@dataclass(frozen=True)
class Reach:
    """What one user may reach. `folders` and `schedulers` are the variables' lists (None: unset)."""

    folders: tuple[Path, ...] | None = None
    schedulers: tuple[str, ...] | None = None
    remote: bool = False  # a browser on another machine

    @property
    def folders_refusal(self) -> str | None:
        """Why no folder of this server is offered to this user, or None when some (or any) are."""
        return REMOTE_FOLDERS if self.remote and self.folders is None else None

    @property
    def schedulers_refusal(self) -> str | None:
        return REMOTE_SCHEDULERS if self.remote and self.schedulers is None else None

    def allowed_folders(self) -> list[Path] | None:
        """The folders this user may read sessions from (None: any); ConversationError with the reason
        when there are none for a browser on another machine."""
        if self.folders_refusal:
            raise ConversationError(self.folders_refusal)
        return None if self.folders is None else list(self.folders)

    def scheduler(self, address: str | None) -> str | None:
        """`address` (None: this machine) when this user may send work there; CompactionError naming it
        and the list otherwise."""
        if address is None:
            return None
        if self.schedulers_refusal:
            raise CompactionError(self.schedulers_refusal)
        if self.schedulers is not None and address not in self.schedulers:
            permitted = ", ".join(self.schedulers) or "none: the work runs on this machine"
            raise CompactionError(f"Dask scheduler {address} is not one this server may use "
                                  f"({SCHEDULERS_ENV}: {permitted})")
        return address


def reach(remote: bool = False, environ: Mapping[str, str] | None = None) -> Reach:
    """What a user reaches now: on this machine (`remote` False) or a browser on another one."""
    folders, addresses = session_folders(environ), schedulers(environ)
    return Reach(None if folders is None else tuple(folders), None if addresses is None else tuple(addresses),
                 remote)
