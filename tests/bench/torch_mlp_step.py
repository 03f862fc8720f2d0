#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Training throughput of the bench_mlp networks in PyTorch, for comparison with our Eigen MLP.

Builds, in PyTorch, the two networks that tests/bench/bench_mlp.cpp trains with core/model
(the same architecture as core/model/mlp.h, same tensor names and shapes, so the parameter
counts match exactly; the script checks them against the shape table of docs/research.md):

  categorical digits   D = 64, K = 4 (one-hot inputs, D*K logits), width 256, depth 3,
                       10 labels with a 32-entry condition embedding, batch 128
  Gaussian 2-D         d = 2 (epsilon-prediction), width 128, depth 3, batch 256

and times one full float32 training step as core/model/trainer.cpp does it:

  draw the mini-batch from synthetic data (categorical: x_t kept with probability 1 - beta(t)
  under the cosine beta curve, else drawn from a uniform pi; Gaussian: linear DDPM schedule,
  N = 1000), forward, loss (cross-entropy summed over positions / epsilon-MSE over d, mean over
  the batch), backward, AdamW (lr 1e-3 with cosine decay, betas 0.9/0.999, eps 1e-8, no weight
  decay), and the EMA update of every weight (decay min(0.999, (1 + s)/(10 + s))).

Reported: training examples per second (batch * steps / wall time) with torch.set_num_threads(1)
and (2), the median over --reps repetitions of --steps steps each, after --warmup steps. Our
figure for the same thing is bench_mlp's samples/s counter.

Run with Debian's Python, which sees Debian's python3-torch:

  /usr/bin/python3 tests/bench/torch_mlp_step.py            # both networks, 1 and 2 threads
  /usr/bin/python3 tests/bench/torch_mlp_step.py --threads 1 --reps 5 --steps 50

Debian's torch calls the libblas.so.3 alternative for its float32 matrix products; with only
libblas3 installed that is the (slow, single-threaded) reference BLAS. To measure torch on
OpenBLAS without changing the system, unpack Debian's libopenblas0-pthread and put its
openblas-pthread directory first:
  LD_LIBRARY_PATH=/path/usr/lib/x86_64-linux-gnu/openblas-pthread /usr/bin/python3 tests/bench/torch_mlp_step.py
