# SPDX-License-Identifier: MIT
"""The --device option of the commands that run a network."""
import torch

from .errors import FieldError


def device_of(name):
    """The torch device `name` names (cpu, cuda, cuda:K or auto), checked against this machine."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        device = torch.device(name)
    except RuntimeError:
        raise FieldError("--device", name, "not a device (cpu, cuda, cuda:K or auto)") from None
    if device.type == "cuda" and not torch.cuda.is_available():
        raise FieldError("--device", name, "CUDA is not available on this machine")
    if device.type == "cuda" and device.index is not None and \
            device.index >= torch.cuda.device_count():
        raise FieldError("--device", name, f"there are {torch.cuda.device_count()} CUDA devices")
    if device.type not in ("cpu", "cuda"):
        raise FieldError("--device", name, "expected cpu, cuda, cuda:K or auto")
    return device
