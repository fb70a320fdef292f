"""The application around the agent: the `ponder` CLI, `ponder bench` and its scorer, the trace page, plots and
the live terminal display. It may use every other package; none of them imports it (tests/test_layers.py)."""
