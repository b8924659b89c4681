"""accel-cosim's tests; run from the repository root as python3 -m tests.<name>."""
