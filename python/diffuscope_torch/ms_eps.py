"""ms-eps: Monte-Carlo estimate of Γ_n = E‖ε_θ(x_n, n)‖²/d (Analytic-DPM's ms_eps) for a
Gaussian contract model, n = 1..N.

Reproducibility: draw m of timestep n (data index, then ε) comes from its own generator keyed by
(seed, n, m), and each timestep is computed whole by one rank, so the numbers do not depend on
the number of ranks, on the order timesteps are finished in, or on resuming. --batch only
decides how many draws go through the network at once.
"""
import hashlib
import io
import json
import math
import os
import re
import sys
import time

import numpy as np
import torch

from . import contract as contract_io
from . import limits
from .errors import FieldError, Parser, integer, printable
from .files import check_input, fsync_dir, output_target, read_input, write_atomic, \
    write_atomic_all
from .schedules import ScheduleError, gaussian_schedule

PROGRESS_FORMAT = "diffuscope ms-eps progress 1"
ESTIMATORS = ("score", "error")
# Test hook: stop (exit code 3) once this many timesteps were finished in this run.
STOP_AFTER_ENV = "DIFFUSCOPE_MS_EPS_STOP_AFTER"
EXIT_STOPPED = 3
# Memory of one batch entry per data dimension in estimate_timestep: about ten float64 arrays
# of the batch's size (x₀, ε, x_n, the prediction, e and their temporaries).
BYTES_PER_BATCH_ENTRY = 80


def stderr_path(out):
    base = out[:-4] if out.endswith(".npy") else out
    return base + ".stderr.npy"


def progress_path(out):
    return out + ".progress"


def build_parser(prog="ms-eps"):
    p = Parser(
        prog=prog,
        description="Estimates ms_eps_n = E‖ε_θ(x_n, n)‖²/d for n = 1..N of a Gaussian contract "
                    "model over a data set, x_n = √ᾱ_n x₀ + √β̄_n ε.",
        epilog="Output: OUT is a float64 1-D NPY array of length N + 1 with entry 0 = 0 and "
               "entry n = the estimate for timestep n; the standard errors (sample standard "
               "deviation / √samples) go beside it, in the same layout, to OUT with .npy replaced "
               "by .stderr.npy (F.npy -> F.stderr.npy). Finished timesteps are recorded in "
               "OUT.progress; an interrupted run resumes from it when rerun with the same model, "
               "data, samples, seed and estimator (any number of ranks). Under torchrun the "
               "timesteps are split across ranks and rank 0 writes the files.")
    p.add_argument("--model", required=True, help="TorchScript contract archive (Gaussian)")
    p.add_argument("--data", required=True, help="NPY array [P, *shape] of data points x₀")
    p.add_argument("--samples", required=True, type=integer, help="draws per timestep (≥ 2)")
    p.add_argument("--seed", required=True, type=integer, help="seed (≥ 0) keying every draw")
    p.add_argument("--out", required=True, help="output NPY file")
    p.add_argument("--estimator", choices=ESTIMATORS, default="score",
                   help="score: ‖ε_θ‖²/d (Analytic-DPM's, default); "
                        "error: 1 − ‖ε_θ − ε‖²/d")
    p.add_argument("--batch", type=integer, default=64, help="draws per network call (default 64)")
    p.add_argument("--device", default="auto",
                   help="cpu, cuda or auto (cuda when available; default)")
    return p


