"""What an incremental replay's call sends, asked whether a text is still in it (loss.SentView), answered
from what the running history keeps beside its messages instead of a pass over them at every call:
positions by bisection, the untouched and rewritten messages from its two sets, and the text of the
messages a layer made, worked out once per message and kept for the replay's later calls."""

from compaction.measures.loss import SentView
from compaction.measures.terms import visible_text
from compaction.model.running import RunningHistory

MADE_TEXTS_KEPT = 64  # summaries and markers whose text a replay keeps (a few are in view at any call)


class RunningView(SentView):
    history: RunningHistory

    def __init__(self, running: RunningHistory, made_texts: dict):
        super().__init__(running)
        self._texts = made_texts  # id(message) -> (message, its text), shared by the replay's calls

    def position(self, origin: int) -> int | None:
        return self.history.position(origin)

    def holds(self, text: str, places) -> bool:
        """SentView.holds with the running history's sets: an untouched message holds it; a changed one
        may still (a preview); a message no longer sent does not."""
        running = self.history
        untouched, changed = running.untouched, running.changed
        for origin, block in places:
            if origin in untouched or (origin in changed and self._at(text, origin, block)):
                return True
        return any(text in made for made in self.made_texts())

    def made_texts(self) -> list[str]:
        if self._made is None:
            running, texts, found, start = self.history, self._texts, [], 0
            origins, messages = running.origins, running.messages
            for _ in range(origins.count(None)):
                start = origins.index(None, start)
                message = messages[start]
                known = texts.get(id(message))
                if known is None or known[0] is not message:
                    if len(texts) > MADE_TEXTS_KEPT:
                        texts.clear()
                    known = texts[id(message)] = (message, visible_text(message))
                found.append(known[1])
                start += 1
            self._made = found
        return self._made

    def _sent_before(self, before: int) -> tuple[set[int], set[int]]:
        found = self._before.get(before)
        if found is None:
            running = self.history
            untouched, changed = running.untouched, running.changed
            if running.keys and running.keys[-1] >= before:  # messages from `before` on are left out
                untouched = {origin for origin in untouched if origin < before}
                changed = {origin for origin in changed if origin < before}
            found = self._before[before] = (untouched, changed)
        return found
