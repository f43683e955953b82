"""The server fixtures (an app per test on its own database, clients, a hand-moved clock)
for the tournament tests."""

from tests.server.conftest import *  # noqa: F403
