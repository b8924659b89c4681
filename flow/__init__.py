"""accel-cosim's tools: what runs the bench (runner, launchers, coverage, mutation, benches, generators)."""
