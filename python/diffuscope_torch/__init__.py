"""PyTorch models for Diffuscope: the TorchScript contract, export and Γ (ms_eps) estimation."""
_CONTRACT_NAMES = ("CONTRACT_FILE", "contract_json", "load", "save")


def __getattr__(name):
    # Imported on first use, so that `python3 -m diffuscope_torch` imports torch inside its
    # error handling (a Ctrl-C while torch loads is one line, not a traceback).
    if name in _CONTRACT_NAMES:
        from . import contract
        return getattr(contract, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
