"""The server fixtures (an app per test on its own database, clients, a hand-moved clock)
for the tests of players' pages, leaderboards, the archive and the pools."""

from tests.server.conftest import *  # noqa: F403
