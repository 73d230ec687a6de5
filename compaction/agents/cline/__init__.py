"""Cline and its forks Roo Code and Kilo Code: one package, three agents (AGENTS), since the three write
one task layout (log/: a task folder's ui_messages.json and api_conversation_history.json, either alone or
both) and differ in their compaction (cline_preset.py: Cline's truncation at its window's reserve;
roo_preset.py: Roo Code's and Kilo Code's condense at a share of the window), their settings (export_form.py)
and their titles.

Their tasks live in VS Code's global storage (globalStorage/saoudrizwan.claude-dev/tasks/<id>/,
rooveterinaryinc.roo-cline/..., kilocode.kilo-code/...), read whole, not followed while written."""

from compaction.agents.base import Agent
from compaction.agents.cline import cline_preset, export_form, knobs, log, roo_preset
from compaction.export.base import Form
from compaction.importers.formats import Format

DESCRIBED = ("a {title} task's ui_messages.json (the panel's rows, one api_req_started per model request) or "
             "api_conversation_history.json (the messages sent)")


def _format(name: str, title: str, rank: int, recognised: bool = True) -> Format:
    return Format(name, title, DESCRIBED.format(title=title), (".json",), log.loader(name),
                  document=log.sniffer(name) if recognised else None, document_rank=rank,
                  load_path=log.path_loader(name), sessions=log.read_with_its_twin if name == log.CLINE else None,
                  marks=log.CLINE_KEYS if name == log.CLINE else log.ROO_KEYS)


def _roo_form(name: str, title: str) -> Form:
    return Form(name, f"{title} settings (JSON)", f"{title}'s autoCondenseContext and autoCondenseContextPercent "
                f"({name})", (name,), export_form.render_roo)


CLINE = Agent(log.CLINE, "Cline", formats=(_format(log.CLINE, "Cline", 250),), presets=cline_preset.SPECS,
              own_preset=log.CLINE, knobs=knobs.CLINE_KNOBS,
              forms=(Form(log.CLINE, "Cline settings (JSON)", "Cline's useAutoCondense, and the window its "
                          "trigger follows (cline)", (log.CLINE,), export_form.render_cline),))
ROO_CODE = Agent(log.ROO, "Roo Code", formats=(_format(log.ROO, "Roo Code", 251),), presets=(roo_preset.ROO_CODE,),
                 own_preset=log.ROO, knobs=knobs.ROO_KNOBS, forms=(_roo_form(log.ROO, "Roo Code"),))
KILO_CODE = Agent(log.KILO, "Kilo Code", formats=(_format(log.KILO, "Kilo Code", 252, recognised=False),),
                  presets=(roo_preset.KILO_CODE,), own_preset=log.KILO, knobs=knobs.ROO_KNOBS,
                  forms=(_roo_form(log.KILO, "Kilo Code"),))

AGENTS = (CLINE, ROO_CODE, KILO_CODE)
AGENT = CLINE
