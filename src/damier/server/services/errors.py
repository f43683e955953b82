"""Refusals of the services; the HTTP layer answers them with their status code, the
WebSocket layer with an error frame."""

from __future__ import annotations


class ServiceError(Exception):
    """A refused request; the game is unchanged."""

    status_code = 400

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class BadRequest(ServiceError):
    status_code = 400


class Forbidden(ServiceError):
    status_code = 403


class NotFound(ServiceError):
    status_code = 404


class Conflict(ServiceError):
    status_code = 409


class Unplayable(ServiceError):
    """A stored game this server cannot replay (its variant is not loaded, or its moves no
    longer replay). Nothing changes it until it can be; its PDN is served from the rows."""

    status_code = 409


class RateLimited(ServiceError):
    status_code = 429
