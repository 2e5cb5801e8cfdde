"""Exceptions that the error boundary maps onto a result status."""


class Unsupported(Exception):
    """The tool cannot do this cell; the result's status is `unsupported` with this reason."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = str(reason)


class HarnessError(Exception):
    """The request or the harness's own set-up is wrong (not the tool); reported as status `error`."""


class RequestError(HarnessError):
    """The request file is unreadable or does not have the shape docs/protocol.md describes."""
