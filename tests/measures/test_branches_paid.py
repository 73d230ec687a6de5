"""The calls paid and those of the final branch, one function for every page and command.

cases/claude_code_rewound_paid.jsonl is written by hand in the layout of Claude Code 2.1.44's logs: two
calls, then a prompt whose two calls the person rewound (the next prompt hangs off the second call
again), then one call on the final branch."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from compaction.corpus.files import SessionFile
from compaction.corpus.rows import Job, session_row
from compaction.importers import load_conversation
from compaction.live.follower import Follower
from compaction.measures.branches_paid import paid_and_final
from compaction.measures.cost import DEFAULT_PRICES
from compaction.measures.prices import recorded_call_cost

CASES = Path(__file__).parent / "cases"
REWOUND = CASES / "claude_code_rewound_paid.jsonl"
CHECKOUT = Path(__file__).resolve().parents[2]


def _by_hand(path: Path) -> dict[str, float]:
    """Each response's cost from its own line, by message id."""
    costs = {}
    for text in path.read_text().splitlines():
        line = json.loads(text)
        if line["type"] == "assistant":
            usage = line["message"]["usage"]
            costs[line["message"]["id"]] = recorded_call_cost({
                "model": line["message"]["model"], "input_tokens": usage["input_tokens"],
                "cache_write_1h_tokens": usage["cache_creation_input_tokens"],
                "cache_read_input_tokens": usage["cache_read_input_tokens"],
                "output_tokens": usage["output_tokens"]}, DEFAULT_PRICES)[0]
    return costs


def test_the_rewound_calls_are_paid_apart_from_the_final_branch():
    paid = paid_and_final(load_conversation(REWOUND))
    costs = _by_hand(REWOUND)
    assert (paid.paid_calls, paid.final_calls, paid.left_calls) == (5, 3, 2)
    assert paid.final_cost_usd == pytest.approx(costs["msg_01"] + costs["msg_02"] + costs["msg_05"])
    assert paid.left_cost_usd == pytest.approx(costs["msg_03"] + costs["msg_04"])
    assert paid.paid_cost_usd == pytest.approx(sum(costs.values()))
    [branch] = paid.left
    assert (branch.reason, branch.after_call, branch.calls) == ("rewound", 2, 2)
    assert paid.sentence() == ("5 calls paid, $0.1343; 2 on a branch rewound after call 2, $0.0482; the final "
                               "branch's 3, $0.0861 (what the replay numbers and prices)")


@pytest.mark.parametrize("path", [REWOUND, CHECKOUT / "sample_data" / "claude_code_session.jsonl"])
def test_live_counts_what_was_paid_and_replay_the_final_branch(path):
    follower = Follower(path)
    follower.poll()
    paid = paid_and_final(load_conversation(path))
    assert len(follower.session.calls) == paid.paid_calls > paid.final_calls
    assert follower.session.cost_usd == pytest.approx(paid.paid_cost_usd)


def _cli(*args: str) -> str:
    return subprocess.run([sys.executable, "-m", "compaction", *args], capture_output=True, text=True, check=True,
                          cwd=CHECKOUT).stdout


def test_replay_watch_and_corpus_json_give_the_same_figures(tmp_path):
    expected = paid_and_final(load_conversation(REWOUND)).as_dict()
    replayed = json.loads(_cli("replay", str(REWOUND), "--json"))
    assert replayed["branches"] == expected
    assert replayed["totals"]["calls"] == expected["final_branch_calls"]
    assert replayed["totals"]["recorded_cost_usd"] == pytest.approx(expected["final_branch_cost_usd"])
    stopped = json.loads(_cli("watch", str(REWOUND), "--json", "--until-idle", "0", "--every", "0.01")
                         .splitlines()[-1])
    assert stopped["branches"] == expected
    assert (stopped["calls"], stopped["cost_so_far_usd"]) == (expected["paid_calls"], expected["paid_cost_usd"])
    row = session_row(SessionFile(str(CASES), REWOUND.name), Job())
    assert (row["model_calls"], row["paid_calls"]) == (expected["final_branch_calls"], expected["paid_calls"])
    assert row["paid_cost_usd"] == pytest.approx(expected["paid_cost_usd"])
    assert row["left_branches"] == expected["sentence"]


def test_a_response_interrupted_before_its_usage_is_named():
    paid = paid_and_final(load_conversation(CHECKOUT / "tests/importers/cases/valid/codex_duplicated_token_count.jsonl"))
    assert (paid.final_calls, paid.unrecorded, paid.paid_calls - paid.unrecorded) == (5, 1, 4)
    assert "Live, which counts the calls' usage, sees 4" in paid.sentence()
