"""Ponder's floor: the vocabulary and infrastructure that agent/, memory/ and tools/ all share.

Nothing here imports agent, memory or tools; they import from here. See tests/test_layers.py.
"""
