"""The game systems' HTTP plug-ins, one package each, named like the plug-in's GameSystem
``package``. Each exports ``blueprints`` (registered by api.create_app, tagged with the system's
title) and ``VIEW_SCHEMAS`` (system -> the schema of its track view). No core module imports
them: create_app finds them through the registry (infrastructure/systems.py)."""
