"""The web platform: ``damier serve``.

An ASGI app (FastAPI, built by :func:`damier.server.app.create_app`) serving the JSON API of
``docs/PLATFORM.md``, one WebSocket per game and the browser UI (``static/``). The server is
the authority: moves are checked by the rules kernel and stored in the same transaction that
changes the game.
"""
