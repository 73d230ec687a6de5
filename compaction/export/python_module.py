"""The `python` form: one module with the tutorial's constants at the chosen settings and the four layers,
which runs with the standard library alone, like the seed's demo; `compact(messages)` returns what
`compaction run` would send at those settings (same sizes, same messages).

It is written from the template (standalone.py): the settings block gets the values, and the template's
imports of the lab's own small functions and of the offline summariser are replaced by their source
(inline.py), so the module carries the lab's code, not a copy kept by hand.
"""

import ast
import inspect
from pathlib import Path

from compaction.errors import CompactionError
from compaction.export import standalone
from compaction.export.base import Exported, effective_settings, keep_notes
from compaction.export.inline import imported_names, inline, without_project_imports
from compaction.model.settings import Settings
from compaction.strategies import Built
from compaction.summarizers import offline
from compaction.version import __version__

SETTINGS = ("context_limit", "keep_recent", "persist_threshold", "max_bytes", "preview_chars", "max_messages",
            "keep_head", "min_placeholder_chars", "reactive_keep_last")
BLOCKS = ("settings", "the lab's own functions", "summariser")
FILENAME = "compaction_settings.py"


def _blocks(source: str) -> dict[str, tuple[int, int]]:
    """Line ranges [start, end) of each marked block of the template, markers included."""
    lines = source.splitlines()
    found = {}
    for name in BLOCKS:
        try:
            start, end = lines.index(f"# --- {name} ---"), lines.index(f"# --- end of {name} ---")
        except ValueError:
            raise CompactionError(f"the standalone template lost its '# --- {name} ---' block") from None
        found[name] = (start, end + 1)
    return found


def _settings_block(settings: Settings, output_dir: str) -> list[str]:
    lines = ["# --- settings (from Compaction Lab) ---"]
    lines += [f"{name.upper()} = {getattr(settings, name):_}" for name in SETTINGS]
    lines.append(f"OUTPUT_DIR = {output_dir!r}  # persisted outputs in OUTPUT_DIR/tool-results, transcripts in "
                 "OUTPUT_DIR/transcripts")
    return lines


def _summariser_source() -> tuple[list[str], str]:
    """The offline summariser's module: its imports (of the standard library) and the rest, without its
    docstring and its imports of this project."""
    source = without_project_imports(inspect.getsource(offline))
    lines = source.splitlines()
    imports: list[str] = []
    skip: set[int] = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Import | ast.ImportFrom) or (isinstance(node, ast.Expr) and isinstance(
                node.value, ast.Constant) and node.lineno == 1):
            if not isinstance(node, ast.Expr):
                imports.append(ast.unparse(node))
            skip.update(range(node.lineno - 1, node.end_lineno or node.lineno))

    return imports, "\n".join(line for number, line in enumerate(lines) if number not in skip).strip()


def module_source(settings: Settings, output_dir: str = ".task_outputs", header: str = "") -> str:
    template = Path(standalone.__file__).read_text(encoding="utf-8")
    blocks = _blocks(template)
    lines = template.splitlines()
    start, end = blocks["the lab's own functions"]
    helpers = "\n".join(lines[start:end])
    summariser_imports, summariser = _summariser_source()
    wanted = imported_names(helpers) + imported_names(inspect.getsource(offline))
    imports, definitions = inline(wanted)
    imports = list(dict.fromkeys(line for line in imports + summariser_imports if line not in lines))
    replaced = {
        "settings": _settings_block(settings, output_dir),
        "the lab's own functions": ["# --- the lab's own functions (their source, from Compaction Lab) ---",
                                    *imports, "", *("\n\n\n".join(definitions)).splitlines(), ""],
        "summariser": ["# --- the lab's offline summariser (L4 without an LLM) ---", summariser],
    }
    out: list[str] = []
    position = 0
    for name in BLOCKS:
        start, end = blocks[name]
        out += lines[position:start] + replaced[name]
        position = end
    out += lines[position:]
    text = "\n".join(out) + "\n"
    docstring_end = text.index('"""', 3) + 3
    intro = text[:docstring_end].split("\n\nThis file is the template")[0]
    text = intro + (f"\n\n{header}" if header else "") + '\n"""' + text[docstring_end:]
    _check_standalone(text)
    return text


def _check_standalone(text: str) -> None:
    """The module must compile and import nothing of this project."""
    try:
        tree = ast.parse(text)
    except SyntaxError as error:
        raise CompactionError(f"the standalone module does not compile: {error}") from None
    for node in ast.walk(tree):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        if any(name.split(".")[0] == "compaction" for name in names):
            raise CompactionError("the standalone module still imports compaction: the template imports something "
                                  "the export does not write out")


def render(built: Built, settings: Settings) -> Exported:
    chosen = effective_settings(built, settings)
    values = ", ".join(f"{name.upper()}={getattr(chosen, name):,}" for name in SETTINGS)
    header = (f"Written by compaction-lab {__version__} (`compaction export --form python`) for the strategy "
              f"{built.spec.name}: {values}. Python 3.10 or newer, standard library only.")
    return Exported("python", built.spec.name, module_source(chosen, header=header), FILENAME, "python", notes=(
        "L4 writes its summary with the lab's offline summariser, as `compaction run` does by default; to use an "
        "LLM instead, put the call in summarize_history (the tutorial sends the first "
        f"{chosen.summary_input_cap:,} characters of the history's JSON and asks for at most "
        f"{chosen.summary_max_tokens:,} tokens).",
        "Saved outputs and transcripts go under OUTPUT_DIR (.task_outputs, as in the tutorial): a preview names "
        "the file by its full path, so run it where that path suits you.",
        *keep_notes(chosen, carried=False),
    ))
