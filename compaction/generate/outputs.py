"""Plausible tool outputs of a given size for the realistic generator: file listings, grep hits, logs,
test runs. Text comes from small line pools cycled from a random start, which is fast enough for
10,000 turns and deterministic for a given random.Random.
"""

import random
from dataclasses import dataclass

MODULES = ("cli", "config", "models", "storage", "parser", "render", "utils", "api/routes", "api/auth",
           "jobs/scheduler", "jobs/worker", "exporters/csv_export", "exporters/json_export")
PACKAGES = ("invoicer", "tidyfeed", "pgsnap", "mdlint", "shipyard", "ledgerly")
FUNCTIONS = ("load_config", "parse_row", "render_table", "export_rows", "open_db", "apply_migration",
             "retry_request", "validate_token", "schedule_job", "normalise_date", "read_input", "main")

_CODE_TEMPLATES = (
    "def {f}(path: Path, *, strict: bool = False) -> dict:",
    '    """Return the parsed {w} for `path`; raise ValueError when it is malformed."""',
    "    if not path.exists():",
    '        raise FileNotFoundError(f"{w} file not found: {{path}}")',
    "    with path.open(encoding=\"utf-8\") as handle:",
    "        rows = [line.rstrip(\"\\n\") for line in handle if line.strip()]",
    "    for index, row in enumerate(rows):",
    "        if strict and not row.startswith(\"#\"):",
    "            logger.debug(\"{w} row %d: %s\", index, row)",
    "    result = {{\"count\": len(rows), \"source\": str(path)}}",
    "    return result",
    "",
    "class {c}:",
    "    def __init__(self, settings: Settings) -> None:",
    "        self.settings = settings",
    "        self._cache: dict[str, {c}] = {{}}",
    "from .{m} import {f}",
    "import logging",
    "logger = logging.getLogger(__name__)",
    "    # TODO: handle the empty {w} case explicitly",
    "    total = sum(item.amount for item in items if item.currency == currency)",
    "    if total < 0:",
    "        raise ValueError(\"negative total for %s\" % currency)",
)
_WORDS = ("config", "invoice", "feed", "snapshot", "row", "token", "job", "export", "schema", "record")
_CLASSES = ("Settings", "Store", "Exporter", "Job", "Invoice", "Snapshot", "Renderer")
_LOG_LEVELS = ("INFO", "INFO", "INFO", "DEBUG", "DEBUG", "WARNING", "ERROR")
_LOG_EVENTS = ("request handled path=/api/{w}s status=200 ms={n}", "job {w}-{n} finished in {n}ms",
               "cache miss key={w}:{n}", "retrying {w} upload attempt={d}", "slow query on {w}s took {n}ms",
               "connection pool size={d} idle={d}", "Traceback (most recent call last): {w} worker {n} crashed")


@dataclass(frozen=True)
class Project:
    """The made-up repository a session works in."""

    package: str
    modules: tuple[str, ...]

    def source(self, module: str) -> str:
        return f"src/{self.package}/{module}.py"

    def test_file(self, module: str) -> str:
        return f"tests/test_{module.split('/')[-1]}.py"


def make_project(rng: random.Random) -> Project:
    return Project(rng.choice(PACKAGES), tuple(rng.sample(MODULES, 9)))


def _fill(rng: random.Random, size: int, make_line) -> str:
    """Lines from `make_line(n)` until `size` characters; the line counter starts at a random place."""
    parts, total, n = [], 0, rng.randrange(1, 400)
    while total < size:
        line = make_line(n)
        parts.append(line)
        total += len(line) + 1
        n += 1
    return "\n".join(parts)


def _pool(rng: random.Random, blocks: int = 3) -> list[str]:
    """Concrete code lines, the templates in order with names drawn per block, so a read looks like a
    file; formatting once per call keeps long outputs cheap."""
    lines: list[str] = []

    for _ in range(blocks):
        names = {"f": rng.choice(FUNCTIONS), "w": rng.choice(_WORDS), "c": rng.choice(_CLASSES),
                 "m": rng.choice(MODULES).split("/")[-1]}
        lines.extend(template.format(**names) for template in _CODE_TEMPLATES)
    return lines


def file_content(rng: random.Random, project: Project, size: int) -> str:
    """What a read_file tool returns: numbered source lines (the layout agents' file reads return)."""
    pool = _pool(rng)
    return _fill(rng, size, lambda n: f"{n:>6}\t{pool[n % len(pool)]}")


def grep_output(rng: random.Random, project: Project, pattern: str, size: int) -> str:
    pool = _pool(rng, 1)
    files = [project.source(m) for m in project.modules]
    return _fill(rng, size, lambda n: f"{files[n % len(files)]}:{n * 7 % 400 + 1}:{pool[n % len(pool)].strip()} "
                                      f"# {pattern}")


def log_output(rng: random.Random, size: int) -> str:
    """An application log: the output that makes sessions blow up."""
    events = [rng.choice(_LOG_EVENTS).format(w=rng.choice(_WORDS), n=rng.randrange(2, 9000),
                                             d=rng.randrange(1, 9)) for _ in range(48)]

    def line(n: int) -> str:
        return (f"2025-03-{n % 28 + 1:02d}T{n % 24:02d}:{n * 7 % 60:02d}:{n * 13 % 60:02d}Z "
                f"{_LOG_LEVELS[n % len(_LOG_LEVELS)]:<7} {events[n % len(events)]}")
    return _fill(rng, size, line)


def test_output(rng: random.Random, project: Project, size: int, failing: bool) -> str:
    """A pytest run: progress lines, a failure with its traceback when failing, and the summary."""
    tests = [project.test_file(m) for m in project.modules]
    passed = rng.randrange(20, 400)
    head = ["============================= test session starts ==============================",
            "platform linux -- Python 3.11.9, pytest-8.3.2, pluggy-1.5.0",
            f"collected {passed + (1 if failing else 0)} items", ""]
    body = _fill(rng, max(0, size - 600), lambda n: f"{tests[n % len(tests)]} {'.' * (n % 37 + 3)}  "
                                                     f"[{min(99, n % 100):>3}%]")
    tail = []
    if failing:
        module = rng.choice(project.modules)
        function = rng.choice(FUNCTIONS)
        tail = ["", "=================================== FAILURES ===================================",
                f"____________________________ test_{function}_empty ____________________________", "",
                f"    def test_{function}_empty(tmp_path):",
                f">       assert {function}(tmp_path / 'empty.csv') == []",
                f"E       ValueError: no rows in {project.source(module)}", "",
                f"{project.source(module)}:{rng.randrange(10, 300)}: ValueError",
                f"FAILED {project.test_file(module)}::test_{function}_empty - ValueError",
                f"========================= 1 failed, {passed} passed in {rng.uniform(0.5, 40):.2f}s ========"]
    else:
        tail = ["", f"============================== {passed} passed in {rng.uniform(0.5, 40):.2f}s "
                    "=============================="]
    return "\n".join(head) + "\n" + body + "\n".join(tail)


def listing_output(rng: random.Random, project: Project, size: int) -> str:
    """`ls -la`/`git status` style output."""
    files = [project.source(m) for m in project.modules] + [project.test_file(m) for m in project.modules]
    return _fill(rng, size, lambda n: f"-rw-r--r--  1 dev staff {n * 131 % 20000:>6} Mar {n % 28 + 1:>2} "
                                      f"{n % 24:02d}:{n * 7 % 60:02d} {files[n % len(files)]}")
