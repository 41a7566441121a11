"""The settings, one module per environment: ``dev``, ``production``, ``test`` (all on ``base``)."""
