"""The python form: one module, no import of this project, which runs with the standard library alone (an
interpreter started with -I -S, where compaction cannot be imported) and gives, on the seed's demo and the
other samples, the sizes and the messages `compaction run` gives at the same settings; its agent loop
sends what the replay predicts."""

import ast
import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from compaction.export import export
from compaction.importers import load_conversation
from compaction.layers.pipeline import run_pipeline
from compaction.model.settings import DEFAULTS
from compaction.replay.loop import replay
from compaction.storage.outputs import OutputStore
from tests.client.compare import assert_same_calls
from tests.client.scripted import ScriptedModel, sdk

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
DRIVER = """
import json, sys
sys.path.insert(0, ".")
try:
    import compaction
    sys.exit("compaction can be imported: the check would prove nothing")
except ImportError:
    pass
import compaction_settings as exported
data = json.load(open(sys.argv[1], encoding="utf-8"))
messages = data["messages"] if isinstance(data, dict) else data
stages = exported.compact_stages(messages)
print(json.dumps([[name, exported.estimate_size(found), len(found)] for name, found in stages]))
json.dump(stages[-1][1], open("sent.json", "w", encoding="utf-8"))
"""

CASES = [
    ("seed_demo.json", {}),  # the tutorial's own table: 697 K -> 62 K -> 26 K / 52 -> 10 K
    ("seed_demo.json", {"context_limit": 5_000, "keep_recent": 1}),  # L4 writes the offline summary
    ("seed_demo.json", {"max_bytes": 50_000, "persist_threshold": 10_000, "preview_chars": 500, "max_messages": 20,
                        "keep_head": 5, "min_placeholder_chars": 600}),
    ("realistic_session.json", {"context_limit": 30_000, "keep_recent": 5}),
    ("anthropic_request.json", {"context_limit": 6_000, "max_messages": 8, "keep_head": 2}),
]


def load_module(path: Path, name: str):
    """The exported module imported in this process (registered first: its dataclasses look themselves up)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


def write_module(tmp_path: Path, settings) -> Path:
    exported = export("pipeline", settings=settings, form="python")
    path = tmp_path / exported.filename
    path.write_text(exported.text, encoding="utf-8")
    return path


@pytest.mark.parametrize("sample, changes", CASES, ids=[f"{c[0].split('.')[0]}-{i}" for i, c in enumerate(CASES)])
def test_the_module_runs_alone_and_gives_the_labs_sizes(tmp_path, sample, changes):
    settings = DEFAULTS.replace(**changes)
    module = write_module(tmp_path, settings)
    tree = ast.parse(module.read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {(node.module or "").split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "compaction" not in imported and imported <= set(sys.stdlib_module_names) | {"__future__"}
    done = subprocess.run([sys.executable, "-I", "-S", "-c", DRIVER, str(SAMPLES / sample)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    stages = json.loads(done.stdout)
    lab = run_pipeline(load_conversation(SAMPLES / sample), settings, OutputStore(tmp_path / ".task_outputs"))
    assert stages == [[s.layer, s.size, s.count] for s in lab.stages]
    assert json.loads((tmp_path / "sent.json").read_text(encoding="utf-8")) == lab.final.messages


def test_the_seed_demo_prints_the_tutorials_table():
    # a short folder: the previews name the saved files by their full path, which weighs in the sizes
    short = Path(tempfile.mkdtemp(prefix="cl"))
    module = write_module(short, DEFAULTS)
    try:
        done = subprocess.run([sys.executable, "-I", "-S", str(module), str(SAMPLES / "seed_demo.json")], cwd=short,
                              capture_output=True, text=True, timeout=120)
        usage = subprocess.run([sys.executable, "-I", "-S", str(module)], cwd=short, capture_output=True, text=True,
                               timeout=60)
    finally:
        shutil.rmtree(short)
    assert done.returncode == 0, done.stderr
    table = {line.split(":")[0].strip(): line.split(":")[1].split() for line in done.stdout.splitlines()[:5]}
    # the tutorial prints 697 KB -> L3 62 KB -> L1 26 KB / 52 messages -> L2 10 KB
    assert [round(float(table[layer][0])) for layer in ("input", "L3", "L1", "L2")] == [697, 62, 26, 10], done.stdout
    assert table["input"][2] == "123" and table["L1"][2] == "52"
    assert usage.returncode == 2 and "usage:" in usage.stderr


def test_the_constants_are_the_settings_exported(tmp_path):
    settings = DEFAULTS.replace(context_limit=12_345, keep_recent=7, max_messages=30, keep_head=4)
    module = load_module(write_module(tmp_path, settings), "exported_constants")
    assert (module.CONTEXT_LIMIT, module.KEEP_RECENT, module.MAX_MESSAGES, module.KEEP_HEAD) == (12_345, 7, 30, 4)
    assert module.PERSIST_THRESHOLD == 30_000 and module.REACTIVE_KEEP_LAST == 5


def test_its_agent_loop_sends_what_the_replay_predicted(fake_anthropic, tmp_path, monkeypatch):
    """The tutorial's loop inside the exported module, on the seed's demo against the local Messages API."""
    monkeypatch.chdir(tmp_path)  # OUTPUT_DIR is .task_outputs, beside the agent
    module = load_module(write_module(tmp_path, DEFAULTS), "exported_loop")
    demo = load_conversation(SAMPLES / "seed_demo.json")
    result = replay(demo, store=OutputStore(tmp_path / ".task_outputs"))
    model = ScriptedModel(demo)
    fake_anthropic.respond_with(model)
    outputs = {b["tool_use_id"]: b["content"] for m in demo.messages if isinstance(m["content"], list)
               for b in m["content"] if b.get("type") == "tool_result"}
    by_input = {(b["name"], json.dumps(b["input"], sort_keys=True)): outputs[b["id"]] for m in demo.messages
                if m["role"] == "assistant" for b in m["content"] if b.get("type") == "tool_use"}
    messages = [demo.messages[0]]
    module.agent_loop(sdk(fake_anthropic), messages, [], lambda name, given: by_input[name, json.dumps(
        given, sort_keys=True)], "claude-fake")
    for body in fake_anthropic.bodies():  # the loop offers the compact tool; the replay's requests have no tools
        assert [tool["name"] for tool in body.pop("tools")] == ["compact"]
    assert assert_same_calls(result, fake_anthropic, model, calls=len(result.calls)) == 61
