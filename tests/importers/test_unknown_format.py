"""A file of no known format: it is told what it most resembles, or every format the lab reads with the
file each agent writes; no message names another format for a file that is not one."""

import json
import random

import pytest

from compaction.agents import AGENTS
from compaction.errors import ConversationError
from compaction.importers import load_conversation

UNKNOWN = "no format the lab reads recognises it"


def refusal(data: bytes, name: str) -> str:
    with pytest.raises(ConversationError) as raised:
        load_conversation(data, name=name)
    return str(raised.value)


def random_object(rng: random.Random) -> dict:
    words = ["alpha", "beta", "gamma", "delta", "omega", "kappa", "zeta"]
    return {rng.choice(words) + str(rng.randrange(99)): rng.choice([1, "x", None, [1, 2], {"k": 2}])
            for _ in range(rng.randrange(1, 5))}


def assert_lists_every_format(message: str) -> None:
    assert UNKNOWN in message
    for agent in AGENTS:
        for entry in agent.formats:
            assert f"{entry.title}: {entry.described}" in message
    assert "role must be" not in message and "not a Claude Code session" not in message


@pytest.mark.parametrize("seed", range(5))
def test_random_json_and_json_lines_list_the_formats(seed):
    rng = random.Random(seed)
    document = json.dumps(random_object(rng)).encode()
    lines = b"\n".join(json.dumps(random_object(rng)).encode() for _ in range(rng.randrange(1, 6)))
    listed = json.dumps([random_object(rng) for _ in range(3)]).encode()
    for data, name in ((document, "random.json"), (lines, "random.jsonl"), (listed, "list.json")):
        message = refusal(data, name)
        assert message.startswith(f"{name}: ")
        assert_lists_every_format(message)


def test_random_text_lists_the_formats():
    rng = random.Random(7)
    text = " ".join(rng.choice(["the", "log", "was", "here", "yesterday", "42"]) for _ in range(200)).encode()
    message = refusal(text, "notes.txt")
    assert message.startswith("notes.txt: not valid JSON, nor a text log the lab reads (it starts '")
    assert_lists_every_format(message)


def test_a_file_with_a_formats_keys_is_told_what_it_resembles():
    message = refusal(json.dumps({"model": "x", "messages": [{"role": "user"}], "tool_calls": []}).encode(),
                      "chat.json")
    assert "It most resembles" in message and "'messages'" in message


def test_a_broken_file_of_a_known_format_keeps_that_formats_own_error():
    assert "role must be 'user' or 'assistant'" in refusal(b'[{"content": "hi"}]', "chat.json")
    broken = b'{"type": "summary", "leafUuid": "u1"}\n{"type": "file-history-snapshot", "messageId": "m"}\n'
    assert "no user or assistant lines" in refusal(broken, "session.jsonl")
    assert UNKNOWN not in refusal(b"[]", "empty.json")
