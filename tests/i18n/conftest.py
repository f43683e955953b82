"""The server's fixtures (an app on a fresh database, its test client) for these tests."""

from tests.server.conftest import _drop_test_databases, client, database, make_app

__all__ = ["_drop_test_databases", "client", "database", "make_app"]
