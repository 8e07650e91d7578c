"""One package per game system; a system supplies its own procedures and tables."""
