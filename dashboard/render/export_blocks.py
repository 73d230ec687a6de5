"""The export panel's blocks, without Streamlit: for a strategy at its parameters and the tutorial's settings,
one block per form that carries it (compaction/export), written once per choice (the python form reads
and writes a whole module: a rerun of the page must not do it again)."""

from dataclasses import dataclass
from functools import lru_cache

from compaction.export import Exported, export, forms_for
from compaction.model import Settings
from compaction.strategies import build


@dataclass(frozen=True)
class ExportBlock:
    form: str
    title: str  # the tab's title
    described: str
    exported: Exported


def export_blocks(strategy: str, params: dict, settings: Settings, agent_version: str | None = None
                  ) -> list[ExportBlock]:
    key = tuple(sorted((name, tuple(value) if isinstance(value, list) else value) for name, value in params.items()))
    return list(_blocks(strategy, key, settings, agent_version if isinstance(agent_version, str) else None))


@lru_cache(maxsize=64)
def _blocks(strategy: str, params: tuple, settings: Settings, agent_version: str | None) -> tuple[ExportBlock, ...]:
    built = build(strategy, dict(params))
    return tuple(ExportBlock(form.name, form.title, form.described,
                             export(built, settings=settings, form=form.name, agent_version=agent_version))
                 for form in forms_for(strategy))
