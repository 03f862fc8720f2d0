"""ms-eps: Monte-Carlo estimate of Γ_n = E‖ε_θ(x_n, n)‖²/d (Analytic-DPM's ms_eps) for a
Gaussian contract model, n = 1..N.

Reproducibility: draw m of timestep n (data index, then ε) comes from its own generator keyed by
(seed, n, m), and each timestep is computed whole by one rank, so the numbers do not depend on
the number of ranks, on the order timesteps are finished in, or on resuming. --batch only
decides how many draws go through the network at once.
"""
import argparse
import hashlib
import io
import json
import math
import os
import sys
import time

import numpy as np
import torch

from . import contract as contract_io
from .files import fsync_dir, write_atomic
from .errors import FieldError
from .schedules import ScheduleError, gaussian_schedule

PROGRESS_FORMAT = "diffuscope ms-eps progress 1"
ESTIMATORS = ("score", "error")
# Test hook: stop (exit code 3) once this many timesteps were finished in this run.
STOP_AFTER_ENV = "DIFFUSCOPE_MS_EPS_STOP_AFTER"
EXIT_STOPPED = 3


def stderr_path(out):
    base = out[:-4] if out.endswith(".npy") else out
    return base + ".stderr.npy"


def progress_path(out):
    return out + ".progress"


