"""Frontends in a terminal: the transcript of a match and the interactive board."""
