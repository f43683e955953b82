"""Alembic migrations of the platform's database (run at server start)."""
