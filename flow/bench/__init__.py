"""The performance figures of `make bench` (python3 -m flow.bench): one module per accelerator or aspect."""