The first line of the output names the BLAS that was loaded. With OpenBLAS's pthread pool
beside torch's OpenMP threads, add OMP_WAIT_POLICY=PASSIVE for the 2-thread figure: otherwise
the spinning OpenMP workers and OpenBLAS's threads fight over the 2 cores (3-4x slower).
"""

import argparse
import math
import os
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    """x + linear2(act(linear1(act(x)))) (no layer norm, as bench_mlp)."""

    def __init__(self, width):
        super().__init__()
        self.linear1 = nn.Linear(width, width)
        self.linear2 = nn.Linear(width, width)

    def forward(self, h):
        return h + self.linear2(F.silu(self.linear1(F.silu(h))))


class Mlp(nn.Module):
    """core/model/mlp.h: z = [x; temb(s*t); cond_emb[c]], input layer, blocks, act, output layer."""

    def __init__(self, inputs, outputs, width, depth, time_embedding=32, time_scale=1000.0,
                 num_conditions=0, condition_embedding=32):
        super().__init__()
        # Attribute order = state_dict order = the layout of mlp.h.
        if num_conditions > 0:
            # Row num_conditions is "no condition"; nn.Embedding initialises N(0, 1), as ours.
            self.condition_embedding = nn.Embedding(num_conditions + 1, condition_embedding)
        ce = condition_embedding if num_conditions > 0 else 0
        self.input = nn.Linear(inputs + time_embedding + ce, width)
        self.blocks = nn.ModuleList([Block(width) for _ in range(depth)])
        self.output = nn.Linear(width, outputs)
        half = time_embedding // 2
        omega = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float64) / half)
        self.register_buffer("omega", (time_scale * omega).float(), persistent=False)
        self.num_conditions = num_conditions

    def forward(self, x, t, c=None):
        arg = t[:, None] * self.omega[None, :]
        parts = [x, torch.sin(arg), torch.cos(arg)]
        if self.num_conditions > 0:
            parts.append(self.condition_embedding(c))
        h = self.input(torch.cat(parts, dim=1))
        for block in self.blocks:
            h = block(h)
        return self.output(F.silu(h))


def expected_shapes(inputs, outputs, width, depth, time_embedding=32, num_conditions=0,
                    condition_embedding=32):
    """The tensor table of docs/research.md ("Trained denoisers"), without layer norm."""
    shapes = []
    ce = condition_embedding if num_conditions > 0 else 0
    if num_conditions > 0:
        shapes.append(("condition_embedding.weight", (num_conditions + 1, condition_embedding)))
    shapes.append(("input.weight", (width, inputs + time_embedding + ce)))
    shapes.append(("input.bias", (width,)))
    for b in range(depth):
        for layer in ("linear1", "linear2"):
            shapes.append((f"blocks.{b}.{layer}.weight", (width, width)))
            shapes.append((f"blocks.{b}.{layer}.bias", (width,)))
    shapes.append(("output.weight", (outputs, width)))
    shapes.append(("output.bias", (outputs,)))
    return shapes


def cosine_beta(t):
    """schedule::cosineCurve(): beta(t) = 1 - f(t)/f(0), f(u) = cos((u + s)/(1 + s) * pi/2)^2."""
    s = 0.008
    f = lambda u: torch.cos((u + s) / (1.0 + s) * (math.pi / 2.0)) ** 2
    return (1.0 - f(t) / f(torch.zeros_like(t))).clamp(0.0, 1.0)


class CategoricalDigits:
    """bench_mlp's BM_TrainCategoricalDigits: 1000 random rows of D = 64 classes, label m % 10."""

    name = "categorical digits (D=64, K=4, width 256, depth 3, 10 labels, batch 128)"

    def __init__(self, gen):
        self.d, self.k, self.batch, self.labels = 64, 4, 128, 10
        self.rows = torch.randint(0, self.k, (1000, self.d), generator=gen)
        self.row_labels = torch.arange(1000) % self.labels
        self.gen = gen
        self.arch = dict(inputs=self.d * self.k, outputs=self.d * self.k, width=256, depth=3,
                         time_embedding=32, num_conditions=self.labels, condition_embedding=32)

    def loss(self, net):
        b, d, k, g = self.batch, self.d, self.k, self.gen
        m = torch.randint(0, self.rows.shape[0], (b,), generator=g)
        x0 = self.rows[m]
        t = torch.rand(b, generator=g)
        resample = torch.rand(b, d, generator=g) < cosine_beta(t)[:, None]
        xt = torch.where(resample, torch.randint(0, k, (b, d), generator=g), x0)  # pi uniform
        x = F.one_hot(xt, k).to(torch.float32).reshape(b, d * k)  # position p, class c at p*K + c
        logits = net(x, t, self.row_labels[m])
        # Sum over positions of -log F(x0 | x_t), mean over the batch (trainer.cpp).
        return F.cross_entropy(logits.reshape(b * d, k), x0.reshape(-1), reduction="sum") / b


class Gaussian2D:
    """bench_mlp's BM_TrainGaussian2D: 1000 standard normal points in 2-D, linear schedule."""

    name = "Gaussian 2-D eps-MLP (width 128, depth 3, batch 256)"

    def __init__(self, gen):
        self.batch, self.n = 256, 1000
        self.data = torch.randn(1000, 2, generator=gen)
        betas = torch.linspace(1e-4, 0.02, self.n, dtype=torch.float64)
        self.alpha_bar = torch.cat([torch.ones(1, dtype=torch.float64), torch.cumprod(1.0 - betas, 0)])
        self.gen = gen
        self.arch = dict(inputs=2, outputs=2, width=128, depth=3, time_embedding=32)

    def loss(self, net):
        b, g = self.batch, self.gen
        m = torch.randint(0, self.data.shape[0], (b,), generator=g)
        n = torch.randint(1, self.n + 1, (b,), generator=g)
        ab = self.alpha_bar[n].to(torch.float32)[:, None]
        eps = torch.randn(b, 2, generator=g)
        x = ab.sqrt() * self.data[m] + (1.0 - ab).sqrt() * eps
        out = net(x, n.to(torch.float32) / self.n)
        return F.mse_loss(out, eps)  # ||eps - eps_theta||^2 / d, mean over the batch


