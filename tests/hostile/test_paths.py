"""No path escapes: every name a user controls (a tool_use id, a transcript label, an upload's file
name) becomes a plain file name inside the store, whatever it holds."""

import hashlib
import json
import re

import pytest

from compaction import OutputStore, run_pipeline
from compaction.importers import load_conversation
from compaction.model.settings import DEFAULTS

from .apptest import loaded_header, session_root, start_app, upload

TRAVERSALS = ["../../x", "../../../../../../../../tmp/escaped", "/etc/passwd", "..\\..\\x", "C:\\Windows\\x",
              "a\x00b", "\x00", "x" * 10_000, ".", "..", "", "...", "~", "~root/.ssh/id_rsa", "a/b/c",
              "./.hidden", "name.txt\x00.json", "\u2215etc\u2215passwd", "\u202egnp.exe", "%2e%2e%2f", "\n", " ",
              "-rf", "CON", "\ud800"]
SAFE_FILE = re.compile(r"[A-Za-z0-9_-]{1,120}(\.txt|\.json|\.jsonl)")


def files_under(folder):
    return sorted(p for p in folder.rglob("*") if p.is_file() or p.is_symlink())


def assert_contained(store: OutputStore, base):
    """Every file under `base` is a plainly named file inside the store's two folders."""
    for path in files_under(base):
        assert path.parent in (store.results_dir, store.transcripts_dir), path
        assert SAFE_FILE.fullmatch(path.name), path.name
        assert not path.is_symlink()


@pytest.mark.parametrize("name", TRAVERSALS, ids=[repr(n)[:30] for n in TRAVERSALS])
def test_persist_keeps_a_hostile_tool_use_id_inside_the_store(tmp_path, name):
    store = OutputStore(tmp_path / "deep" / "store")
    stored = store.persist(name, f"output of {name!r}", tool="bash")
    assert stored.path.parent == store.results_dir
    assert_contained(store, tmp_path)
    assert store.read(name) == f"output of {name!r}"
    assert [s.tool_use_id for s in store.list_outputs()] == [name]
    assert store.path_for(name) == stored.path


@pytest.mark.parametrize("name", TRAVERSALS, ids=[repr(n)[:30] for n in TRAVERSALS])
def test_save_transcript_keeps_a_hostile_label_inside_the_store(tmp_path, name):
    store = OutputStore(tmp_path / "deep" / "store")
    path = store.save_transcript([{"role": "user", "content": name}], label=name)
    assert path.parent == store.transcripts_dir
    assert_contained(store, tmp_path)
    assert store.list_transcripts() == [path]


def test_all_hostile_ids_together_never_collide(tmp_path):
    store = OutputStore(tmp_path / "store")
    for name in TRAVERSALS:
        store.persist(name, f"output of {name!r}")
    assert_contained(store, tmp_path)
    assert len({s.path for s in store.list_outputs()}) == len(TRAVERSALS)
    for name in TRAVERSALS:
        assert store.read(name) == f"output of {name!r}"


def _conversation_with(ids: list[str]) -> list[dict]:
    calls = [{"type": "tool_use", "id": i, "name": "bash", "input": {}} for i in ids]
    results = [{"type": "tool_result", "tool_use_id": i, "content": f"{i!r} " + "o" * 40_000} for i in ids]
    return [{"role": "user", "content": "go"}, {"role": "assistant", "content": calls},
            {"role": "user", "content": results}]


def test_l3_and_l4_write_only_inside_the_store(tmp_path):
    ids = [name for name in TRAVERSALS if name != "\ud800"]  # lone surrogates are replaced at load
    data = json.dumps(_conversation_with(ids)).encode()
    conversation = load_conversation(data, name="../../upload.json")
    store = OutputStore(tmp_path / "store")
    result = run_pipeline(conversation, DEFAULTS.replace(max_bytes=1000, context_limit=1000), store)
    assert len(result.persisted) == len(ids) and result.summary.triggered
    assert_contained(store, tmp_path)
    assert len(store.list_transcripts()) == 1


@pytest.mark.parametrize("upload_name", ["../../../../escaped.json", "/tmp/absolute.json", "..\\..\\win.json",
                                         "x" * 10_000 + ".json", ".json", "../.json",
                                         "a/../../b.jsonl"])
def test_an_upload_name_never_reaches_the_file_system(store_root, tmp_path, upload_name):
    data = json.dumps(_conversation_with(["../../id", "/etc/passwd", "..", "x" * 10_000, "a\x00b"])).encode()
    before = set(files_under(tmp_path.parent))
    at = start_app()
    upload(at, upload_name, data)
    assert not at.exception
    assert loaded_header(at) == f"Loaded: {upload_name}"
    at.switch_page("app_pages/pipeline.py").run()  # runs L3: the output is persisted
    at.switch_page("app_pages/what_changed.py").run()
    assert not at.exception
    store = at.session_state["_output_store"]
    assert session_root(at).parent == store_root and store.list_outputs()
    created = set(files_under(tmp_path.parent)) - before
    # the upload itself is kept under its content's hash (a reload loads it again): its name is only text
    kept = [path for path in created if path.parent == store_root / "uploads"]
    assert sorted(path.name.removesuffix(".name") for path in kept) == [hashlib.sha256(data).hexdigest()] * 2
    assert (store_root / "uploads" / kept[0].name.removesuffix(".name")).read_bytes() == data
    assert created and all(store.root in path.parents for path in set(created) - set(kept))
    assert_contained(store, store.root)
    assert {path.parent for path in files_under(store_root) if store.root not in path.parents} == {store_root / "uploads"}


def test_an_upload_name_with_nul_never_reaches_the_file_system(store_root, tmp_path):
    # Browsers never send one; a crafted client can. The uploader takes any name (the formats are told by
    # content): the name is only text, kept in a file named by the content's hash.
    before = set(files_under(tmp_path.parent))
    data = json.dumps(_conversation_with(["a"])).encode()
    at = start_app()
    upload(at, "nul\x00byte.json", data)
    assert not at.exception
    digest = hashlib.sha256(data).hexdigest()
    created = set(files_under(tmp_path.parent)) - before
    assert {path.name for path in created if path.parent == store_root / "uploads"} == {digest, digest + ".name"}
    assert (store_root / "uploads" / (digest + ".name")).read_bytes() == b"nul\x00byte.json"
