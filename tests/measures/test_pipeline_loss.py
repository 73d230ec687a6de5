"""What one pipeline run drops without a summary and which artifacts it keeps, worked out by hand."""

from compaction.layers.pipeline import run_pipeline
from compaction.measures.pipeline_loss import pipeline_loss_of
from compaction.model.settings import Settings

from .test_loss import CONVERSATION

EIGHT = CONVERSATION + [{"role": "user", "content": "Looks right."},
                        {"role": "assistant", "content": "Done: export_rows returns [] for no rows."}]


def test_snipped_messages_are_dropped_without_a_summary_and_their_artifacts_lost(tmp_path):
    from compaction.storage.outputs import OutputStore

    # max_messages 4 with keep_head 1: the first message, a marker, then the newest 3 (messages 5 to 7);
    # messages 1 to 4 are snipped. CONTEXT_LIMIT high enough that L4 never runs.
    settings = Settings(max_messages=4, keep_head=1, context_limit=100_000)
    result = run_pipeline(EIGHT, settings, OutputStore(tmp_path))
    loss = pipeline_loss_of(result)
    assert loss.dropped_messages == 4
    assert loss.dropped_chars == sum(len(str(m)) for m in EIGHT[1:5])
    # the constraint (message 0) and the file (messages 0 and 5) are still sent; the error (message 4) is not
    assert loss.artifact_retention == 2 / 3


def test_nothing_dropped_when_nothing_is_snipped(tmp_path):
    from compaction.storage.outputs import OutputStore

    result = run_pipeline(EIGHT, Settings(context_limit=100_000), OutputStore(tmp_path))
    loss = pipeline_loss_of(result)
    assert (loss.dropped_messages, loss.dropped_chars, loss.artifact_retention) == (0, 0, 1.0)
