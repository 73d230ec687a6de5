"""How far to trust a what-if on a log that compacted itself, as the Replay page and the report show it:
every one of the log's compaction points beside where the strategy compacted, the calls between the two,
what the first call after each carried (recorded, and the strategy's), and how close the token estimate
came to what the log recorded before the first (replay/fidelity.py). No Streamlit here."""

import pandas as pd

from compaction.replay import Fidelity, ReplayResult, call_number, log_fidelity
from compaction.strategies import PERSON_TRIGGERS

TRIGGER_WORDS = {"manual": "the person's /compact", "clear": "the person's /clear", "auto": "automatic"}

COLUMNS = ("log's compaction", "the log compacted before call", "tokens before (the log)",
           "the strategy compacted before call", "calls apart", "first call after (the log)",
           "first call after (the strategy)")


def _call(call: int | None) -> str:
    return "–" if call is None else f"{call_number(call):,}"


def _tokens(tokens: int | None) -> str:
    return "–" if tokens is None else f"{tokens:,}"


def _after(pair) -> str:
    """The strategy's first call after its compaction, and how far from the log's."""
    if pair.strategy_after_tokens is None:
        return "–"
    error = pair.after_error
    return f"{pair.strategy_after_tokens:,}" + ("" if error is None else f" ({error:+.0%})")


def _apart(calls: int | None) -> str:
    if calls is None:
        return "–"
    if calls == 0:
        return "the same call"
    return f"{abs(calls):,} later" if calls > 0 else f"{abs(calls):,} earlier"


def fidelity_of(result: ReplayResult) -> Fidelity | None:
    """The fidelity of a replay of a log that compacted itself; None for any other conversation."""
    if not result.boundaries:
        return None
    return log_fidelity(result)


def fidelity_frame(found: Fidelity) -> pd.DataFrame:
    rows = [{COLUMNS[0]: f"{number:,}" + (f" ({TRIGGER_WORDS.get(pair.trigger, pair.trigger)})" if pair.trigger else ""),
             COLUMNS[1]: _call(pair.log_call), COLUMNS[2]: _tokens(pair.pre_tokens),
             COLUMNS[3]: _call(pair.strategy_call) if pair.strategy_call is not None else "never",
             COLUMNS[4]: _apart(pair.calls_apart), COLUMNS[5]: _tokens(pair.log_after_tokens), COLUMNS[6]: _after(pair)}
            for number, pair in enumerate(found.pairs, 1)]
    return pd.DataFrame(rows, columns=list(COLUMNS))


def fidelity_sentence(found: Fidelity, result: ReplayResult) -> str:
    """The estimate's error before the log's first compaction, and where the histories part."""
    parts = []
    if found.estimate_error is not None:
        parts.append(f"Before the log's first compaction what the strategy sends is {found.estimate_error:.1%} away "
                     f"from what the agent sent (median over {found.compared_calls:,} calls): near 0 while it sends "
                     "the same history, more once it compacts on its own.")
    parting = result.parting_call
    # the calls before the parting: a count of every exact call would include later ones and say more
    # calls than the parting leaves ("178 calls ... until call 142")
    leading = parting if parting is not None else found.exact_calls
    if leading:
        until = f"until call {parting + 1:,}, where the histories part" if parting is not None else "at every call"
        parts.append(f"{leading:,} call{'s' if leading != 1 else ''} sent exactly what the "
                     f"agent sent, so their tokens are the recorded ones ({until}); after that they are estimated.")
    extra = len(found.strategy_calls) - len(found.pairs)
    if extra > 0:
        parts.append(f"The strategy compacted {extra:,} more time{'s' if extra != 1 else ''} than the log.")
    return " ".join(parts)


def whose_compactions(result: ReplayResult) -> str:
    """Which of the log's compactions the person asked for: they happen in every what-if; the strategy
    decides only the others. Empty when the log names none of them the person's."""
    found = [b for b in result.boundaries if b.get("call") is not None]
    person = [b for b in found if b.get("trigger") in PERSON_TRIGGERS]
    if not person:
        return ""
    calls = ", ".join(f"{call_number(b['call']):,}" for b in person)
    typed = " and ".join(dict.fromkeys(TRIGGER_WORDS[b["trigger"]].split()[-1] for b in person))
    return (f"{len(person):,} of the log's {len(found):,} compactions were the person's own ({typed}, before "
            f"call{'s' if len(person) != 1 else ''} {calls}): every what-if makes them where the person did, keeping "
            "the summary the log holds; each strategy decides only the automatic ones.")
