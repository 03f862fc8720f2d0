"""The TorchScript contract Diffuscope reads: a module saved with torch.jit.save and a JSON
description under the extra file "diffuscope.json".

Gaussian:    forward(x: float32[B, *shape], t: int64[B] (= n - 1)[, y: int64[B]]) -> float32[B, *shape]
Categorical: forward(x: int64[B, D], t: float32[B] in [0, 1][, y: int64[B]]) -> float32[B, D, K] logits

The JSON is checked with the app's rules (core/model/torch_contract.cpp), both when it is
written and when it is read, so that neither side accepts a file the other refuses.
"""
import io
import json
import math

import torch

from . import limits
from .errors import FieldError, printable
from .files import check_input, write_atomic
from .schedules import ScheduleError, check_categorical, gaussian_schedule

CONTRACT_FILE = "diffuscope.json"
PROCESSES = ("gaussian", "categorical")
PREDICTIONS = ("epsilon", "sample", "v_prediction")
MAX_CONTRACT_BYTES = 1 << 20  # the contract is a few hundred bytes; anything near this is not one
MAX_SCHEDULE_BYTES = 4096  # the longest schedule a contract may name (a csv:FILE path at most)
MAX_DEPTH = 64  # the deepest nesting of arrays and objects the app's JSON reader takes


