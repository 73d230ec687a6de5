"""File-driven importer tests (the tomli way): every input under cases/valid has a `<name>.expected.json`
with the whole loaded conversation, every input under cases/invalid a `<name>.expected.txt` with text
the error must contain (the error must also start with the file name). Add a case by adding two files.
"""

import json
from pathlib import Path

import pytest

from compaction.errors import ConversationError
from compaction.importers import load_conversation

CASES = Path(__file__).parent / "cases"


def _inputs(kind: str) -> list[Path]:
    return sorted(p for p in (CASES / kind).iterdir() if ".expected." not in p.name)


def _expected(path: Path, suffix: str) -> Path:
    return path.with_name(path.name.rsplit(".", 1)[0] + suffix)


@pytest.mark.parametrize("path", _inputs("valid"), ids=lambda p: p.name)
def test_valid_case_loads_as_expected(path: Path):
    expected = json.loads(_expected(path, ".expected.json").read_text(encoding="utf-8"))
    conversation = load_conversation(path)
    assert conversation.source == path.name
    assert loaded_view(conversation) == expected


def loaded_view(conversation) -> dict:
    """Everything a loaded conversation says, as the expected files write it."""
    view = {"format": conversation.format, "system": conversation.system, "tools": conversation.tools,
            "warnings": [str(w) for w in conversation.warnings], "metadata": conversation.metadata,
            "messages": conversation.messages}
    if conversation.usage:
        view["usage"] = conversation.usage
    if conversation.timestamps:
        view["timestamps"] = conversation.timestamps
    return view


@pytest.mark.parametrize("path", _inputs("valid"), ids=lambda p: p.name)
def test_valid_case_loads_the_same_from_bytes(path: Path):
    from_path = load_conversation(path)
    from_bytes = load_conversation(path.read_bytes(), name=path.name)
    assert (from_bytes.messages, from_bytes.warnings, from_bytes.metadata) == (
        from_path.messages, from_path.warnings, from_path.metadata)


@pytest.mark.parametrize("path", _inputs("invalid"), ids=lambda p: p.name)
def test_invalid_case_names_file_and_problem(path: Path):
    expected = _expected(path, ".expected.txt").read_text(encoding="utf-8").strip()
    with pytest.raises(ConversationError) as caught:
        load_conversation(path)
    message = str(caught.value)
    assert message.startswith(f"{path.name}: ")
    assert expected in message


@pytest.mark.parametrize(("kind", "suffix"), [("valid", ".expected.json"), ("invalid", ".expected.txt")])
def test_inputs_and_expectations_pair_up(kind: str, suffix: str):
    inputs = {p.name.rsplit(".", 1)[0] for p in _inputs(kind)}
    expectations = {p.name[: -len(suffix)] for p in (CASES / kind).glob(f"*{suffix}")}
    assert inputs == expectations
