"""The HTTP routers: variants, session, games, pages."""
