"""Measurement and analysis on the engine's public API: benchmarks, simulation, exact
distributions, statistics."""
