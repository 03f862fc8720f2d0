"""export: wraps a PyTorch model into the TorchScript contract Diffuscope reads.

Accepted models:
- plain modules called as model(x, t) or model(x, t, y), returning a tensor, a tuple/list whose
  first element is the prediction, or an object with a `.sample` tensor;
- diffusers-style UNets (recognised by a `return_dict` or `class_labels` parameter of forward,
  without importing diffusers), called as model(x, t, class_labels=y, return_dict=False).
"""
import importlib
import inspect
import io
import json
import sys

import torch
from torch import nn

from . import contract as contract_io
from . import limits
from .errors import FieldError, Parser, integer
from .files import check_input, check_not_an_input, output_target


def _prediction_of(out):
    if isinstance(out, torch.Tensor):
        return out
    if isinstance(out, (tuple, list)) and out and isinstance(out[0], torch.Tensor):
        return out[0]
    sample = getattr(out, "sample", None)
    if isinstance(sample, torch.Tensor):
        return sample
    if isinstance(out, dict) and isinstance(out.get("sample"), torch.Tensor):
        return out["sample"]
    raise TypeError(f"the model returned {type(out).__name__}, not a tensor, a tuple or an "
                    f"object with .sample")


def _call_style(model):
    try:
        params = inspect.signature(model.forward).parameters
    except (TypeError, ValueError):
        return "plain"
    return "diffusers" if ("return_dict" in params or "class_labels" in params) else "plain"


def _param_dtype(model):
    for p in model.parameters():
        if p.is_floating_point():
            return p.dtype
    return torch.float32


class _Call(nn.Module):
    """The wrapped model's call with its output reduced to the prediction tensor."""

    def __init__(self, model, style, gaussian):
        super().__init__()
        self.model = model
        self.style = style
        self.gaussian = gaussian
        self.dtype = _param_dtype(model)

    def run(self, x, t, y=None):
        if self.gaussian:
            x = x.to(self.dtype)  # half-precision models get their own dtype
        if self.style == "diffusers":
            params = inspect.signature(self.model.forward).parameters
            kwargs = {}
            if "return_dict" in params:
                kwargs["return_dict"] = False
            if y is not None:
                kwargs["class_labels"] = y
            out = self.model(x, t, **kwargs)
        elif y is None:
            out = self.model(x, t)
        else:
            out = self.model(x, t, y)
        return _prediction_of(out).to(torch.float32)


class GaussianContract(nn.Module):
    """forward(x: float32[B, *shape], t: int64[B] = n − 1) -> float32[B, *shape]"""

    def __init__(self, model, style):
        super().__init__()
        self.call = _Call(model, style, True)

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return self.call.run(x, t)


