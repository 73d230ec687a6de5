"""The `claude-code` form: the environment lines that move Claude Code's auto-compact threshold where it was
tuned, and, said plainly, what Claude Code has no setting for.

Claude Code compacts when the request reaches window - output reserve - 13,000 tokens (the threshold the
`claude-code` strategy models). CLAUDE_AUTOCOMPACT_PCT_OVERRIDE sets the threshold as a percentage of
window - reserve, but only lower than that default: Claude Code takes the smaller of the two.
CLAUDE_CODE_AUTO_COMPACT_WINDOW (100,000 to 1,000,000 tokens) sets the window it counts against.
"""

import textwrap

from compaction.agents.claude_code.preset import (
    BUFFER_TOKENS,
    MICROCOMPACT_TOOLS,
    PERSIST_EXEMPT_TOOLS,
    output_reserve_for,
)
from compaction.export.base import Exported
from compaction.model.settings import Settings
from compaction.strategies import Built

STRATEGIES = ("claude-code",)
PCT = "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"
WINDOW = "CLAUDE_CODE_AUTO_COMPACT_WINDOW"
WINDOW_RANGE = (100_000, 1_000_000)
DEFAULT_WINDOW = 200_000


def threshold_lines(params: dict) -> tuple[list[str], list[str]]:
    """(environment lines, notes) for the auto-compact threshold."""
    version = None if params["version"] == "auto" else params["version"]
    reserve = params["output_reserve_tokens"] or output_reserve_for(version)
    window = params["window_tokens"] or DEFAULT_WINDOW  # 0: the log's (the form knows no log: the usual one)
    effective = window - reserve
    wanted = effective - params["buffer_tokens"]
    default = effective - BUFFER_TOKENS
    lines, notes = [], []
    if window != DEFAULT_WINDOW:
        if WINDOW_RANGE[0] <= window <= WINDOW_RANGE[1]:
            lines.append(f"export {WINDOW}={window}")
        else:
            notes.append(f"Cannot be set: a window of {window:,} tokens; {WINDOW} takes {WINDOW_RANGE[0]:,} to "
                         f"{WINDOW_RANGE[1]:,}, and the model's own window applies.")
    if wanted < default:
        percent = round(100 * wanted / effective, 2)
        lines.append(f"export {PCT}={percent:g}")
        notes.append(f"Claude Code then compacts at {int(effective * percent / 100):,} tokens ({percent:g} % of the "
                     f"window {window:,} less the {reserve:,}-token output reserve), as tuned ({wanted:,}).")
    elif wanted > default:
        notes.append(f"Cannot be set: compacting later than Claude Code's default ({default:,} tokens; tuned "
                     f"{wanted:,}). {PCT} only lowers the threshold, Claude Code takes the smaller of the two.")
    else:
        notes.append(f"The threshold tuned is Claude Code's default ({default:,} tokens): nothing to set for it.")
    if params["output_reserve_tokens"] and params["output_reserve_tokens"] != output_reserve_for(version):
        notes.append(f"Cannot be set: the output reserve ({params['output_reserve_tokens']:,} tokens); Claude Code "
                     f"keeps its own ({output_reserve_for(version):,} for {version or 'the newest versions'}), so the "
                     "percentage above was worked out for the reserve tuned.")
    return lines, notes


def render(built: Built, settings: Settings) -> Exported:
    params = built.params
    lines, notes = threshold_lines(params)
    cannot = [
        f"how long an output must be to go to a file ({params['persist_threshold']:,} characters tuned; Claude "
        "Code's depends on the tool and the version) and its preview (2,000)"
        if (params["persist_threshold"], params["preview_chars"]) != (0, 2_000) else "",
        "which tools' outputs are never saved to a file" if tuple(params["persist_exempt_tools"]) !=
        PERSIST_EXEMPT_TOOLS else "",
        "microcompact by count" + (f" (tuned on, keeping {params['microcompact_keep']:,} of "
                                   f"{', '.join(params['microcompact_tools'])})" if params["microcompact"] else "")
        if params["microcompact"] or tuple(params["microcompact_tools"]) != MICROCOMPACT_TOOLS else "",
        "the clearing after an idle gap" + (f" (tuned on, after {params['idle_minutes']:,} minutes)"
                                            if params["idle_microcompact"] else ""),
        f"microcompact near the threshold (tuned {params['warning_microcompact']})"
        if params["warning_microcompact"] != "auto" else "",
    ]
    notes += [f"Cannot be set in Claude Code: {item}; Claude Code decides it itself (microcompact and the idle "
              "clearing are switched by Anthropic, not by a setting)." if "microcompact" in item or "idle" in item
              else f"Cannot be set in Claude Code: {item}." for item in cannot if item]
    notes.append("Export the lines in the shell that starts `claude`. The same names in the `env` of "
                 "~/.claude/settings.json reach the tools Claude Code runs but, in some versions, not its own "
                 "auto-compact (anthropics/claude-code issue 63186).")
    if params["version"] != "auto":
        notes.append(f"Worked out with the rules of Claude Code {params['version']}; other versions keep another "
                     "output reserve.")
    text = "\n".join(["# Claude Code: the auto-compact threshold tuned in Compaction Lab (strategy claude-code)",
                      *(lines or ["# nothing to export: the tuned threshold is Claude Code's own"]),
                      *(f"# {line}" for note in notes for line in textwrap.wrap(note, 98))]) + "\n"
    return Exported("claude-code", built.spec.name, text, "claude-code.env", "bash", tuple(notes))
