"""ms-eps: Monte-Carlo estimate of Γ_n = E‖ε_θ(x_n, n)‖²/d (Analytic-DPM's ms_eps) for a
Gaussian contract model, n = 1..N.

Reproducibility: draw m of timestep n (data index, then ε) comes from its own generator keyed by
(seed, n, m); the network calls are fixed slices of --batch draws of the n-major sequence of all
N·M draws, the same whatever the number of ranks or what a resume skips; the intra-op thread
count is fixed (--threads); and each timestep's values are reduced alone, in draw order. So the
numbers do not depend on the number of ranks, on the order calls are made in, or on resuming.
They do depend, in their last bits, on --batch and --threads (the kernels PyTorch's oneDNN picks
depend on the call's shape and the thread count), on the CPU's instruction set and on the torch
version; a resume therefore refuses another --batch or --threads than the run it continues.
"""
import hashlib
import io
import json
import math
import os
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch

from . import contract as contract_io
from . import limits
from .devices import device_of
from .errors import FieldError, Parser, integer, is_interrupt, network_error, printable
from .files import check_input, check_not_an_input, fsync_dir, output_target, read_input, \
    write_atomic, write_atomic_all
from .schedules import ScheduleError, gaussian_schedule

PROGRESS_FORMAT = "diffuscope ms-eps progress 2"
# Intra-op threads when --threads is not given: a constant, not the core count, so that runs on
# different machines and with different numbers of ranks compute the same bytes.
DEFAULT_THREADS = 1
# Calls each rank makes between two exchanges of results (and progress-file writes): at least
# ROUND_BATCHES, and at least ROUND_DRAWS draws, so that small calls do not wait on the exchange.
ROUND_BATCHES = 8
ROUND_DRAWS = 4096
MAX_THREADS = 1024
# The fewest draws a drawing thread is given at once.
DRAWS_PER_TASK = 16
ESTIMATORS = ("score", "error")
# Test hook: stop (exit code 3) once this many timesteps were finished in this run.
STOP_AFTER_ENV = "DIFFUSCOPE_MS_EPS_STOP_AFTER"
EXIT_STOPPED = 3
# Memory of one batch entry per data dimension in compute_calls: about ten float64 arrays
# of the batch's size (x₀, ε, x_n, the prediction, e and their temporaries), for each of the
# two calls in flight (one in the network, the next one being drawn).
BYTES_PER_BATCH_ENTRY = 160


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
               "data, samples, seed, estimator and --threads (any number of ranks). Under "
               "`run --nproc N` (or torchrun) the network calls (fixed slices of --batch draws, "
               "timestep after timestep) are dealt to the ranks in rounds and rank 0 writes the "
               "files.")
    p.add_argument("--model", required=True, help="TorchScript contract archive (Gaussian)")
    p.add_argument("--data", required=True, help="NPY array [P, *shape] of data points x₀")
    p.add_argument("--samples", required=True, type=integer, help="draws per timestep (≥ 2)")
    p.add_argument("--seed", required=True, type=integer, help="seed (≥ 0) keying every draw")
    p.add_argument("--out", required=True, help="output NPY file")
    p.add_argument("--estimator", choices=ESTIMATORS, default="score",
                   help="score: ‖ε_θ‖²/d (Analytic-DPM's, default); "
                        "error: 1 − ‖ε_θ − ε‖²/d")
    p.add_argument("--batch", type=integer, default=64,
                   help="draws per network call, whatever their timesteps (default 64)")
    p.add_argument("--device", default="auto",
                   help="cpu, cuda or auto (cuda when available; default)")
    p.add_argument("--threads", type=integer, default=DEFAULT_THREADS,
                   help=f"intra-op threads of every rank (default {DEFAULT_THREADS}); fixed, "
                        f"and recorded in the progress file, because the network's last bits "
                        f"depend on it")
    p.add_argument("--nll-terms", metavar="PLAN",
                   help="instead of Γ: write the terms of the negative ELBO on the trajectory "
                        "of PLAN (a diffuscope plan JSON) as CSV to --out, over --samples data "
                        "points")
    p.add_argument("--levels", type=integer, default=256,
                   help="--nll-terms: the data's grid levels L (default 256)")
    p.add_argument("--data-range", default="-1,1",
                   help="--nll-terms: the data's range a,b (default -1,1)")
    p.add_argument("--profile", action="store_true",
                   help="print images/s of the network alone (timed forward passes at the "
                        "batch size) and of the whole run")
    return p