def build_parser(prog="ms-eps"):
    p = argparse.ArgumentParser(
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
    p.add_argument("--samples", required=True, type=int, help="draws per timestep (≥ 2)")
    p.add_argument("--seed", required=True, type=int, help="seed (≥ 0) keying every draw")
    p.add_argument("--out", required=True, help="output NPY file")
    p.add_argument("--estimator", choices=ESTIMATORS, default="score",
                   help="score: ‖ε_θ‖²/d (Analytic-DPM's, default); "
                        "error: 1 − ‖ε_θ − ε‖²/d")
    p.add_argument("--batch", type=int, default=64, help="draws per network call (default 64)")
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
    """Everything validated before any work: the model, its contract, schedule and data."""

    def __init__(self, args):
        if args.samples < 2:
            raise FieldError("--samples", args.samples, "needs at least 2 (for a standard error)")
        if args.seed < 0:
            raise FieldError("--seed", args.seed, "must be ≥ 0")
        if args.batch < 1:
            raise FieldError("--batch", args.batch, "must be ≥ 1")
        if not os.path.isfile(args.model):
            raise FieldError("--model", args.model, "no such file")
        try:
            self.module, self.contract = contract_io.load(args.model)
        except Exception as e:  # torch reports a non-archive in many ways
            raise FieldError("--model", args.model, "not a Diffuscope TorchScript contract "
                             f"archive ({str(e).splitlines()[0] if str(e) else type(e).__name__})"
                             ) from None
        c = self.contract
        process = c.get("process")
        if process != "gaussian":
            raise FieldError("process", process, "ms-eps needs a Gaussian model (ε, x₀ or v "
                             "prediction); categorical models have no ms_eps")
        if int(c.get("num_conditions", 0)) != 0:
            raise FieldError("num_conditions", c.get("num_conditions"),
                             "conditional models are not supported yet (need 0)")
        self.prediction = c.get("prediction", "epsilon")
        if self.prediction not in contract_io.PREDICTIONS:
            raise FieldError("prediction", self.prediction,
                             f"not one of {', '.join(contract_io.PREDICTIONS)}")
        try:
            self.num_steps = int(c["num_steps"])
            self.shape = tuple(int(s) for s in c["shape"])
        except (KeyError, TypeError, ValueError) as e:
            raise FieldError("--model", args.model, f"contract lacks a valid {e}") from None
        try:
            self.schedule = gaussian_schedule(c.get("schedule", ""), self.num_steps)
        except ScheduleError as e:
            raise FieldError(e.field, e.value, e.reason) from None

        if not os.path.isfile(args.data):
            raise FieldError("--data", args.data, "no such file")
        try:
            # Memory-mapped: every rank reads the same pages.
            self.data = np.load(args.data, mmap_mode="r", allow_pickle=False)
        except Exception as e:
            raise FieldError("--data", args.data, f"not an NPY array ({e})") from None
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


def estimate_timestep(setup, n, samples, seed, estimator, batch, device):
    """(mean, standard error) of the estimator at timestep n over `samples` draws."""
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
        for i, m in enumerate(range(start, stop)):
            rng = np.random.Generator(np.random.Philox(np.random.SeedSequence([seed, n, m])))
            x0[i] = setup.data[int(rng.integers(count))].reshape(-1)
            eps[i] = rng.standard_normal(d)
        x32 = (sa * x0 + sb * eps).astype(np.float32)
        x = torch.from_numpy(x32).reshape((b,) + setup.shape).to(device)
        t = torch.full((b,), n - 1, dtype=torch.int64, device=device)
        with torch.no_grad():
            out = setup.module(x, t)
        if not isinstance(out, torch.Tensor) or tuple(out.shape) != (b,) + setup.shape:
            raise FieldError("--model", "output", f"expected a tensor of shape "
                             f"{[b] + list(setup.shape)}, got "
                             f"{list(out.shape) if isinstance(out, torch.Tensor) else type(out)}")
        out = out.detach().to("cpu", torch.float64).numpy().reshape(b, d)
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
    return float(values.mean()), float(values.std(ddof=1) / math.sqrt(samples))


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


def open_progress(path, header):
    """Finished results {n: (mean, stderr)} from an earlier run's progress file (refusing one
    written for other inputs), and the file opened for appending."""
    results = {}
    if os.path.exists(path):
        with open(path, "r", encoding="utf-8") as f:
            lines = f.read().split("\n")
        try:
            old = json.loads(lines[0])
            if old.get("format") != PROGRESS_FORMAT:
                raise ValueError
        except ValueError:
            raise FieldError("progress file", path, "not an ms-eps progress file; remove it or "
                             "choose another --out") from None
        differ = [f"{name} ({old.get(key)!r} there, {header[key]!r} now)"
                  for key, name in _COMPARED if old.get(key) != header[key]]
        if differ:
            raise FieldError("progress file", path, "written for a different " +
                             "; ".join(differ) + "; remove it to start afresh")
        # Only whole lines count: a run killed mid-write leaves the last one unfinished.
        for line in lines[1:-1]:
            parts = line.split()
            try:
                n, mean, se = int(parts[0]), float(parts[1]), float(parts[2])
            except (IndexError, ValueError):
                continue
            if len(parts) == 3 and 1 <= n <= header["num_steps"]:
                results[n] = (mean, se)
    # Rewritten whole, so appends never continue a torn line.
    text = json.dumps(header) + "\n" + "".join(
        f"{n} {results[n][0]!r} {results[n][1]!r}\n" for n in sorted(results))
    write_atomic(path, text.encode("utf-8"))
    return results, open(path, "a", encoding="utf-8")


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
    try:
        # Rank 0 reads the progress file and tells the others which timesteps are done.
        error = None
        done = torch.zeros(N + 2, dtype=torch.int64)
        results = {}
        if rank == 0:
            try:
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
            if index < len(remaining):
                n = remaining[index]
                mean, se = estimate_timestep(setup, n, args.samples, args.seed, args.estimator,
                                             args.batch, device)
                row = torch.tensor([float(n), mean, se], dtype=torch.float64)
            if dist is not None:
                rows = [torch.zeros(3, dtype=torch.float64, device=comm_device)
                        for _ in range(world)]
                dist.all_gather(rows, row.to(comm_device))
                rows = [r.cpu() for r in rows]
            else:
                rows = [row]
            new = sorted((int(r[0]), float(r[1]), float(r[2])) for r in rows if r[0] > 0)
            finished += len(new)
            if rank == 0:
                for n, mean, se in new:
                    results[n] = (mean, se)
                    log.write(f"{n} {mean!r} {se!r}\n")
                log.flush()
                os.fsync(log.fileno())
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
            write_atomic(stderr_path(out_path), _npy_bytes(stderr))
            write_atomic(out_path, _npy_bytes(ms_eps))
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
    except FieldError as e:
        if rank == 0:
            print(f"{prog}: {e}", file=sys.stderr, flush=True)
        return 2
