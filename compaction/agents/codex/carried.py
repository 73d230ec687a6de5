"""What one Codex compaction carried on, from its new start (log/compaction.py): the summary, which the
server encrypts on the remote path (the log holds only its size), and the person's messages Codex kept
(the newest, up to 20,000 tokens), with the final answers 0.117+ keeps too."""

from compaction.agents.codex.log.compaction import ENCRYPTED_SUMMARY
from compaction.agents.codex.markers import SUMMARY_PREFIX
from compaction.compactions.carried import ENCRYPTED, CarriedOn
from compaction.model.history import History
from compaction.model.messages import blocks

ENCRYPTED_OPENING = ENCRYPTED_SUMMARY.split("{", 1)[0]


def carried_on(history: History, boundary: dict) -> CarriedOn:
    index = boundary.get("index")
    if not isinstance(index, int) or index >= len(history.originals) or not boundary.get("new_start"):
        return CarriedOn(None, 0, "the log does not say what Codex sent after this compaction")
    texts = [str(b.get("text", "")) for b in blocks(history.originals[index]) if b.get("type") == "text"]
    summaries = [t for t in texts if t.startswith((ENCRYPTED_OPENING, SUMMARY_PREFIX))]
    kept = tuple(t for t in texts if t not in summaries)
    encrypted = boundary.get("encrypted_summary_chars") or 0
    if encrypted:
        summary, chars, note = None, encrypted, f"{ENCRYPTED} ({encrypted:,} characters of encrypted content)"
    elif summaries:
        summary, chars, note = summaries[-1], len(summaries[-1]), "the summary Codex wrote (its compacted line)"
    else:
        summary, chars, note = None, 0, "the log holds no summary text"
    people = boundary.get("kept_user_messages") or 0
    answers = boundary.get("kept_assistant_messages") or 0
    words = f"{people:,} of the person's messages" + (f" and {answers:,} of its final answers" if answers else "") + \
        " kept (replacement_history)" if boundary.get("replacement_items") is not None else \
        f"{people:,} of the person's newest messages kept, as Codex's rule keeps them (the log has the summary only)"
    return CarriedOn(summary, chars, note, kept_messages=kept, kept_count=len(kept), kept_note=words)
