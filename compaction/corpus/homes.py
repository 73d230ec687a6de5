"""Where the agents keep their logs on a person's machine: one entry per agent, registered by its package
(compaction/agents/). The Live page offers the newest files there, the Sessions page the folder to read,
and a corpus names each file's project from where it lies.
"""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Home:
    agent: str  # the agent's title, for people
    parts: tuple[str, ...]  # the folder under the person's home: (".agent", "sessions")
    patterns: tuple[str, ...]  # the session files there (glob patterns, searched recursively)
    # the project of a file from the folders it lies in (the corpus folder's name first) and its name;
    # None: this agent's layout does not say
    project: Callable[[tuple[str, ...], str], str | None]

    def folder(self, home: Path) -> Path:
        return home.joinpath(*self.parts)

    @property
    def shown(self) -> str:
        """The folder as people write it: ~/.agent/sessions."""
        return "~/" + "/".join(self.parts)


_HOMES: list[Home] = []


def register(home: Home) -> Home:
    _HOMES.append(home)
    return home


def agent_homes() -> tuple[Home, ...]:
    """Every agent's folder, in the agents registry's order."""
    return tuple(_HOMES)


def project_by_home(chain: tuple[str, ...], name: str) -> str | None:
    """The project the first agent's layout that knows the file gives it, or None."""
    return next((found for home in _HOMES if (found := home.project(chain, name)) is not None), None)


def folder_before(chain: tuple[str, ...], markers: tuple[str, ...]) -> str | None:
    """The folder holding the innermost of `markers` in `chain` (not the corpus folder itself), or None:
    the common layout `<project>/<marker>/...`."""
    found = [position for position, folder in enumerate(chain) if folder in markers and position > 0]
    return chain[found[-1] - 1] if found else None
