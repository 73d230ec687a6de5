"""What each layer of one pass took from the history, in the page's unit: one amount per layer, the same on
the waterfall, on What changed and in the Pipeline headline. It is the history's size before the layer less
its size after (so L1's marker and L2's placeholders, which are sent, are counted), each size converted
first, as the waterfall draws its steps."""

from compaction.layers import PipelineResult
from dashboard.render.units import convert


def removed(result: PipelineResult, layer: str, unit: str) -> int:
    """What `layer` removed from what is sent, in `unit` (negative when it added: a summary longer than
    what it replaced)."""
    stages = result.stages
    at = next(i for i, stage in enumerate(stages) if stage.layer == layer)
    if at == 0:
        return 0
    model = stages[0].history.token_model
    return convert(stages[at - 1].size, unit, model) - convert(stages[at].size, unit, model)