def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class Setup:
    """Everything validated before any work: the options against the app's limits, the model,
    its contract, schedule and data, and the memory one batch needs."""

    def __init__(self, args):
        if args.samples < 2:
            raise FieldError("--samples", args.samples, "needs at least 2 (for a standard error)")
        limits.check_range(limits.GAMMA_SAMPLES, "--samples", args.samples)
        if args.seed < 0:
            raise FieldError("--seed", args.seed, "must be ≥ 0")
        limits.check_range(limits.SEED, "--seed", args.seed)
        if args.batch < 1:
            raise FieldError("--batch", args.batch, "must be ≥ 1")
        limits.check_range(limits.BATCH, "--batch", args.batch)
        self.model_path, self.data_path = args.model, args.data
        self.module, c = contract_io.load(args.model, "--model")
        self.contract = c
        if c["process"] != "gaussian":
            raise FieldError("process", c["process"], "ms-eps needs a Gaussian model (ε, x₀ or v "
                             "prediction); categorical models have no ms_eps")
        if c["num_conditions"] != 0:
            raise FieldError("num_conditions", c["num_conditions"],
                             "conditional models are not supported yet (need 0)")
        self.prediction = c["prediction"]
        self.num_steps = c["num_steps"]
        self.shape = tuple(c["shape"])
        try:
            self.schedule = gaussian_schedule(c["schedule"], self.num_steps)
        except ScheduleError as e:
            raise FieldError(e.field, e.value, e.reason) from None

        check_input(args.data, "--data", math.inf)  # memory-mapped, so no size limit
        try:
            # Memory-mapped: every rank reads the same pages.
            self.data = np.load(args.data, mmap_mode="r", allow_pickle=False)
        except Exception as e:  # noqa: BLE001  numpy reports a non-NPY file in many ways
            lines = str(e).strip().splitlines()
            raise FieldError("--data", args.data, f"not an NPY array "
                             f"({lines[0] if lines else type(e).__name__})") from None
        if not isinstance(self.data, np.ndarray):
            raise FieldError("--data", args.data, "an NPZ archive, not an NPY array")
        if self.data.dtype not in (np.float32, np.float64):
            raise FieldError("--data", args.data,
                             f"dtype {self.data.dtype} (need float32 or float64)")
        if self.data.ndim < 1 or tuple(self.data.shape[1:]) != self.shape:
            raise FieldError("shape", list(self.shape), f"the model's data shape, but {args.data} "
                             f"holds points of shape {list(self.data.shape[1:])} "
                             f"(array {list(self.data.shape)})")
        if self.data.shape[0] < 1:
            raise FieldError("--data", args.data, "holds no data points")
        self.dim = int(np.prod(self.shape))
        batch = min(args.batch, args.samples)
        limits.check_memory("--batch", batch, f"batch·d·{BYTES_PER_BATCH_ENTRY} bytes "
                            f"(d = {self.dim})", batch * self.dim * BYTES_PER_BATCH_ENTRY)

    def check_outputs(self, out):
        """The three files a run writes, refused now rather than after the work: each must be a
        regular file or a new one in an existing, writable folder, and none an input."""
        paths = ((out, "--out"), (stderr_path(out), "--out"), (progress_path(out), "progress file"))
        for path, field in paths:
            output_target(path, field)
            for source, option in ((self.model_path, "--model"), (self.data_path, "--data")):
                if os.path.exists(path) and os.path.samefile(path, source):
                    raise FieldError(field, path, f"is the {option} file; refusing to overwrite "
                                                  f"an input")


def _device(name):
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        device = torch.device(name)
    except RuntimeError:
        raise FieldError("--device", name, "not a device (cpu, cuda, cuda:K or auto)") from None
    if device.type == "cuda" and not torch.cuda.is_available():
        raise FieldError("--device", name, "CUDA is not available")
    return device


def _not_finite(array):
    """(row, column, value) of the first NaN or ±inf of a 2-D array, or None."""
    bad = ~np.isfinite(array)
    if not bad.any():
        return None
    i, j = np.argwhere(bad)[0]
    return int(i), int(j), float(array[i, j])


