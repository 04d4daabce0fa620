"""The spec language: load a variant's YAML, validate it, parse its DSL, build its IR."""