def _forward_arity(module):
    """The number of arguments of the module's forward, self not counted (None if unknown)."""
    try:
        return len(module.forward.schema.arguments) - 1
    except (AttributeError, RuntimeError):
        return None


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
        if not 1 <= args.threads <= MAX_THREADS:
            raise FieldError("--threads", args.threads, f"must lie between 1 and {MAX_THREADS}")
        if args.batch < 1:
            raise FieldError("--batch", args.batch, "must be ≥ 1")
        limits.check_range(limits.BATCH, "--batch", args.batch)
        self.model_path, self.data_path = args.model, args.data
        self.module, c = contract_io.load(args.model, "--model")
        self.contract = c
        if c["process"] != "gaussian":
            raise FieldError("process", c["process"], "ms-eps needs a Gaussian model (ε, x₀ or v "
                             "prediction); categorical models have no ms_eps")
        self.num_conditions = c["num_conditions"]
        wanted = 3 if self.num_conditions > 0 else 2
        arguments = _forward_arity(self.module)
        if arguments is not None and arguments != wanted:
            raise FieldError("num_conditions", self.num_conditions,
                             f"means forward takes {wanted} arguments "
                             f"({'x, t, y' if wanted == 3 else 'x, t'}), but {args.model}'s "
                             f"takes {arguments}")
        self.prediction = c["prediction"]
        self.num_steps = c["num_steps"]
        self.shape = tuple(c["shape"])
        try:
            self.schedule = gaussian_schedule(c["schedule"], self.num_steps)
        except ScheduleError as e:
            raise FieldError(e.field, e.value, e.reason) from None
        self.sqrt_alpha_bar = np.sqrt(np.asarray(self.schedule.alpha_bar, dtype=np.float64))
        self.sqrt_beta_bar = np.sqrt(np.asarray(self.schedule.beta_bar, dtype=np.float64))

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
        batch = args.batch  # a call may hold draws of several timesteps
        limits.check_memory("--batch", batch, f"batch·d·{BYTES_PER_BATCH_ENTRY} bytes "
                            f"(d = {self.dim})", batch * self.dim * BYTES_PER_BATCH_ENTRY)

    def check_outputs(self, out):
        """The three files a run writes, refused now rather than after the work: each must be a
        regular file or a new one in an existing, writable folder, and none an input."""
        paths = ((out, "--out"), (stderr_path(out), "--out"), (progress_path(out), "progress file"))
        check_not_an_input(paths, ((self.model_path, "--model"), (self.data_path, "--data")))
        for path, field in paths:
            output_target(path, field)




def _not_finite(array):
    """(row, column, value) of the first NaN or ±inf of a 2-D array, or None."""
    bad = ~np.isfinite(array)
    if not bad.any():
        return None
    i, j = np.argwhere(bad)[0]
    return int(i), int(j), float(array[i, j])


def _draw(setup, seed, n, m):
    """(data index, x₀ row, the generator that then draws ε) of draw m at timestep n: its own
    generator keyed by (seed, n, m), so a draw never depends on which batch, thread, rank or
    run makes it."""
    rng = np.random.Generator(np.random.Philox(np.random.SeedSequence([seed, n, m])))
    point = int(rng.integers(setup.data.shape[0]))
    return point, setup.data[point].reshape(-1), rng


