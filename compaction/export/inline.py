"""The source of the lab's own small functions and constants, written out so a module can run without
this project (the standalone Python export). One source of truth: the exported module carries the very
functions the layers use (cut points, markers, sizes), not a copy kept by hand.

`inline(imports)` takes `from compaction... import a, b` lines and gives, for every name, its definition:
a function or class by its source, a constant by its repr, a module by `import`; and the same for every
global those functions read (`has_tool_use` reads `_has_block`, `safe_name` reads `_SAFE` and `hashlib`).
"""

import ast
import builtins
import importlib
import inspect
import re
import types
from collections.abc import Set as AbstractSet
from typing import Any

from compaction.errors import CompactionError

# Names that only annotate (a type alias): the exported module says what they stand for
ALIASES = {"Message": "Message = dict  # a message of the Messages API: {'role', 'content'}"}


def imported_names(source: str) -> list[tuple[str, str]]:
    """(module, name) of every `from compaction... import name` in `source`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "compaction":
            found += [(node.module, alias.name) for alias in node.names]
    return found


def without_project_imports(source: str) -> str:
    """`source` with its `from compaction... import ...` statements taken out (they may span lines)."""
    lines = source.splitlines(keepends=True)
    drop: set[int] = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "compaction":
            drop.update(range(node.lineno - 1, node.end_lineno or node.lineno))
    return "".join(line for number, line in enumerate(lines) if number not in drop)


def _globals_read(function: types.FunctionType) -> set[str]:
    names: set[str] = set()
    codes = [function.__code__]
    while codes:
        code = codes.pop()
        names.update(code.co_names)
        codes += [const for const in code.co_consts if isinstance(const, types.CodeType)]
    return names


def inline(wanted: list[tuple[str, str]],
           provided: AbstractSet[str] = frozenset()) -> tuple[list[str], list[str]]:

    """(stdlib import lines, definitions) for `wanted` (module, name) pairs and what they read, in an order
    that defines every name before a definition that needs it at import time. `provided`: names the
    exporting module defines itself."""
    imports: list[str] = []
    definitions: list[str] = []
    done: set[str] = set(provided)

    def add(module_name: str, name: str) -> None:
        if name in done:
            return
        done.add(name)
        if name in ALIASES:
            definitions.append(ALIASES[name])
            return
        module = importlib.import_module(module_name)
        if not hasattr(module, name):
            raise CompactionError(f"{module_name} has no {name!r} to write into the standalone module")
        value = getattr(module, name)
        if isinstance(value, types.ModuleType):
            if value.__name__.split(".")[0] == "compaction":
                raise CompactionError(f"{module_name}.{name} is a module of this project: the standalone module "
                                      "cannot carry it")
            imports.append(f"import {value.__name__}" + (f" as {name}" if name != value.__name__ else ""))
            return
        if isinstance(value, types.FunctionType | type):
            if value.__module__.split(".")[0] != "compaction":
                imports.append(f"from {value.__module__} import {value.__name__}")
                return
            owner = importlib.import_module(value.__module__)
            for needed in sorted(_globals_read(value) if isinstance(value, types.FunctionType) else ()):
                if hasattr(owner, needed) and not hasattr(builtins, needed):
                    add(value.__module__, needed)
            definitions.append(inspect.getsource(value).rstrip())
            return
        if isinstance(value, re.Pattern) and "import re" not in imports:
            imports.append("import re")  # a compiled pattern's repr is re.compile(...)
        definitions.append(f"{name} = {_literal(value, f'{module_name}.{name}')}")

    for module_name, name in wanted:
        add(module_name, name)
    return imports, definitions


def _literal(value: Any, where: str) -> str:
    text = repr(value)
    try:
        ast.parse(text, mode="eval")
    except SyntaxError:
        raise CompactionError(f"{where} has no literal form for the standalone module") from None
    return text