def value_text(value):
    """A JSON value as the app's messages show it (core/io/json.cpp, jsonValueText)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e16 else repr(value)
    if isinstance(value, str):
        return '"' + printable(value, 80) + '"'
    if value is None:
        return "null"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return repr(value)


def check(contract, where=""):
    """The contract dict, checked as the app checks it (types, names, the app's limits) and with
    its numbers as ints. Raises FieldError(where + key, value as in the file, why)."""
    if not isinstance(contract, dict):
        raise FieldError(where.rstrip(": ") or "contract", value_text(contract),
                         "must be a JSON object")

    def refuse(key, reason, value=None):
        shown = value if value is not None else (
            value_text(contract[key]) if key in contract else "missing")
        raise FieldError(where + key, shown, reason)

    def string(key, default=None):
        if key not in contract and default is not None:
            return default
        if not isinstance(contract.get(key), str):
            refuse(key, "a string is expected")
        return contract[key]

    def whole(field, value, limit, what=None):
        # The rule broken, as the app's contractInteger names it: a number, a whole one, the
        # lower or the upper limit.
        shown = value_text(value)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise FieldError(where + field, shown, "a number is expected")
        if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
            raise FieldError(where + field, shown, "a whole number is expected")
        name = what or limit.what
        if value < limit.min:
            raise FieldError(where + field, shown, f"{name} must be at least {limit.min}")
        if value > limit.max:
            raise FieldError(where + field, shown, f"{name} must be at most {limit.max}" +
                             ("" if what is None else f", the limit of {limit.what}"))
        return int(value)

    def integer(key, limit, default=None):
        if key not in contract and default is not None:
            return default
        if key not in contract:
            refuse(key, "a number is expected")
        return whole(key, contract[key], limit)

    out = {}
    process = string("process")
    if process not in PROCESSES:
        refuse("process", "must be gaussian or categorical")
    out["process"] = process
    if process == "gaussian":
        prediction = string("prediction", "epsilon")
        if prediction not in PREDICTIONS:
            refuse("prediction", "must be epsilon, sample or v_prediction")
        out["prediction"] = prediction
    schedule = string("schedule")
    size = len(schedule.encode("utf-8", "surrogatepass"))
    if size > MAX_SCHEDULE_BYTES:
        refuse("schedule", f"longer than {MAX_SCHEDULE_BYTES} bytes; a schedule's name is a few "
                           f"letters", '"' + printable(schedule, 77) + f'" ({size} bytes)')
    if not schedule or "N=" in schedule:
        refuse("schedule", "must name the schedule (e.g. linear or cosine,zero-snr); N goes in "
                           "num_steps")
    out["schedule"] = schedule
    out["num_steps"] = integer("num_steps", limits.STEPS)
    # The schedule built for N by the parsers the app uses (core/model/torch_contract.cpp,
    # checkContractSchedule), so that a file the app refuses is not written.
    try:
        if process == "gaussian":
            gaussian_schedule(schedule, out["num_steps"])
        else:
            check_categorical(schedule)
    except ScheduleError as e:
        reason = e.reason
        if e.field != "schedule" and e.field:
            reason = f"{e.field}{'' if e.value in ('', None) else f' = {e.value}'}: {reason}"
        refuse("schedule", reason)
    shape = contract.get("shape")
    shape_text = json.dumps(shape, separators=(",", ":")) if "shape" in contract else "absent"
    if len(shape_text) > 80:
        shape_text = printable(shape_text, 77) + f" ({len(shape_text)} bytes)"
    if not isinstance(shape, list) or not 1 <= len(shape) <= 4:
        refuse("shape", "must be a list of 1 to 4 sizes, e.g. [2] or [1, 28, 28]", shape_text)
    if process != "gaussian" and len(shape) != 1:
        refuse("shape", "a categorical model's data point is [D]", shape_text)
    # One size is at most what all of them may hold together: d, or D for a categorical model.
    total = limits.DIMENSION if process == "gaussian" else limits.POSITIONS
    sizes = [whole(f"shape[{i}]", s, total, "a size") for i, s in enumerate(shape)]
    elements = math.prod(sizes)
    if elements > total.max:
        refuse("shape", f"{total.what}, the product of the sizes ({elements}), must be at most "
                        f"{total.max}", shape_text)
    if process != "gaussian":
        out["num_classes"] = integer("num_classes", limits.CLASSES)
    out["shape"] = sizes
    out["num_conditions"] = integer("num_conditions", limits.CONDITIONS, 0)
    return out


def contract_json(process, schedule, num_steps, shape, prediction="epsilon", num_classes=0,
                  num_conditions=0):
    """The JSON text of the contract; raises FieldError naming the key and the value."""
    contract = {"process": process, "schedule": schedule, "num_steps": num_steps,
                "shape": list(shape) if isinstance(shape, (list, tuple)) else shape,
                "num_conditions": num_conditions}
    if process == "gaussian":
        contract["prediction"] = prediction
    else:
        contract["num_classes"] = num_classes
    return json.dumps(check(contract))


def parse(text, where):
    """The contract dict of the JSON `text` (str or bytes), read as strictly as the app reads
    it (read_strict_json), then check()ed."""
    return check(read_strict_json(text, where), where + ": ")


def read_strict_json(text, where):
    """The JSON value of `text` (str or bytes), read as strictly as the app reads JSON: UTF-8, no
    NaN or Infinity, no key twice in one object, numbers within a double, no lone surrogate, at
    most MAX_DEPTH levels. Errors name `where`."""
    def no_constant(name):
        raise ValueError(f"{name} is not a JSON number")

    def no_repeats(pairs):
        out = {}
        for k, v in pairs:
            if k in out:
                raise ValueError(f"the key {json.dumps(k)} appears twice in one object")
            out[k] = v
        return out

    def finite(token):
        value = float(token)
        if not math.isfinite(value):
            raise ValueError(f"the number {printable(token, 40)} is beyond a double")
        return value

    def whole_number(token):
        # The app reads an integer beyond 64 bits as a double, and refuses one beyond a double.
        finite(token)
        return int(token)

    def check_strings(value, depth):
        # What the app's reader refuses and Python's accepts: a \uXXXX escape of a lone
        # surrogate (not UTF-8) and nesting deeper than its limit.
        if depth > MAX_DEPTH:
            raise ValueError(f"nesting is too deep (at most {MAX_DEPTH} levels)")
        if isinstance(value, str):
            if any(0xD800 <= ord(c) <= 0xDFFF for c in value):
                raise ValueError(f"the string \"{printable(value, 40)}\" holds a lone UTF-16 "
                                 f"surrogate")
        elif isinstance(value, dict):
            for key, item in value.items():
                check_strings(key, depth + 1)
                check_strings(item, depth + 1)
        elif isinstance(value, list):
            for item in value:
                check_strings(item, depth + 1)

    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        value = json.loads(text, parse_constant=no_constant, object_pairs_hook=no_repeats,
                           parse_float=finite, parse_int=whole_number)
        check_strings(value, 0)
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise FieldError(where, None, f"not valid JSON ({str(e).splitlines()[0]})") from None
    return value


def save(module, path, field="--out", **contract):
    """Saves a TorchScript module (scripted or traced) with its contract, atomically: the old
    file stays until the new one is complete and its bytes are on disk."""
    text = contract_json(**contract)
    buffer = io.BytesIO()  # in memory, so the archive's folder name does not depend on the path
    torch.jit.save(module, buffer, _extra_files={CONTRACT_FILE: text})
    write_atomic(path, buffer.getvalue(), field)


def load(path, field="--model"):
    """(module, checked contract dict) of a file saved by save(). Raises FieldError."""
    check_input(path, field, limits.MAX_MODEL_FILE_BYTES)
    extra = {CONTRACT_FILE: ""}
    try:
        module = torch.jit.load(path, map_location="cpu", _extra_files=extra)
    except Exception as e:  # noqa: BLE001  torch reports a non-archive in many ways
        lines = str(e).strip().splitlines()
        raise FieldError(field, path, "not a Diffuscope TorchScript contract archive "
                                      f"({lines[0] if lines else type(e).__name__})") from None
    text = extra[CONTRACT_FILE]
    if not text:
        raise FieldError(field, path, f"a TorchScript archive without {CONTRACT_FILE}: save it "
                                      f"with diffuscope_torch.contract.save or export")
    if len(text) > MAX_CONTRACT_BYTES:
        raise FieldError(field, path, f"its {CONTRACT_FILE} is {len(text)} bytes, not a "
                                      f"contract")
    return module, parse(text, f"{path}: {CONTRACT_FILE}")
