"""docs/strategies.md, written from the registry: `python -m compaction strategies --markdown`."""

from compaction.strategies.params import Param
from compaction.strategies.spec import StrategySpec

INTRO = """# Compaction strategies

<!-- Written by `python -m compaction strategies --markdown > docs/strategies.md` from the registry in
compaction/strategies/; edit the registry, not this file (a test checks they agree). -->

What the tutorial's pipeline and {families} would do to the same session, replayed call by call (`python -m compaction replay FILE --strategy NAME --param KEY=VALUE`,
or side by side on the Compare page). `python -m compaction strategies` lists the same facts.

How every strategy is replayed:

- Before each model call (each assistant message of the log) the strategy gets the history so far and
  returns what is sent. It never changes what it is given, and what it sends never separates a tool call
  from its result, parallel calls included.
- Most edits are permanent: what the strategy sends is what the loop keeps. Edits that an API (or a
  middleware) makes to each request while the client keeps its full history (Anthropic's context
  editing, LangChain's ClearToolUsesEdit, a condenser's view of recent events) are sent, and the whole
  history is what the next call starts from; each call's record then carries what that request lost,
  like the API's `context_management.applied_edits` (`replay --json`, `applied_edits`).
- Token thresholds are compared with the whole request (messages, system prompt and tools) through the
  conversation's token model: characters / 4 unless the log's recorded usage calibrates it.
- Summaries are written by the replay's summariser (offline by default, or Claude): with the tutorial's
  five-heading prompt, not each system's own prompt. Custom instructions (`anthropic-compact`) are passed
  as the summary's focus; the offline summariser cannot follow them and only notes them.
- A context still over the model window after the strategy is compacted by the loop itself (reactive
  compaction), as the tutorial's agent does when the API refuses a prompt.
- A strategy that counts events counts messages here: one event is one message (a tool call and its
  result are two).
"""


def _range(param: Param) -> str:
    if param.minimum is None:
        return ""
    number = (lambda v: f"{v:,}") if param.kind == "int" else (lambda v: f"{v:g}")
    return f"{number(param.minimum)} to {number(param.maximum)}" if param.maximum is not None else \
        f"at least {number(param.minimum)}"


def _default(param: Param) -> str:
    if param.kind == "names":
        return ", ".join(f"`{v}`" for v in param.default) or "none"
    if param.kind == "bool":
        return "`true`" if param.default else "`false`"
    if param.kind == "text":
        return f"`{param.default}`" if param.default else "empty"
    return f"{param.default:,}" if param.kind == "int" else f"{param.default:g}"


def _section(spec: StrategySpec) -> str:
    lines = [f"## {spec.title} (`{spec.name}`)", "", spec.description, ""]
    if spec.params:
        if spec.from_settings:
            lines += ["A parameter not given takes the value of the setting of the same name (the sidebar's "
                      "sliders, the command line's setting flags); the defaults below are the tutorial's.", ""]
        lines += ["| parameter | default | unit | range | meaning |", "| --- | --- | --- | --- | --- |"]
        lines += [f"| `{p.name}` | {_default(p)} | {p.unit} | {_range(p)} | {p.help} |" for p in spec.params]
        lines.append("")
    if spec.notes:
        lines += ["How the replay models it:", ""] + [f"- {note}" for note in spec.notes] + [""]
    if spec.reverse_engineered:
        lines += ["Known only from public reverse engineering (not documented, and version-dependent):", ""]
        lines += [f"- {fact}" for fact in spec.reverse_engineered] + [""]
    lines += ["Sources:", ""]
    lines += [f"- [{s.label}]({s.url})" if s.url else f"- {s.label}" for s in spec.sources]
    return "\n".join(lines)


def render_markdown(specs: list[StrategySpec]) -> str:
    table = ["| name | family | what it does |", "| --- | --- | --- |"]
    table += [f"| [`{s.name}`](#{_anchor(s)}) | {s.family} | {s.description} |" for s in specs]
    families = list(dict.fromkeys(s.family for s in specs if s.family not in ("Tutorial", "The log", "Research")))
    named = f"{', '.join(families[:-1])} and {families[-1]}" if len(families) > 1 else "".join(families)
    intro = INTRO.replace("{families}", named)
    return "\n\n".join([intro.rstrip(), "\n".join(table), *(_section(s) for s in specs)]) + "\n"


def _anchor(spec: StrategySpec) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to dashes."""
    heading = f"{spec.title} ({spec.name})".lower()
    kept = "".join(c for c in heading if c.isalnum() or c in " -_")
    return kept.replace(" ", "-")
