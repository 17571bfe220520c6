"""The service's user-facing errors (a clear message, never a traceback)::

    ServiceError
    ├── NotFound            unknown game, power, phase
    ├── Conflict            the request does not fit the game's current state
    └── Forbidden           the sign-on does not allow it
"""

from __future__ import annotations


class ServiceError(Exception):
    """A message for the user; ``message`` keeps a :class:`gm.i18n.Text` translatable."""

    def __init__(self, message: str = "") -> None:
        super().__init__(message)
        self.message = message


class NotFound(ServiceError):
    pass


class Conflict(ServiceError):
    pass


class Forbidden(ServiceError):
    pass