class Trainer:
    """One optimiser step as runTraining in core/model/trainer.cpp."""

    def __init__(self, problem, total_steps, foreach):
        self.problem = problem
        self.net = Mlp(**problem.arch)
        self.params = list(self.net.parameters())
        self.ema = [p.detach().clone() for p in self.params]
        self.opt = torch.optim.AdamW(self.params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
                                     weight_decay=0.0, foreach=foreach)
        self.total_steps = total_steps
        self.step_index = 0

    def step(self):
        s = self.step_index
        lr = 1e-3 * 0.5 * (1.0 + math.cos(math.pi * min(1.0, s / max(1, self.total_steps))))
        for group in self.opt.param_groups:
            group["lr"] = lr
        self.opt.zero_grad(set_to_none=True)
        loss = self.problem.loss(self.net)
        loss.backward()
        self.opt.step()
        keep = min(0.999, (1.0 + s) / (10.0 + s))
        with torch.no_grad():
            torch._foreach_mul_(self.ema, keep)
            torch._foreach_add_(self.ema, self.params, alpha=1.0 - keep)
        self.step_index += 1
        return loss


def loaded_libraries(word):
    """Real paths of the shared libraries mapped into this process whose path contains word."""
    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if word in line.lower() and "/" in line}
        return sorted({os.path.realpath(p) for p in paths})
    except OSError:
        return []


def set_threads(n):
    torch.set_num_threads(n)
    # OpenBLAS keeps its own thread pool: set it too when OpenBLAS is the loaded BLAS (Debian's
    # default libblas.so.3 alternative, the reference BLAS, is single-threaded).
    import ctypes
    for path in loaded_libraries("openblas"):
        try:
            ctypes.CDLL(path).openblas_set_num_threads(ctypes.c_int(n))
        except (OSError, AttributeError):
            pass


def bench(problem_cls, threads, args):
    set_threads(threads)
    torch.manual_seed(1)
    gen = torch.Generator().manual_seed(1)
    problem = problem_cls(gen)
    trainer = Trainer(problem, args.warmup + args.reps * args.steps, args.foreach)
    for _ in range(args.warmup):
        trainer.step()
    rates = []
    for _ in range(args.reps):
        start = time.perf_counter()
        for _ in range(args.steps):
            loss = trainer.step()
        elapsed = time.perf_counter() - start
        rates.append(problem.batch * args.steps / elapsed)
    if not math.isfinite(float(loss)):
        sys.exit("non-finite loss")
    return rates


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--warmup", type=int, default=20, help="untimed steps first")
    parser.add_argument("--steps", type=int, default=40, help="steps per timed repetition")
    parser.add_argument("--reps", type=int, default=7, help="timed repetitions (median reported)")
    parser.add_argument("--foreach", action="store_true",
                        help="AdamW(foreach=True) instead of the default per-tensor loop")
    args = parser.parse_args()

    blas = ", ".join(p for p in loaded_libraries("blas") if "lapack" not in p) or "none found"
    print(f"torch {torch.__version__}, float32, BLAS loaded: {blas}")
    print(f"AdamW foreach={args.foreach}; {args.warmup} warm-up steps, median of {args.reps} x "
          f"{args.steps} steps")
    ok = True
    for problem_cls in (CategoricalDigits, Gaussian2D):
        problem = problem_cls(torch.Generator().manual_seed(1))
        net = Mlp(**problem.arch)
        got = [(name, tuple(p.shape)) for name, p in net.named_parameters()]
        want = expected_shapes(**{k: v for k, v in problem.arch.items()})
        n_torch = sum(p.numel() for p in net.parameters())
        n_ours = sum(math.prod(shape) for _, shape in want)
        same = got == want and n_torch == n_ours
        ok = ok and same
        print(f"\n{problem.name}")
        print(f"  parameters: torch {n_torch}, ours (docs/research.md shapes) {n_ours}: "
              f"{'equal, same names and shapes' if same else 'MISMATCH'}")
        for threads in args.threads:
            rates = bench(problem_cls, threads, args)
            print(f"  {threads} thread{'s' if threads > 1 else ' '}: median {statistics.median(rates):10.0f} "
                  f"samples/s  (min {min(rates):.0f}, max {max(rates):.0f})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
