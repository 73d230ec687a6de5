"""The words Aider opens its chat-history summary with (aider/prompts.py summary_prefix), and the answer it
puts after a summary that ends the chat history (aider/history.py ChatSummary.summarize)."""

SUMMARY_PREFIX = "I spoke to you previously about a number of things."
ACKNOWLEDGEMENT = "Ok."