def draw_workers(device, threads):
    """Threads that make draws (NumPy releases the GIL while it fills ε): the cores of this
    rank's share of the machine, less the network's intra-op threads on the CPU. The draws do
    not depend on it."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    share = cores // max(1, local_world_size())
    return max(1, share - (threads if device.type == "cpu" else 0))


class _Batch:
    """One network call's draws, which may span several timesteps, padded to `size` rows with
    copies of the first: every call has the same shape, so kernels that pick their algorithm by
    the batch size (a batch of 1 takes another path on the CPU) compute every draw alike."""

    def __init__(self, setup, seed, items, size, workers=None):
        d, b = setup.dim, len(items)
        self.items = items
        self.ns = np.array([n for n, _ in items], dtype=np.int64)
        x0 = np.empty((b, d), dtype=np.float64)
        self.eps = np.empty((b, d), dtype=np.float64)
        points = np.empty(b, dtype=np.int64)

        def fill(lo, hi):
            for i in range(lo, hi):
                n, m = items[i]
                points[i], x0[i], rng = _draw(setup, seed, n, m)
                rng.standard_normal(out=self.eps[i])

        count = workers._max_workers if workers is not None else 1
        if count == 1 or b < 2 * DRAWS_PER_TASK:
            fill(0, b)
        else:
            step = max(DRAWS_PER_TASK, -(-b // count))
            for future in [workers.submit(fill, lo, min(b, lo + step))
                           for lo in range(0, b, step)]:
                future.result()
        bad = _not_finite(x0)
        if bad is not None:
            i, j, value = bad
            raise FieldError("--data", setup.data_path, f"data point {points[i]} (drawn at "
                             f"timestep n = {items[i][0]}) holds {value!r} at entry {j}; the "
                             f"data must be finite")
        self.sa = setup.sqrt_alpha_bar[self.ns][:, None]
        self.sb = setup.sqrt_beta_bar[self.ns][:, None]
        self.x32 = (self.sa * x0 + self.sb * self.eps).astype(np.float32)
        self.padded_x = self.x32
        self.padded_t = self.ns - 1
        if size > b:
            self.padded_x = np.concatenate([self.x32, np.repeat(self.x32[:1], size - b, 0)])
            self.padded_t = np.concatenate([self.padded_t, np.repeat(self.padded_t[:1],
                                                                     size - b)])


def _forward(setup, batch, device):
    """Starts the network on a batch; on a GPU the call returns before the result is ready,
    so the next batch's draws are made meanwhile."""
    b = len(batch.padded_t)
    x = torch.from_numpy(batch.padded_x).reshape((b,) + setup.shape).to(device,
                                                                          non_blocking=True)
    t = torch.from_numpy(batch.padded_t).to(device, non_blocking=True)
    try:
        with torch.no_grad():
            if setup.num_conditions > 0:
                # The unconditional prediction, as the app asks for it: the label
                # num_conditions.
                y = torch.full((b,), setup.num_conditions, dtype=torch.int64, device=device)
                return setup.module(x, t, y)
            return setup.module(x, t)
    except (torch.jit.Error, RuntimeError) as e:
        if is_interrupt(e):
            raise KeyboardInterrupt from None
        raise network_error(e, setup.model_path) from None


def _values(setup, batch, out, estimator):
    """Each draw's ‖e‖²/d (score) or 1 − ‖e − ε‖²/d (error), in float64."""
    b, d, size = len(batch.items), setup.dim, len(batch.padded_t)
    if not isinstance(out, torch.Tensor) or tuple(out.shape) != (size,) + setup.shape:
        raise FieldError("--model", setup.model_path, f"expected an output tensor of shape "
                         f"{[size] + list(setup.shape)}, got "
                         f"{list(out.shape) if isinstance(out, torch.Tensor) else type(out)}")
    out = out[:b].detach().to("cpu", torch.float64).numpy().reshape(b, d)
    bad = _not_finite(out)
    if bad is not None:
        i, j, value = bad
        n, m = batch.items[i]
        raise FieldError("--model", setup.model_path, f"the network's prediction at timestep "
                         f"n = {n} holds {value!r} (draw {m}, entry {j}); refusing to write it "
                         f"into the output")
    # The network saw the float32 x_n; convert x₀/v predictions against that input.
    seen = batch.x32.astype(np.float64)
    sa, sb = batch.sa, batch.sb
    if setup.prediction == "sample":
        e = (seen - sa * out) / sb
    elif setup.prediction == "v_prediction":
        e = sa * out + sb * seen
    else:
        e = out
    if estimator == "score":
        return np.square(e).sum(axis=1) / d
    return 1.0 - np.square(e - batch.eps).sum(axis=1) / d


class Profile:
    """Time spent in whole rounds and the draws they made (for --profile)."""

    def __init__(self):
        self.seconds, self.draws = 0.0, 0


