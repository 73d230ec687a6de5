"""The engine's layout: a top level that reads as a table of contents, modules that import alone, no
import cycle (lazy imports inside functions count: they only hide a cycle), and nothing of the dashboard,
Streamlit or plotly inside compaction/."""

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ENGINE = REPO / "compaction"
MAX_TOP_LEVEL_MODULES = 8


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(ENGINE.rglob("*.py"))}


def imported(path: Path) -> set[str]:
    """Every module of the engine that `path` imports, anywhere in it (`from a import b` counts a.b when
    that is a module, else a)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package
                for _ in range(node.level - 1):
                    parent = parent.rpartition(".")[0]
                base = f"{parent}.{base}" if base else parent
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return found


def test_the_top_level_names_the_architecture():
    modules = [path.name for path in ENGINE.glob("*.py") if path.name not in ("__init__.py", "__main__.py")]
    assert len(modules) <= MAX_TOP_LEVEL_MODULES, modules
    packages = sorted(path.name for path in ENGINE.iterdir() if (path / "__init__.py").is_file())
    assert {"model", "layers", "strategies", "replay", "measures", "importers", "llm", "storage", "cli"} <= set(packages)


def cycles_of(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each back edge met by a depth-first walk (none: the graph is acyclic)."""
    cycles, state = [], {}  # state: 1 on the current path, 2 done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                cycles.append(path[path.index(target):] + [target])
            elif target not in state:
                visit(target, [*path, target])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return cycles


def test_no_import_cycle():
    graph = {name: {target for target in imported(path) if target in MODULES and target != name}
             for name, path in MODULES.items()}
    cycles = cycles_of(graph)
    assert not cycles, "\n".join(" -> ".join(cycle) for cycle in cycles[:10])


SUBPACKAGES = sorted(path.name for path in ENGINE.iterdir() if (path / "__init__.py").is_file())


def subpackage(module: str) -> str | None:
    """The subpackage of the engine a module belongs to (compaction.replay.loop -> replay), or None for the
    package's own top and its top-level modules (errors, version, ...)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in SUBPACKAGES else None


def test_no_import_cycle_between_subpackages():
    """compaction.X importing compaction.Y (anywhere in any of X's modules, inside functions too) while Y
    imports X is a cycle even when no two modules form one: the packages are layers, each above the ones
    it imports. The agents package imports the lower ones to register into their tables; nothing imports it
    (test_nothing_below_the_agents_imports_them)."""
    graph: dict[str, set[str]] = {}
    why: dict[tuple[str, str], str] = {}
    for name, path in MODULES.items():
        if (source := subpackage(name)) is None:
            continue
        for target in imported(path):
            if (destination := subpackage(target)) not in (None, source):
                graph.setdefault(source, set()).add(destination)
                why.setdefault((source, destination), f"{name} imports {target}")
    assert {"replay", "measures", "model"} <= graph["sweep"] and "sweep" not in graph.get("replay", ())
    assert "agents" not in set().union(*(targets for source, targets in graph.items() if source != "agents"))
    assert cycles_of({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    found = cycles_of(graph)
    assert not found, "\n".join(" -> ".join(cycle) + ": " + "; ".join(why[edge] for edge in zip(cycle, cycle[1:], strict=False))
                                 for cycle in found)


def test_the_table_of_contents_names_every_subpackage():
    """compaction/__init__.py's docstring names each folder of the engine as `name/`, and no other."""
    import compaction

    named = set(re.findall(r"(?<![\w/])([a-z_]+)/", compaction.__doc__ or ""))
    assert named == set(SUBPACKAGES), (sorted(set(SUBPACKAGES) - named), sorted(named - set(SUBPACKAGES)))


def test_the_engine_imports_nothing_of_the_dashboard():
    outside = {"dashboard", "streamlit", "plotly", "pandas"}
    offenders = {name: sorted(found) for name, path in MODULES.items()
                 if (found := {target for target in imported(path) if target.split(".")[0] in outside})}
    assert not offenders


# In a fresh interpreter: import the package, then import each module named on stdin in a child forked from
# that state, and print the modules that failed with their error's last line (JSON).
# The third-party libraries that some modules import (the SDK takes a second or two) are loaded first:
# what is checked is the order of this project's own modules.
IMPORT_EACH = """
import importlib, json, os, sys, traceback
for library in ("anthropic", "plotly.graph_objects", "pandas", "distributed"):
    try:
        importlib.import_module(library)
    except ImportError:
        pass
import compaction
failures = {}
for name in sys.stdin.read().split():
    read, write = os.pipe()
    if os.fork() == 0:
        os.close(read)
        try:
            importlib.import_module(name)
            code = 0
        except BaseException:
            os.write(write, traceback.format_exc().strip().splitlines()[-1].encode())
            code = 1
        os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        error = pipe.read().decode()
    _, status = os.wait()
    if status:
        failures[name] = error or f"exit status {status}"
print(json.dumps(failures))
"""


def test_every_module_imports_alone_in_a_fresh_interpreter():
    # Importing any compaction.x first runs compaction/__init__ in full, so "x imported alone in a fresh
    # interpreter" is: the package imported in a fresh interpreter, then x. One interpreter imports the
    # package and forks a child for each module from that state (cheap: the package is not imported again).
    names = [name for name in MODULES if not name.endswith("__main__")]  # __main__ runs the command line
    assert "compaction" in names and "compaction.replay.loop" in names
    # this checkout's engine, whichever the interpreter has installed
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", IMPORT_EACH], input=" ".join(names), capture_output=True, text=True,
                          timeout=300, cwd="/", env=environment)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {}


