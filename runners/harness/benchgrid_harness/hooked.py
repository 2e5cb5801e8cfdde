"""A call made with module hooks in place, the hooks removed whether it returns or raises: how the harness and the
hook-based adapters run a forward they watch, so that no hook outlives the call it was registered for."""


def with_hooks(handles, call, *args, **kwargs):
    """call(*args, **kwargs), then every handle in `handles` removed (also when the call raises)."""
    try:
        return call(*args, **kwargs)
    finally:
        for handle in handles:
            handle.remove()
