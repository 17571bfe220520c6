"""What players look at besides the text: HTML mail parts, calendar files, archives."""
