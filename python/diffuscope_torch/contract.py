"""The TorchScript contract Diffuscope reads: a module saved with torch.jit.save and a JSON
description under the extra file "diffuscope.json".

Gaussian:    forward(x: float32[B, *shape], t: int64[B] (= n - 1)[, y: int64[B]]) -> float32[B, *shape]
Categorical: forward(x: int64[B, D], t: float32[B] in [0, 1][, y: int64[B]]) -> float32[B, D, K] logits
"""
import json
import io

import torch

from .files import write_atomic

CONTRACT_FILE = "diffuscope.json"
PROCESSES = ("gaussian", "categorical")
PREDICTIONS = ("epsilon", "sample", "v_prediction")


def contract_json(process, schedule, num_steps, shape, prediction="epsilon", num_classes=0,
                  num_conditions=0):
    """The JSON text of the contract; raises ValueError naming the field and the value."""
    if process not in PROCESSES:
        raise ValueError(f"process: {process!r} is not one of {', '.join(PROCESSES)}")
    if process == "gaussian" and prediction not in PREDICTIONS:
        raise ValueError(f"prediction: {prediction!r} is not one of {', '.join(PREDICTIONS)}")
    if int(num_steps) < 1:
        raise ValueError(f"num_steps: {num_steps!r} must be at least 1")
    shape = [int(s) for s in shape]
    if not shape or any(s < 1 for s in shape):
        raise ValueError(f"shape: {shape!r} must be a non-empty list of positive sizes")
    if process == "categorical" and (len(shape) != 1 or int(num_classes) < 2):
        raise ValueError(f"num_classes/shape: a categorical model needs shape [D] and K >= 2 "
                         f"(got shape {shape}, num_classes {num_classes})")
    if int(num_conditions) < 0:
        raise ValueError(f"num_conditions: {num_conditions!r} must be >= 0")
    contract = {"process": process, "schedule": str(schedule), "num_steps": int(num_steps),
                "shape": shape, "num_conditions": int(num_conditions)}
    if process == "gaussian":
        contract["prediction"] = prediction
    else:
        contract["num_classes"] = int(num_classes)
    return json.dumps(contract)


def save(module, path, **contract):
    """Saves a TorchScript module (scripted or traced) with its contract, atomically: the old
    file stays until the new one is complete and its bytes are on disk."""
    text = contract_json(**contract)
    buffer = io.BytesIO()  # in memory, so the archive's folder name does not depend on the path
    torch.jit.save(module, buffer, _extra_files={CONTRACT_FILE: text})
    write_atomic(path, buffer.getvalue())


def load(path):
    """(module, contract dict) of a file saved by save()."""
    extra = {CONTRACT_FILE: ""}
    module = torch.jit.load(path, map_location="cpu", _extra_files=extra)
    if not extra[CONTRACT_FILE]:
        raise ValueError(f"{path}: no {CONTRACT_FILE} in the archive")
    return module, json.loads(extra[CONTRACT_FILE])
