"""Claude, when the user gives a key: the client, reading the API's errors, exact token counts."""
