"""The session's totals from `session.shutdown` (Copilot CLI writes no usage per call):
`modelMetrics` {<model>: {requests {count, cost}, usage {inputTokens, outputTokens, cacheReadTokens,
cacheWriteTokens}}}, and `totalPremiumRequests`.

`inputTokens` includes the cache's reads and writes (shutdowns quoted from real logs: 1,627,935 input of
which 1,424,086 read from the cache over 53 requests; 393,500 = 17 plain + 311,321 read + 82,162 written,
as the same shutdown's `tokenDetails` splits them), so the plain input is inputTokens less both. `requests.cost` is in
premium requests, GitHub's billing unit, not dollars: it is kept as `premium_requests` (and newer
versions' `totalNanoAiu`, AI units, as `nano_aiu`), and the totals carry no dollar cost of the log's own
(the lab prices the tokens). A `copilot -p --output-format json` run writes no shutdown but a last
`result` line {usage: {premiumRequests}}: its premium requests, without tokens. Each model is named as the lab's tables
spell it (models.py). A session resumed several times ends
with a shutdown per run of the CLI; each counts its own run, and they are added up.
"""

from typing import Any

from compaction.agents.copilot_cli.log.models import lab_name
from compaction.importers.fields import object_at
from compaction.importers.totals import run_totals
from compaction.importers.usage import count

SOURCE = "session.shutdown modelMetrics"


def model_counts(usage: dict) -> dict[str, int]:
    """usage.py's four counts from one model's `usage`."""
    read, written = count(usage.get("cacheReadTokens")), count(usage.get("cacheWriteTokens"))
    plain = max(count(usage.get("inputTokens")) - read - written, 0)
    return {"input_tokens": plain, "cache_creation_input_tokens": written, "cache_read_input_tokens": read,
            "output_tokens": count(usage.get("outputTokens"))}


class Shutdowns:
    """The shutdowns of a session, added up."""

    def __init__(self):
        self.by_model: dict[str, dict[str, int]] = {}
        self.requests = 0
        self.premium_requests = 0.0
        self.nano_aiu = 0
        self.seen = 0

    def add_premium(self, value: Any) -> None:
        if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
            self.premium_requests += value

    def add(self, data: dict) -> None:
        self.seen += 1
        self.add_premium(data.get("totalPremiumRequests"))
        self.nano_aiu += count(data.get("totalNanoAiu"))
        for model, metrics in object_at(data, "modelMetrics").items():
            if not isinstance(metrics, dict):
                continue
            counts = model_counts(object_at(metrics, "usage"))
            into = self.by_model.setdefault(lab_name(str(model)), dict.fromkeys(counts, 0))
            for key, value in counts.items():
                into[key] += value
            self.requests += count(object_at(metrics, "requests").get("count"))

    def totals(self) -> dict[str, Any] | None:
        if not self.by_model:
            return None
        summed = {key: sum(counts[key] for counts in self.by_model.values())
                  for key in next(iter(self.by_model.values()))}
        return run_totals(SOURCE, summed, calls=self.requests, by_model=self.by_model)