def estimate_timestep(setup, n, samples, seed, estimator, batch, device):
    """(mean, standard error) of the estimator at timestep n over `samples` draws. NaN or ±inf
    in a drawn data point or in the network's prediction is refused (FieldError naming n)."""
    sched = setup.schedule
    sa = math.sqrt(sched.alpha_bar[n])
    sb = math.sqrt(sched.beta_bar[n])
    d = setup.dim
    count = setup.data.shape[0]
    values = np.empty(samples, dtype=np.float64)
    for start in range(0, samples, batch):
        stop = min(samples, start + batch)
        b = stop - start
        x0 = np.empty((b, d), dtype=np.float64)
        eps = np.empty((b, d), dtype=np.float64)
        points = np.empty(b, dtype=np.int64)
        for i, m in enumerate(range(start, stop)):
            rng = np.random.Generator(np.random.Philox(np.random.SeedSequence([seed, n, m])))
            points[i] = int(rng.integers(count))
            x0[i] = setup.data[points[i]].reshape(-1)
            eps[i] = rng.standard_normal(d)
        bad = _not_finite(x0)
        if bad is not None:
            i, j, value = bad
            raise FieldError("--data", setup.data_path, f"data point {points[i]} (drawn at "
                             f"timestep n = {n}) holds {value!r} at entry {j}; the data must be "
                             f"finite")
        x32 = (sa * x0 + sb * eps).astype(np.float32)
        x = torch.from_numpy(x32).reshape((b,) + setup.shape).to(device)
        t = torch.full((b,), n - 1, dtype=torch.int64, device=device)
        with torch.no_grad():
            out = setup.module(x, t)
        if not isinstance(out, torch.Tensor) or tuple(out.shape) != (b,) + setup.shape:
            raise FieldError("--model", setup.model_path, f"expected an output tensor of shape "
                             f"{[b] + list(setup.shape)}, got "
                             f"{list(out.shape) if isinstance(out, torch.Tensor) else type(out)}")
        out = out.detach().to("cpu", torch.float64).numpy().reshape(b, d)
        bad = _not_finite(out)
        if bad is not None:
            i, j, value = bad
            raise FieldError("--model", setup.model_path, f"the network's prediction at timestep "
                             f"n = {n} holds {value!r} (draw {start + i}, entry {j}); refusing "
                             f"to write it into the output")
        # The network saw the float32 x_n; convert x₀/v predictions against that input.
        seen = x32.astype(np.float64)
        if setup.prediction == "sample":
            e = (seen - sa * out) / sb
        elif setup.prediction == "v_prediction":
            e = sa * out + sb * seen
        else:
            e = out
        if estimator == "score":
            values[start:stop] = np.square(e).sum(axis=1) / d
        else:
            values[start:stop] = 1.0 - np.square(e - eps).sum(axis=1) / d
    mean, se = float(values.mean()), float(values.std(ddof=1) / math.sqrt(samples))
    if not (math.isfinite(mean) and math.isfinite(se)):
        raise FieldError("--model", setup.model_path, f"the estimate at timestep n = {n} "
                         f"overflows ({mean!r} ± {se!r}); refusing to write it into the output")
    return mean, se


# Progress file: a JSON header line, then "n mean stderr" per finished timestep (repr floats,
# so reading them back gives the same bits).

def _header(args, setup):
    return {"format": PROGRESS_FORMAT,
            "model_sha256": _sha256(args.model), "data_sha256": _sha256(args.data),
            "samples": args.samples, "seed": args.seed, "estimator": args.estimator,
            "num_steps": setup.num_steps,
            "model": os.path.abspath(args.model), "data": os.path.abspath(args.data)}


_COMPARED = (("model_sha256", "model"), ("data_sha256", "data"), ("samples", "samples"),
             ("seed", "seed"), ("estimator", "estimator"), ("num_steps", "num_steps"))


def _npy_bytes(array):
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


_PROGRESS_N = re.compile(r"[0-9]+")
# repr of a float, and what a hand may write for one: decimal or nan, inf (refused below).
_PROGRESS_NUMBER = re.compile(r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|nan|inf)")


def _refuse_progress(path, reason):
    return FieldError("progress file", path, f"{reason}; remove it or choose another --out")


