"""Opening-hand and draw odds: the condition language, the exact engine, the simulator.

Import the submodules you need: ``exact`` and ``simulate`` use NumPy, which the validator's
fast path does not load (it uses ``hypergeom``).
"""
