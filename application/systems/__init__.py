"""The game systems' application plug-ins, one package each (application/plugins.py GameSystem).

No module of the core imports these; the registry (infrastructure/systems.py) lists them.
"""
