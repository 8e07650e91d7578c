"""Service layer: applications that take commands, projections and their views, job definitions."""
