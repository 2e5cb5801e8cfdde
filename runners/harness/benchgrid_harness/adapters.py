"""Import an adapter module and find its contract function, telling `unsupported` from `error`."""

import importlib

from .errors import HarnessError, Unsupported


def _adapter_itself_missing(exc, module_name):
    """True when the ModuleNotFoundError is about the adapter's own module (a wrong path, not a missing library)."""
    missing = getattr(exc, "name", None)
    return missing is not None and (module_name == missing or module_name.startswith(missing + "."))


def import_tool(module_name, library):
    """Import the tool's adapter (and with it the tool's library); an ImportError of the library is `unsupported`."""
    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        if isinstance(exc, ModuleNotFoundError) and _adapter_itself_missing(exc, module_name):
            raise HarnessError(f"adapter module {module_name!r} not found; is its runner dir on PYTHONPATH?") from exc
        name = library or getattr(exc, "name", None) or module_name
        raise Unsupported(f"{name} not importable: {type(exc).__name__}: {exc}") from exc


def import_reference(module_name):
    """Import the reference adapter; any failure is an `error` (the reference is the harness's own tool)."""
    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        raise HarnessError(
            f"reference adapter {module_name!r} not importable: {type(exc).__name__}: {exc}; "
            "is the reference's runner dir on PYTHONPATH?"
        ) from exc


def contract_function(module, kind, who, missing_is_unsupported):
    """The module's function named after the contract kind; missing -> `unsupported` (tool) or `error` (reference)."""
    function = getattr(module, kind, None)
    if callable(function):
        return function
    message = f"{who} ({module.__name__}) does not implement contract {kind!r}"
    raise Unsupported(message) if missing_is_unsupported else HarnessError(message)