def agent_words() -> re.Pattern:
    """Every agent's names and title as the registry gives them (a model id such as gpt-5-codex or
    gemini-2.5-pro is a model's name, not the agent's, and is not matched)."""
    from compaction.agents import AGENTS

    words = {word for agent in AGENTS for word in (agent.name, agent.title, agent.name.replace("-", "_"),
                                                  *(entry.name for entry in agent.formats))}
    words |= {agent.title.split()[0] for agent in AGENTS if " " in agent.title}  # "Codex", "Gemini", "Claude Code"
    words.discard("Claude")  # the model family, not the agent (its title is two words)
    alternatives = "|".join(re.escape(word).replace(r"\ ", r"[ _-]") for word in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w.-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


SHELLS = [REPO / "app.py", *sorted((REPO / "app_pages").glob("*.py")), *sorted((REPO / "dashboard").rglob("*.py"))]


def test_no_module_outside_the_agents_names_an_agent():
    pattern = agent_words()
    agents = ENGINE / "agents"
    found = [f"{path.relative_to(REPO)}:{number}: {line.strip()}"
             for path in [*MODULES.values(), *SHELLS] if agents not in path.parents
             for number, line in enumerate(path.read_text().splitlines(), 1) if pattern.search(line)]
    assert pattern.search("the Codex CLI rollout") and pattern.search('"gemini-cli"') and not pattern.search("gpt-5-codex")
    assert not found, "\n".join(found)


def test_nothing_below_the_agents_imports_them():
    """The agents register into the lower layers' tables; only the package's own top and the registry
    itself import compaction.agents."""
    offenders = {name for name, path in MODULES.items()
                 if not name.startswith("compaction.agents") and name != "compaction"
                 and any(target.startswith("compaction.agents") for target in imported(path))}
    assert not offenders, sorted(offenders)


def test_the_dashboard_uses_the_engines_faces_only():
    """The shells import what each package's __init__ names (its __all__), never a module inside it."""
    import importlib

    deep, unnamed = [], []
    for path in SHELLS:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith("compaction"):
                continue
            where = f"{path.relative_to(REPO)}:{node.lineno}"
            if node.module.count(".") > 1:
                deep.append(f"{where}: {node.module}")
                continue
            face = importlib.import_module(node.module)
            if node.module != "compaction" and (package := getattr(face, "__path__", None)) is not None:
                named = set(getattr(face, "__all__", ()))
                unnamed += [f"{where}: {node.module}.{alias.name}" for alias in node.names
                            if alias.name not in named and not any(Path(p, alias.name).is_dir() for p in package)]
    assert not deep, "\n".join(deep)
    assert not unnamed, "\n".join(unnamed)