def call_items(call, samples, batch, total):
    """The draws (n, m) of global call `call`: draws g = call·batch … of the n-major sequence
    g = (n − 1)·samples + m over all N timesteps. The calls, and where each draw sits in its
    call, are the same whatever the number of ranks or what a resume skips: kernels that split
    a call across threads may round a row by its position."""
    first = call * batch
    return [(g // samples + 1, g % samples) for g in range(first, min(first + batch, total))]


def needed_calls(timesteps, samples, batch):
    """The calls holding a draw of any of the timesteps (ascending), one by one."""
    last = -1
    for n in timesteps:
        begin = max(last + 1, (n - 1) * samples // batch)
        end = (n * samples - 1) // batch
        for call in range(begin, end + 1):
            yield call
        last = max(last, end)


def compute_calls(setup, calls, samples, seed, estimator, batch, device, profile=None):
    """Each draw's value (‖e‖²/d or 1 − ‖e − ε‖²/d) of the calls, call after call, `batch`
    slots each (NaN past the last draw). NaN or ±inf in a drawn data point or in the network's
    prediction is refused (FieldError naming n)."""
    started = time.perf_counter()
    total = setup.num_steps * samples
    values = np.full(len(calls) * batch, np.nan)
    pending = None  # (slot, batch, output being computed)
    # The next call's draws are made on another thread while the network runs (it releases
    # the GIL); a draw does not depend on where it is made.
    with ThreadPoolExecutor(max_workers=1) as pool, \
            ThreadPoolExecutor(max_workers=draw_workers(device, torch.get_num_threads())) \
            as workers:
        def prepare(j):
            items = call_items(calls[j], samples, batch, total)
            return j, _Batch(setup, seed, items, batch, workers)

        upcoming = pool.submit(prepare, 0) if calls else None
        while upcoming is not None:
            j, current = upcoming.result()
            upcoming = pool.submit(prepare, j + 1) if j + 1 < len(calls) else None
            launched = (j, current, _forward(setup, current, device))
            if pending is not None:
                _store(setup, pending, values, estimator, batch)
            pending = launched
        if pending is not None:
            _store(setup, pending, values, estimator, batch)
    if profile is not None:
        profile.seconds += time.perf_counter() - started
        profile.draws += int(np.count_nonzero(~np.isnan(values)))
    return values


def _store(setup, pending, values, estimator, batch):
    j, current, out = pending
    per_draw = _values(setup, current, out, estimator)
    values[j * batch:j * batch + len(per_draw)] = per_draw


def reduce_timestep(setup, n, v):
    """(mean, standard error) of a timestep's values, in draw order, in float64."""
    mean, se = float(v.mean()), float(v.std(ddof=1) / math.sqrt(len(v)))
    if not (math.isfinite(mean) and math.isfinite(se)):
        raise FieldError("--model", setup.model_path, f"the estimate at timestep n = {n} "
                         f"overflows ({mean!r} ± {se!r}); refusing to write it into the output")
    return mean, se


def network_throughput(setup, batch, device, seed, calls=10, seconds=2.0):
    """Images per second of the network alone: timed forward passes of `batch` draws (spread
    over the timesteps), after two untimed ones; at least `calls` of them and `seconds`."""
    step = max(1, setup.num_steps // batch)
    items = [(1 + (i * step) % setup.num_steps, i) for i in range(batch)]
    sample = _Batch(setup, seed, items, batch)
    for _ in range(2):
        out = _forward(setup, sample, device)
    _synchronize(device)
    started = time.perf_counter()
    done = 0
    while done < calls or time.perf_counter() - started < seconds:
        out = _forward(setup, sample, device)
        done += 1
        if done % calls == 0:
            _synchronize(device)
    _synchronize(device)
    del out
    return done * batch / (time.perf_counter() - started)


def _synchronize(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


# Progress file: a JSON header line, then "n mean stderr" per finished timestep (repr floats,
# so reading them back gives the same bits).

def _header(args, setup):
    return {"format": PROGRESS_FORMAT,
            "model_sha256": _sha256(args.model), "data_sha256": _sha256(args.data),
            "samples": args.samples, "seed": args.seed, "estimator": args.estimator,
            "num_steps": setup.num_steps, "intra_op_threads": args.threads, "batch": args.batch,
            "model": os.path.abspath(args.model), "data": os.path.abspath(args.data)}


_COMPARED = (("model_sha256", "model"), ("data_sha256", "data"), ("samples", "samples"),
             ("seed", "seed"), ("estimator", "estimator"), ("num_steps", "num_steps"),
             ("intra_op_threads", "intra-op thread count (--threads)"),
             ("batch", "call size (--batch)"))


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
        if not isinstance(old, dict) or not str(old.get("format", "")).startswith(
                PROGRESS_FORMAT[:-1]):
            raise ValueError
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _refuse_progress(path, "not an ms-eps progress file") from None
    if old.get("format") != PROGRESS_FORMAT:
        raise _refuse_progress(path, f"written by another version ({old.get('format')!r}, "
                               f"this one reads {PROGRESS_FORMAT!r})")
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


def _collect(buffers, unfinished, call, block, samples, batch, num_steps):
    """Files the values of one call (its `batch` slots) under their timesteps."""
    first = call * batch
    stop = min(first + batch, num_steps * samples)
    g = first
    while g < stop:
        n, m = g // samples + 1, g % samples
        take = min(samples - m, stop - g)
        if n in unfinished:
            v, count = buffers.get(n) or (np.empty(samples, dtype=np.float64), 0)
            v[m:m + take] = block[g - first:g - first + take]
            buffers[n] = (v, count + take)
        g += take


def _report_profile(setup, args, device, dist, comm_device, rank, world, draws, seconds):
    """Rank 0 prints the images/s of the network alone (each rank times its own forward
    passes at --batch) and of the whole run (every draw of this run over its wall time)."""
    alone = torch.tensor([network_throughput(setup, args.batch, device, args.seed)],
                         dtype=torch.float64)
    if dist is not None:
        gathered = [torch.zeros(1, dtype=torch.float64, device=comm_device)
                    for _ in range(world)]
        dist.all_gather(gathered, alone.to(comm_device))
        alone = torch.cat([g.cpu() for g in gathered])
    if rank != 0:
        return
    network = float(alone.sum())  # all ranks' networks side by side
    whole = draws / seconds if seconds > 0 else math.inf
    print(f"ms-eps: profile: network alone {network:.1f} images/s ({world} rank"
          f"{'s' if world > 1 else ''} on {device.type}, batch {args.batch}, "
          f"{args.threads} intra-op thread{'s' if args.threads > 1 else ''}); whole run "
          f"{whole:.1f} images/s ({draws} draws in {seconds:.2f} s), "
          f"{100.0 * whole / network:.0f} % of the network's", file=sys.stderr, flush=True)


def local_world_size():
    return int(os.environ.get("LOCAL_WORLD_SIZE", "1"))


def check_gpus(device_option, ranks, gpus):
    """Refuses more ranks on this machine than it has GPUs (each rank takes the GPU of its
    local rank), naming --device."""
    if ranks > gpus:
        raise FieldError("--device", device_option,
                         f"{ranks} ranks on this machine but {gpus} GPU"
                         f"{'' if gpus == 1 else 's'}; use at most {gpus} rank"
                         f"{'' if gpus == 1 else 's'} or --device cpu")


class _RefusedOnAnotherRank(Exception):
    """Another rank refused a timestep and reported it; this one exits with code 2 quietly."""


def _dist_env():
    world = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    return world, rank, local_rank


def run(args):
    world, rank, local_rank = _dist_env()
    torch.set_num_threads(args.threads)
    # Same algorithm on every call of the same shape.
    torch.backends.cudnn.benchmark = False
    torch.backends.cudnn.deterministic = True
    # No output is an input, checked before anything is read: the files a run writes (with
    # --nll-terms only OUT) against the files it reads.
    outputs = [(args.out, "--out")] if args.nll_terms is not None else \
        [(args.out, "--out"), (stderr_path(args.out), "--out"),
         (progress_path(args.out), "progress file")]
    check_not_an_input(outputs, ((args.model, "--model"), (args.data, "--data"),
                                 (args.nll_terms, "--nll-terms")))
    device = device_of(args.device)
    if device.type == "cuda" and device.index is None:
        check_gpus(args.device, local_world_size(), torch.cuda.device_count())
        device = torch.device("cuda", local_rank)
    setup = Setup(args)  # every rank refuses the same inputs; only rank 0 reports
    setup.module.to(device)
    setup.module.eval()
    if args.nll_terms is not None:
        if world > 1:
            raise FieldError("--nll-terms", args.nll_terms, "runs on one rank")
        check_not_an_input([(args.out, "--out")], ((args.model, "--model"),
                                                   (args.data, "--data"),
                                                   (args.nll_terms, "--nll-terms")))
        from .nll_terms import run_nll_terms
        return run_nll_terms(args, setup, device)
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
        profile = Profile() if args.profile else None
        M, B = args.samples, args.batch
        # Every rank walks the same calls; a round gives each rank ROUND_BATCHES consecutive
        # ones, and rank 0 collects the values of timesteps that are not done yet.
        calls = needed_calls(remaining, M, B)
        unfinished = set(remaining)
        buffers = {}  # rank 0: n -> (values in draw order, how many are in)
        done_this_run = 0
        last_of = {n: (n * M - 1) // B for n in remaining}  # the call finishing n
        target = remaining[min(stop_after, len(remaining)) - 1] if stop_after else None
        exhausted = not remaining
        per_round = max(ROUND_BATCHES, -(-ROUND_DRAWS // B))
        while not exhausted:
            round_calls = []
            while len(round_calls) < world * per_round:
                call = next(calls, None)
                if call is None:
                    exhausted = True
                    break
                round_calls.append(call)
                if target is not None and call == last_of[target]:
                    break  # the test hook stops once that timestep is done
            if not round_calls:
                break  # (an empty exchange would divide by zero in gloo)
            per_rank = -(-len(round_calls) // world)
            mine = round_calls[rank * per_rank:(rank + 1) * per_rank]
            values = torch.full((per_rank * B,), math.nan, dtype=torch.float64)
            status = torch.zeros(2, dtype=torch.float64)  # (1 if refused, n)
            refused = None
            try:
                values[:len(mine) * B] = torch.from_numpy(compute_calls(
                    setup, mine, M, args.seed, args.estimator, B, device, profile))
            except FieldError as e:
                refused = e
                status[0] = 1.0
            if dist is not None:
                gathered = [torch.zeros(per_rank * B, dtype=torch.float64, device=comm_device)
                            for _ in range(world)]
                dist.all_gather(gathered, values.to(comm_device))
                statuses = [torch.zeros(2, dtype=torch.float64, device=comm_device)
                            for _ in range(world)]
                dist.all_gather(statuses, status.to(comm_device))
                gathered = [g.cpu() for g in gathered]
                refusals = [float(s[0]) for s in statuses]
            else:
                gathered, refusals = [values], [float(status[0])]
            if any(refusals):
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
            new = []
            last_call = round_calls[-1] if round_calls else -1
            for n in sorted(n for n in unfinished if last_of[n] <= last_call):
                if target is None or n <= target:  # the test hook records exactly its count
                    new.append(n)
            if rank == 0:
                for k in range(world):
                    block = gathered[k].numpy()
                    for j, call in enumerate(round_calls[k * per_rank:(k + 1) * per_rank]):
                        _collect(buffers, unfinished, call, block[j * B:(j + 1) * B], M, B, N)
                finished_rows = []
                for n in new:
                    v, count = buffers.pop(n)
                    assert count == M
                    finished_rows.append((n,) + reduce_timestep(setup, n, v))
            unfinished.difference_update(new)
            finished += len(new)
            done_this_run += len(new)
            if rank == 0:
                try:
                    for n, mean, se in finished_rows:
                        results[n] = (mean, se)
                        log.write(f"{n} {mean!r} {se!r}\n")
                    log.flush()
                    os.fsync(log.fileno())
                except OSError as e:
                    raise FieldError("progress file", progress, f"cannot write it: "
                                     f"{e.strerror or e}; the timesteps finished before are "
                                     f"kept in it, rerun to resume") from None
                step = finished * 20 // N
                if step != reported and new:
                    reported = step
                    print(f"ms-eps: {finished}/{N} timesteps "
                          f"({time.monotonic() - started:.1f} s)", file=sys.stderr, flush=True)
            if target is not None and target not in unfinished and unfinished:
                if rank == 0:
                    print(f"ms-eps: stopped after {done_this_run} timesteps ({STOP_AFTER_ENV}"
                          f"={stop_after}); {finished}/{N} are in {progress}", file=sys.stderr,
                          flush=True)
                return EXIT_STOPPED
        if profile is not None:
            _report_profile(setup, args, device, dist, comm_device, rank, world,
                            len(remaining) * args.samples, time.monotonic() - started)
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