class GaussianContractConditional(nn.Module):
    """forward(x: float32[B, *shape], t: int64[B] = n − 1, y: int64[B]) -> float32[B, *shape]"""

    def __init__(self, model, style):
        super().__init__()
        self.call = _Call(model, style, True)

    def forward(self, x: torch.Tensor, t: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return self.call.run(x, t, y)


class CategoricalContract(nn.Module):
    """forward(x: int64[B, D], t: float32[B] in [0, 1]) -> float32[B, D, K] logits"""

    def __init__(self, model, style):
        super().__init__()
        self.call = _Call(model, style, False)

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return self.call.run(x, t)


class CategoricalContractConditional(nn.Module):
    """forward(x: int64[B, D], t: float32[B], y: int64[B]) -> float32[B, D, K] logits"""

    def __init__(self, model, style):
        super().__init__()
        self.call = _Call(model, style, False)

    def forward(self, x: torch.Tensor, t: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return self.call.run(x, t, y)


class _PlainScriptable(nn.Module):
    """A plain tensor-returning model, scripted as is (keeps data-dependent control flow)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return self.model(x, t)


class _PlainScriptableConditional(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x: torch.Tensor, t: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return self.model(x, t, y)


def _example_inputs(process, shape, num_steps, num_classes, num_conditions, batch, generator):
    if process == "gaussian":
        x = torch.randn((batch,) + tuple(shape), generator=generator)
        t = torch.randint(0, num_steps, (batch,), generator=generator, dtype=torch.int64)
    else:
        x = torch.randint(0, num_classes, (batch,) + tuple(shape), generator=generator,
                          dtype=torch.int64)
        t = torch.rand((batch,), generator=generator)
    inputs = (x, t)
    if num_conditions > 0:
        inputs += (torch.randint(0, num_conditions, (batch,), generator=generator,
                                 dtype=torch.int64),)
    return inputs


def export_model(model, path, *, process="gaussian", prediction="epsilon", schedule, num_steps,
                 shape, num_classes=0, num_conditions=0, method="auto", device="cpu",
                 rtol=1e-4, atol=1e-5):
    """Wraps `model` into the contract, converts it to TorchScript (script for plain models when
    possible, else trace), checks the result against the eager model on a random batch of
    another size and saves it to `path`. Returns "script" or "trace", the method used.
    `device` is where the model is traced and checked: a trace may record the device of tensors
    made inside forward, so trace on the device the model will run on.
    Raises FieldError naming what was refused."""
    checked = json.loads(contract_io.contract_json(
        process=process, schedule=schedule, num_steps=num_steps, shape=shape,
        prediction=prediction, num_classes=num_classes, num_conditions=num_conditions))
    num_steps, shape = checked["num_steps"], tuple(checked["shape"])
    num_classes, num_conditions = checked.get("num_classes", 0), checked["num_conditions"]
    output_target(path, "--out")  # before the work, which ends in writing it
    if method not in ("auto", "script", "trace"):
        raise FieldError("method", method, "not one of auto, script, trace")
    conditional = num_conditions > 0
    try:
        device = torch.device(device)
    except RuntimeError:
        raise FieldError("device", device, "not a device (cpu, cuda, cuda:K)") from None
    if device.type == "cuda" and not torch.cuda.is_available():
        raise FieldError("device", device, "CUDA is not available")
    model = model.to(device).eval()
    style = _call_style(model)
    if process == "gaussian":
        eager = (GaussianContractConditional if conditional else GaussianContract)(model, style)
    else:
        eager = (CategoricalContractConditional if conditional else CategoricalContract)(
            model, style)
    eager.eval()

    generator = torch.Generator().manual_seed(0)
    example = tuple(a.to(device) for a in _example_inputs(
        process, shape, num_steps, num_classes, num_conditions, 2, generator))
    check = tuple(a.to(device) for a in _example_inputs(
        process, shape, num_steps, num_classes, num_conditions, 3, generator))

    try:
        with torch.no_grad():
            eager(*example)
            want = eager(*check)
    except Exception as e:
        first = str(e).strip().splitlines()
        raise FieldError("shape", list(shape), f"the model fails on a batch of such points "
                         f"({first[0] if first else type(e).__name__})") from None
    expected_shape = (3,) + shape + ((num_classes,) if process == "categorical" else ())
    if tuple(want.shape) != expected_shape:
        raise FieldError("shape", list(shape), f"the model returns shape {list(want.shape)} for "
                         f"a batch of 3, the contract needs {list(expected_shape)}")

    scripted, used, script_error = None, None, None
    if method in ("auto", "script") and style == "plain":
        try:
            plain = (_PlainScriptableConditional if conditional else _PlainScriptable)(model)
            scripted = torch.jit.script(plain)
            with torch.no_grad():  # scripting succeeds on models whose output is not a tensor
                out = scripted(*example)
            if not isinstance(out, torch.Tensor) or out.dtype != torch.float32:
                raise TypeError("the scripted model does not return a float32 tensor")
            used = "script"
        except Exception as e:  # anything TorchScript cannot compile falls back to tracing
            scripted, script_error = None, e
    if scripted is None:
        if method == "script":
            raise FieldError("method", "script", f"the model cannot be scripted: {script_error}")
        with torch.no_grad():
            scripted = torch.jit.trace(eager, example, check_trace=False)
        used = "trace"

    # Check what will be loaded: a round trip through the serialised form, another batch size.
    buffer = io.BytesIO()
    torch.jit.save(scripted, buffer)
    buffer.seek(0)
    loaded = torch.jit.load(buffer, map_location=device)
    try:
        with torch.no_grad():
            got = loaded(*check)
    except Exception as e:
        first = str(e).strip().splitlines()
        raise FieldError("model", used, f"the TorchScript module fails on a batch of 3 "
                         f"({first[0] if first else type(e).__name__})") from None
    if got.shape != want.shape or not torch.allclose(got, want, rtol=rtol, atol=atol):
        diff = (got - want).abs().max().item() if got.shape == want.shape else "shape"
        raise FieldError("model", used, f"the TorchScript module disagrees with the eager "
                         f"model on a check batch (max |difference| {diff})")
    contract_io.save(scripted, path, process=process, schedule=schedule, num_steps=num_steps,
                     shape=list(shape), prediction=prediction, num_classes=num_classes,
                     num_conditions=num_conditions)
    return used


def build_parser(prog="export"):
    p = Parser(
        prog=prog, description="Wraps a PyTorch model into Diffuscope's TorchScript contract.")
    p.add_argument("--factory", required=True,
                   help="module:function, imported from PYTHONPATH, returning an nn.Module")
    p.add_argument("--weights", help="state_dict file (torch.save) loaded into the module")
    p.add_argument("--process", default="gaussian", choices=contract_io.PROCESSES)
    p.add_argument("--prediction", choices=contract_io.PREDICTIONS,
                   help="what a Gaussian model predicts (required for gaussian)")
    p.add_argument("--schedule", required=True,
                   help="Gaussian: linear, cosine, scaled-linear, sigmoid or csv:FILE, each "
                        "optionally ,zero-snr; categorical: linear, cosine, power:P, custom:FILE "
                        "or info-linear")
    p.add_argument("--num-steps", required=True, type=integer, help="N")
    p.add_argument("--shape", required=True, help="one data point's shape, e.g. 1,8,8 or 2")
    p.add_argument("--num-classes", type=integer, default=0, help="K (categorical)")
    p.add_argument("--num-conditions", type=integer, default=0, help="classes of y (0: none)")
    p.add_argument("--method", default="auto", choices=("auto", "script", "trace"),
                   help="auto: script plain models when possible, else trace")
    p.add_argument("--device", default="cpu",
                   help="where to trace and check the model (default cpu); a trace may record "
                        "it, so use the device the model will run on")
    p.add_argument("--out", required=True, help="contract archive to write")
    return p


def _load_factory(spec):
    module_name, sep, function = spec.partition(":")
    if not sep or not module_name or not function:
        raise FieldError("--factory", spec, "expected module:function")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise FieldError("--factory", spec, f"cannot import {module_name} ({e})") from None
    factory = getattr(module, function, None)
    if not callable(factory):
        raise FieldError("--factory", spec, f"{module_name} has no function {function}")
    try:
        model = factory()
    except Exception as e:  # noqa: BLE001  the user's code
        raise FieldError("--factory", spec, f"the factory failed ({type(e).__name__}: "
                         f"{_first_line(e)})") from None
    if not isinstance(model, nn.Module):
        raise FieldError("--factory", spec, f"returned {type(model).__name__}, not an nn.Module")
    return model


def _first_line(error):
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def _load_weights(model, path):
    check_input(path, "--weights", limits.MAX_MODEL_FILE_BYTES)
    try:
        state = torch.load(path, map_location="cpu")
    except Exception as e:  # noqa: BLE001  pickle and zip report a foreign file in many ways
        raise FieldError("--weights", path, f"not a state_dict saved by torch.save "
                         f"({type(e).__name__}: {_first_line(e)})") from None
    if isinstance(state, dict) and isinstance(state.get("state_dict"), dict):
        state = state["state_dict"]
    if not isinstance(state, dict):
        raise FieldError("--weights", path, f"holds {type(state).__name__}, not a state_dict")
    try:
        model.load_state_dict(state)
    except (RuntimeError, TypeError, AttributeError, ValueError) as e:
        raise FieldError("--weights", path,
                         f"does not fit the model ({_first_line(e)})") from None


def schedule_file(spec):
    """The file a schedule reads (csv:FILE, diffusers:FILE or custom:FILE, each optionally
    followed by ,zero-snr), else None."""
    spec = str(spec)
    if spec.endswith(",zero-snr"):
        spec = spec[:-len(",zero-snr")]
    for prefix in ("csv:", "diffusers:", "custom:"):
        if spec.startswith(prefix) and len(spec) > len(prefix):
            return spec[len(prefix):]
    return None


# The contract's keys as the options that set them, for messages.
_OPTIONS = {"process": "--process", "prediction": "--prediction", "schedule": "--schedule",
            "num_steps": "--num-steps", "shape": "--shape", "num_classes": "--num-classes",
            "num_conditions": "--num-conditions"}


def main(argv=None, prog="export"):
    args = build_parser(prog).parse_args(argv)
    try:
        if args.process == "gaussian" and args.prediction is None:
            raise FieldError("--prediction", "(missing)", "a Gaussian model needs epsilon, "
                             "sample or v_prediction")
        try:
            shape = [int(s, 10) for s in args.shape.split(",")]
        except ValueError:
            raise FieldError("--shape", args.shape, "expected sizes separated by commas") from None
        # The output is none of the inputs; then everything the app will check, and the
        # output, before loading or tracing anything.
        check_not_an_input([(args.out, "--out")], ((args.weights, "--weights"),
                                                   (schedule_file(args.schedule), "--schedule")))
        try:
            contract_io.contract_json(
                process=args.process, schedule=args.schedule, num_steps=args.num_steps,
                shape=shape, prediction=args.prediction or "epsilon",
                num_classes=args.num_classes, num_conditions=args.num_conditions)
        except FieldError as e:
            field = _OPTIONS.get(e.field.split("[")[0], e.field)
            value = args.shape if field == "--shape" else e.value
            raise FieldError(field, value, e.reason) from None
        output_target(args.out, "--out")
        model = _load_factory(args.factory)
        if args.weights:
            _load_weights(model, args.weights)
        used = export_model(model, args.out, process=args.process,
                            prediction=args.prediction or "epsilon", schedule=args.schedule,
                            num_steps=args.num_steps, shape=shape, num_classes=args.num_classes,
                            num_conditions=args.num_conditions, method=args.method,
                            device=args.device)
    except FieldError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    print(f"{prog}: wrote {args.out} ({used})", file=sys.stderr)
    return 0
