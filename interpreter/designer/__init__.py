"""The designer's tools, built on the engine: `truco check` (check, explore, payoffs), `truco
rules` (rulebook), `truco diff` and `truco replay`."""
