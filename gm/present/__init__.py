"""What players look at besides the text: calendar files (pure formats, no service)."""