def read_progress(path, header):
    """Finished results {n: (mean, stderr)} of an earlier run's progress file, refusing one
    written for other inputs and one whose values are not what a run writes (each n once,
    1 ≤ n ≤ N, finite numbers, a score estimate ≥ 0, an error estimate ≤ 1, a standard error
    ≥ 0), naming the line and the value."""
    data = read_input(path, "progress file", limits.MAX_INPUT_FILE_BYTES)
    try:
        lines = data.decode("utf-8").split("\n")
        old = json.loads(lines[0])
        if not isinstance(old, dict) or old.get("format") != PROGRESS_FORMAT:
            raise ValueError
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _refuse_progress(path, "not an ms-eps progress file") from None
    differ = [f"{name} ({old.get(key)!r} there, {header[key]!r} now)"
              for key, name in _COMPARED if old.get(key) != header[key]]
    if differ:
        raise FieldError("progress file", path, "written for a different " +
                         "; ".join(differ) + "; remove it to start afresh")
    num_steps, estimator = header["num_steps"], header["estimator"]
    results, first_line = {}, {}
    # Only whole lines count: a run killed mid-write leaves the last one unfinished.
    for number, line in enumerate(lines[1:-1], start=2):
        if not line.strip():
            continue
        where = f"progress file {path}, line {number}"

        def refuse(reason):
            shown = line.strip()
            if len(shown) > 80:
                shown = printable(shown, 77) + f" ({len(shown)} characters)"
            return FieldError(where, shown, f"{reason}; remove the file to start afresh")

        # As a run writes them: ASCII digits, not Python's "1_0" or other scripts' digits.
        parts = line.split()
        if len(parts) != 3 or not _PROGRESS_N.fullmatch(parts[0]) or \
                not all(_PROGRESS_NUMBER.fullmatch(p) for p in parts[1:]):
            raise refuse("expected a line 'n mean stderr'")
        n, mean, se = int(parts[0], 10), float(parts[1]), float(parts[2])
        if not 1 <= n <= num_steps:
            raise refuse(f"n must lie between 1 and N = {num_steps}")
        if n in first_line:
            raise refuse(f"timestep {n} appears twice (first on line {first_line[n]})")
        if not math.isfinite(mean):
            raise refuse("the estimate is not a finite number")
        if estimator == "score" and mean < 0.0:
            raise refuse("a score estimate (a mean of ‖ε_θ‖²/d) cannot be negative")
        if estimator == "error" and mean > 1.0:
            raise refuse("an error estimate (a mean of 1 − ‖ε_θ − ε‖²/d) cannot exceed 1")
        if not (math.isfinite(se) and se >= 0.0):
            raise refuse("the standard error must be a finite number ≥ 0")
        first_line[n] = number
        results[n] = (mean, se)
    return results


def open_progress(path, header):
    """Finished results {n: (mean, stderr)} from an earlier run's progress file (read_progress;
    none when there is no such file), and the file, rewritten whole, opened for appending."""
    results = read_progress(path, header) if os.path.lexists(path) else {}
    # Rewritten whole, so appends never continue a torn line.
    text = json.dumps(header) + "\n" + "".join(
        f"{n} {results[n][0]!r} {results[n][1]!r}\n" for n in sorted(results))
    write_atomic(path, text.encode("utf-8"), "progress file")
    try:
        return results, open(path, "a", encoding="utf-8")
    except OSError as e:
        raise FieldError("progress file", path, f"cannot open it: {e.strerror or e}") from None


class _RefusedOnAnotherRank(Exception):
    """Another rank refused a timestep and reported it; this one exits with code 2 quietly."""


def _dist_env():
    world = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    return world, rank, local_rank


