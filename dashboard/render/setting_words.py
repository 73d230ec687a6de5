"""The compaction settings in plain words: what each one does, its unit, and what moving it changes.
The tutorial's name comes second, so a person who has read the tutorial still finds it. No Streamlit
here: the sidebar's sliders and the HTML report both read these."""

from dataclasses import dataclass


@dataclass(frozen=True)
class SettingWords:
    plain: str  # what the setting decides, in plain words
    name: str  # the tutorial's name for it
    unit: str
    effect: str  # what moving it does

    @property
    def label(self) -> str:
        """'Summarise when the history passes: CONTEXT_LIMIT (characters)'."""
        return f"{self.plain}: {self.name} ({self.unit})"


SETTING_WORDS = {
    "context_limit": SettingWords(
        "Summarise when the history passes", "CONTEXT_LIMIT", "characters",
        "Lower: L4 summarises sooner."),
    "keep_recent": SettingWords(
        "Newest results kept whole", "KEEP_RECENT", "tool results",
        "Lower: more old results become placeholders (L2)."),
    "persist_threshold": SettingWords(
        "Save an output to disk when longer than", "PERSIST_THRESHOLD", "characters",
        "Lower: more outputs go to disk (L3)."),
    "max_messages": SettingWords(
        "Snip the middle above", "max_messages", "messages",
        "Lower: L1 snips sooner, and more."),
    "max_bytes": SettingWords(
        "Check the newest outputs when they pass", "L3 budget, max_bytes", "characters",
        "Lower: L3 checks the newest outputs more often."),
    "preview_chars": SettingWords(
        "Preview kept of a saved output", "preview size", "characters",
        "Higher: more of each saved output stays in view."),
    "summary_input_cap": SettingWords(
        "Most history sent to the summariser", "summary input cap", "characters",
        "Lower: the summariser reads less of the history."),
    "summary_max_tokens": SettingWords(
        "Longest summary", "summary max_tokens", "tokens",
        "Higher: the summary may keep more detail, and costs more."),
}


def setting_label(field: str) -> str:
    """The plain label of a Settings field, or the field's name when it has none."""
    words = SETTING_WORDS.get(field)
    return words.label if words else field