def run(args):
    world, rank, local_rank = _dist_env()
    device = _device(args.device)
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", local_rank)
    setup = Setup(args)  # every rank refuses the same inputs; only rank 0 reports
    setup.module.to(device)
    setup.module.eval()
    N = setup.num_steps
    out_path, progress = args.out, progress_path(args.out)

    dist = None
    if world > 1:
        import torch.distributed as dist
        if device.type == "cuda":
            torch.cuda.set_device(device)
        dist.init_process_group("nccl" if device.type == "cuda" else "gloo")
    comm_device = device if device.type == "cuda" else torch.device("cpu")
    log = None
    created_progress = False
    try:
        # Rank 0 checks the outputs, reads the progress file and tells the others which
        # timesteps are done, or that it refused (done[0] = 1), before any work.
        error = None
        done = torch.zeros(N + 2, dtype=torch.int64)
        results = {}
        if rank == 0:
            try:
                setup.check_outputs(out_path)
                created_progress = not os.path.lexists(progress)
                results, log = open_progress(progress, _header(args, setup))
            except FieldError as e:
                error = e
                done[0] = 1
            for n in results:
                done[n + 1] = 1
        if dist is not None:
            done = done.to(comm_device)
            dist.broadcast(done, 0)
            done = done.cpu()
        if int(done[0]):
            if error is not None:
                raise error
            return 2
        remaining = [n for n in range(1, N + 1) if not int(done[n + 1])]
        finished = N - len(remaining)
        stop_after = int(os.environ.get(STOP_AFTER_ENV, "0") or 0)
        reported = -1
        started = time.monotonic()
        if rank == 0 and remaining and finished:
            print(f"ms-eps: resuming, {finished}/{N} timesteps already done", file=sys.stderr,
                  flush=True)
        for first in range(0, len(remaining), world):
            index = first + rank
            row = torch.tensor([-1.0, 0.0, 0.0], dtype=torch.float64)
            refused = None
            if index < len(remaining):
                n = remaining[index]
                try:
                    mean, se = estimate_timestep(setup, n, args.samples, args.seed,
                                                 args.estimator, args.batch, device)
                    row = torch.tensor([float(n), mean, se], dtype=torch.float64)
                except FieldError as e:
                    refused = e
                    row = torch.tensor([0.0, float(n), 0.0], dtype=torch.float64)  # 0: refused
            if dist is not None:
                rows = [torch.zeros(3, dtype=torch.float64, device=comm_device)
                        for _ in range(world)]
                dist.all_gather(rows, row.to(comm_device))
                rows = [r.cpu() for r in rows]
            else:
                rows = [row]
            if any(float(r[0]) == 0.0 for r in rows):
                # Refused inputs: a progress file this run began is of no use for a rerun.
                if rank == 0 and created_progress:
                    log.close()
                    log = None
                    os.unlink(progress)
                    fsync_dir(progress)
                if refused is None:
                    raise _RefusedOnAnotherRank()
                refused.any_rank = True
                raise refused
            new = sorted((int(r[0]), float(r[1]), float(r[2])) for r in rows if r[0] > 0)
            finished += len(new)
            if rank == 0:
                try:
                    for n, mean, se in new:
                        results[n] = (mean, se)
                        log.write(f"{n} {mean!r} {se!r}\n")
                    log.flush()
                    os.fsync(log.fileno())
                except OSError as e:
                    raise FieldError("progress file", progress, f"cannot write it: "
                                     f"{e.strerror or e}; the timesteps finished before are "
                                     f"kept in it, rerun to resume") from None
                step = finished * 20 // N
                if step != reported:
                    reported = step
                    print(f"ms-eps: {finished}/{N} timesteps "
                          f"({time.monotonic() - started:.1f} s)", file=sys.stderr, flush=True)
            if stop_after and finished - (N - len(remaining)) >= stop_after \
                    and first + world < len(remaining):
                if rank == 0:
                    print(f"ms-eps: stopped after {stop_after} timesteps ({STOP_AFTER_ENV}); "
                          f"{finished}/{N} are in {progress}", file=sys.stderr, flush=True)
                return EXIT_STOPPED
        if rank == 0:
            log.close()
            log = None
            ms_eps = np.zeros(N + 1, dtype=np.float64)
            stderr = np.zeros(N + 1, dtype=np.float64)
            for n in range(1, N + 1):
                ms_eps[n], stderr[n] = results[n]
            try:
                # Both written and flushed before either replaces an old file.
                write_atomic_all([(stderr_path(out_path), _npy_bytes(stderr)),
                                  (out_path, _npy_bytes(ms_eps))], "--out")
            except FieldError as e:
                raise FieldError(e.field, e.value, f"{e.reason}; the finished timesteps are "
                                 f"kept in {progress}, rerun to resume") from None
            os.unlink(progress)
            fsync_dir(progress)
            print(f"ms-eps: wrote {out_path} and {stderr_path(out_path)}", file=sys.stderr,
                  flush=True)
        if dist is not None:
            dist.barrier()
        return 0
    except KeyboardInterrupt:
        if rank == 0:
            print(f"ms-eps: interrupted; finished timesteps are in {progress}, rerun the same "
                  f"command to resume", file=sys.stderr, flush=True)
        return 130
    finally:
        if log is not None:
            log.close()
        if dist is not None and dist.is_initialized():
            dist.destroy_process_group()


def main(argv=None, prog="ms-eps"):
    args = build_parser(prog).parse_args(argv)
    _, rank, _ = _dist_env()
    try:
        return run(args)
    except _RefusedOnAnotherRank:
        return 2
    except FieldError as e:
        if rank == 0 or getattr(e, "any_rank", False):
            print(f"{prog}: {e}", file=sys.stderr, flush=True)
        return 2
