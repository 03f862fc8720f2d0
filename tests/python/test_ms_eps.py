"""ms-eps against a closed-form model, its prediction types, resuming and refused inputs."""
import json
import os
import tempfile
import unittest

import numpy as np
import torch

import support
from support import read_bytes, run_cli, save_closed_form, stderr_of

N = 50
DIM = 4
S2 = 0.49


class MsEpsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        cls.data = os.path.join(d, "x.npy")
        points = np.random.default_rng(1).normal(0.0, np.sqrt(S2), (20000, DIM))
        np.save(cls.data, points.astype(np.float32))
        # The exact ms_eps over this very data set: E‖ε*‖²/d = β̄(ᾱ q + β̄)/(ᾱ s² + β̄)².
        cls.q = float(np.mean(np.square(np.load(cls.data).astype(np.float64))))
        cls.models = {}
        for prediction in ("epsilon", "sample", "v_prediction"):
            for schedule in ("linear", "linear,zero-snr"):
                path = os.path.join(d, f"{prediction}-{schedule.replace(',', '-')}.pt")
                sched = save_closed_form(path, schedule, N, DIM, S2, prediction)
                if schedule == "linear":
                    cls.sched = sched
                cls.models[prediction, schedule] = path

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def out(self, name):
        return os.path.join(self.tmp.name, name)

    def run_ok(self, out, model=None, samples=1000, seed=7, extra=(), env=None):
        code, err = run_cli(["ms-eps", "--model", model or self.models["epsilon", "linear"],
                             "--data", self.data, "--samples", samples, "--seed", seed,
                             "--out", out, *extra], env=env)
        self.assertEqual(code, 0, err)
        return np.load(out), np.load(stderr_of(out))

    def exact(self):
        ab, bb = self.sched.alpha_bar, self.sched.beta_bar
        return bb * (ab * self.q + bb) / (ab * S2 + bb) ** 2

    def test_layout_and_files(self):
        out = self.out("layout.npy")
        est, se = self.run_ok(out, samples=20)
        for array in (est, se):
            self.assertEqual(array.dtype, np.float64)
            self.assertEqual(array.shape, (N + 1,))
            self.assertEqual(array[0], 0.0)
        self.assertTrue(np.all(se[1:] > 0))
        self.assertFalse(os.path.exists(out + ".progress"))
        self.assertFalse(any(name.endswith(".partial") for name in os.listdir(self.tmp.name)))

    def test_score_estimate_matches_closed_form(self):
        est, se = self.run_ok(self.out("score.npy"))
        exact = self.exact()
        z = (est[1:] - exact[1:]) / se[1:]
        self.assertLessEqual(np.max(np.abs(z)), 4.0, z)
        # All N together: Σ z² is about χ²_N.
        self.assertLess(np.sum(z * z), N + 5 * np.sqrt(2 * N))
        # The population value β̄/(ᾱ s² + β̄) too, the data set being large.
        ab, bb = self.sched.alpha_bar, self.sched.beta_bar
        paper = bb / (ab * S2 + bb)
        self.assertLessEqual(np.max(np.abs(est[1:] - paper[1:]) / se[1:]), 5.0)

    def test_error_estimator_matches_closed_form(self):
        # For the exact ε*, E⟨ε*, ε⟩ = E‖ε*‖², so 1 − ‖ε* − ε‖²/d has the same mean.
        est, se = self.run_ok(self.out("error.npy"), extra=("--estimator", "error"))
        z = (est[1:] - self.exact()[1:]) / se[1:]
        self.assertLessEqual(np.max(np.abs(z)), 4.0, z)

    def test_prediction_types_agree(self):
        for schedule in ("linear", "linear,zero-snr"):
            tag = schedule.replace(",", "-")
            ref, ref_se = self.run_ok(self.out(f"pe-{tag}.npy"), self.models["epsilon", schedule],
                                      samples=40)
            for prediction in ("sample", "v_prediction"):
                with self.subTest(schedule=schedule, prediction=prediction):
                    est, se = self.run_ok(self.out(f"p{prediction}-{tag}.npy"),
                                          self.models[prediction, schedule], samples=40)
                    np.testing.assert_allclose(est, ref, rtol=1e-5, atol=1e-7)
                    np.testing.assert_allclose(se, ref_se, rtol=1e-3, atol=1e-8)
            if schedule.endswith("zero-snr"):
                # ᾱ_N = 0: x_N = ε and ε* = x_N, so the last estimate is ‖ε‖²/d's mean.
                self.assertLess(abs(ref[N] - 1.0), 4 * ref_se[N] + 1e-12)

    def test_batch_size_changes_only_the_last_bits(self):
        # 30 draws a timestep: calls of 7 split timesteps, of 64 and 1000 mix several. The
        # draws are the same; the network's kernels may round a row differently in calls of
        # another shape (oneDNN picks them by shape and instruction set), so the estimates
        # agree to float32's rounding, not to the bit.
        ref, ref_se = self.run_ok(self.out("batch7.npy"), samples=30, extra=("--batch", "7"))
        for batch in (64, 1000, 30):
            with self.subTest(batch=batch):
                est, se = self.run_ok(self.out(f"batch{batch}.npy"), samples=30,
                                      extra=("--batch", str(batch)))
                np.testing.assert_allclose(est, ref, rtol=1e-5, atol=1e-9)
                np.testing.assert_allclose(se, ref_se, rtol=1e-3, atol=1e-9)

    def test_calls_hold_the_per_draw_generators(self):
        # Independent of the tool's batching: timestep n, draw m from Philox keyed (seed, n, m),
        # at slot g − call·batch of call g // batch, g = (n − 1)·samples + m.
        from diffuscope_torch.ms_eps import Setup, compute_calls, needed_calls
        ns, samples, seed, batch = [3, 17, 18, 40], 5, 7, 4
        calls = list(needed_calls(ns, samples, batch))
        wanted = sorted({((n - 1) * samples + m) // batch for n in ns for m in range(samples)})
        self.assertEqual(calls, wanted)
        data = np.load(self.data).astype(np.float64)
        ab = self.sched.alpha_bar
        sa, sb = np.sqrt(ab), np.sqrt(self.sched.beta_bar)

        class Args:
            model, data = self.models["epsilon", "linear"], self.data
            samples, seed, batch, threads = 5, 7, 4, 1
        values = compute_calls(Setup(Args), calls, samples, seed, "score", batch,
                               torch.device("cpu"))
        self.assertEqual(values.shape, (len(calls) * batch,))
        for j, call in enumerate(calls):
            for slot in range(batch):
                g = call * batch + slot
                n, m = g // samples + 1, g % samples
                rng = np.random.Generator(np.random.Philox(np.random.SeedSequence([seed, n, m])))
                x0 = data[int(rng.integers(len(data)))]
                x = (sa[n] * x0 + sb[n] * rng.standard_normal(DIM)).astype(np.float32)
                e = sb[n] * x.astype(np.float64) / (ab[n] * S2 + sb[n] ** 2)
                # The model computes ε* in float64 from the float32 x_n, then rounds to float32.
                self.assertAlmostEqual(values[j * batch + slot], np.sum(e * e) / DIM,
                                       delta=1e-6 * np.sum(e * e) / DIM)

    def test_drawing_threads_do_not_change_the_bytes(self):
        from unittest import mock
        ref = self.out("workers1.npy")
        with mock.patch("diffuscope_torch.ms_eps.draw_workers", return_value=1):
            self.run_ok(ref, samples=40, extra=("--batch", "200"))
        out = self.out("workers5.npy")
        with mock.patch("diffuscope_torch.ms_eps.draw_workers", return_value=5):
            self.run_ok(out, samples=40, extra=("--batch", "200"))
        self.assertEqual(read_bytes(out), read_bytes(ref))
        self.assertEqual(read_bytes(stderr_of(out)), read_bytes(stderr_of(ref)))

    def test_conditional_model_gives_its_unconditional_prediction(self):
        ref = self.out("uncond.npy")
        self.run_ok(ref, samples=20)
        model = self.out("cond.pt")
        support.save_conditional_closed_form(model, "linear", N, DIM, S2, num_conditions=3)
        out = self.out("cond.npy")
        self.run_ok(out, model=model, samples=20)
        self.assertEqual(read_bytes(out), read_bytes(ref))
        self.assertEqual(read_bytes(stderr_of(out)), read_bytes(stderr_of(ref)))

    def test_profile_prints_both_throughputs(self):
        out = self.out("profile.npy")
        code, err = run_cli(["ms-eps", "--model", self.models["epsilon", "linear"], "--data",
                             self.data, "--samples", 10, "--seed", 7, "--out", out,
                             "--batch", 64, "--profile"])
        self.assertEqual(code, 0, err)
        line = [x for x in err.splitlines() if x.startswith("ms-eps: profile:")]
        self.assertEqual(len(line), 1, err)
        self.assertRegex(line[0], r"network alone [0-9.]+ images/s .*batch 64.*whole run "
                                  r"[0-9.]+ images/s \(500 draws in ")

    def test_resume_gives_the_same_bytes(self):
        ref = self.out("resume-ref.npy")
        self.run_ok(ref, samples=12)
        out = self.out("resume.npy")
        code, err = run_cli(["ms-eps", "--model", self.models["epsilon", "linear"], "--data",
                             self.data, "--samples", 12, "--seed", 7, "--out", out],
                            env={"DIFFUSCOPE_MS_EPS_STOP_AFTER": "7"})
        self.assertEqual(code, 3, err)
        self.assertFalse(os.path.exists(out))
        with open(out + ".progress") as f:
            lines = f.read().splitlines()
        self.assertEqual(json.loads(lines[0])["seed"], 7)
        # Whole calls: the timesteps finished with the 7th are kept too.
        self.assertGreaterEqual(len(lines), 1 + 7)
        self.assertLess(len(lines), 1 + N)
        # A run killed while writing leaves a torn last line; it is dropped, not misread.
        with open(out + ".progress", "a") as f:
            f.write("8 0.12")
        # Another call size is refused (the last bits may depend on it); the same one resumes.
        code, err = run_cli(["ms-eps", "--model", self.models["epsilon", "linear"], "--data",
                             self.data, "--samples", 12, "--seed", 7, "--out", out,
                             "--batch", 5])
        self.assertEqual(code, 2, err)
        self.assertIn("different call size (--batch) (64 there, 5 now)", err)
        self.run_ok(out, samples=12)
        self.assertEqual(read_bytes(out), read_bytes(ref))
        self.assertEqual(read_bytes(stderr_of(out)), read_bytes(stderr_of(ref)))
        self.assertFalse(os.path.exists(out + ".progress"))

    def test_mismatching_progress_is_refused(self):
        out = self.out("mismatch.npy")
        args = ["ms-eps", "--model", self.models["epsilon", "linear"], "--data", self.data,
                "--samples", 12, "--seed", 7, "--out", out]
        code, _ = run_cli(args, env={"DIFFUSCOPE_MS_EPS_STOP_AFTER": "3"})
        self.assertEqual(code, 3)
        before = read_bytes(out + ".progress")
        for option, value, field in (("--seed", "8", "seed"), ("--samples", "13", "samples"),
                                     ("--model", self.models["sample", "linear"], "model"),
                                     ("--estimator", "error", "estimator"),
                                     ("--threads", "2", "intra-op thread count (--threads)"),
                                     ("--batch", "5", "call size (--batch)")):
            with self.subTest(field=field):
                changed = list(args) + [option, value]
                code, err = run_cli(changed)
                self.assertEqual(code, 2, err)
                self.assertEqual(len(err.strip().splitlines()), 1, err)
                self.assertIn("progress file", err)
                self.assertIn(f"different {field}", err)
                self.assertEqual(read_bytes(out + ".progress"), before)


class MsEpsErrorsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        cls.model = os.path.join(d, "m.pt")
        save_closed_form(cls.model, "cosine", 10, 3, 1.0)
        cls.data = os.path.join(d, "x.npy")
        np.save(cls.data, np.zeros((5, 3), dtype=np.float32))
        cls.wrong_shape = os.path.join(d, "x4.npy")
        np.save(cls.wrong_shape, np.zeros((5, 4), dtype=np.float32))
        cls.junk = os.path.join(d, "junk.pt")
        with open(cls.junk, "wb") as f:
            f.write(b"not an archive")
        cls.plain = os.path.join(d, "plain.pt")  # TorchScript without the contract
        torch.jit.save(torch.jit.script(torch.nn.Identity()), cls.plain)

        class Categorical(torch.nn.Module):
            def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
                return torch.zeros(x.shape[0], x.shape[1], 2)

        cls.categorical = os.path.join(d, "cat.pt")
        support.contract.save(torch.jit.script(Categorical()), cls.categorical,
                              process="categorical", schedule="linear", num_steps=10, shape=[3],
                              num_classes=2)
        cls.conditional = os.path.join(d, "cond.pt")
        module = torch.jit.script(support.ClosedFormGaussian(np.ones(11), np.ones(11), 1.0,
                                                             "epsilon"))
        support.contract.save(module, cls.conditional, process="gaussian", schedule="cosine",
                              num_steps=10, shape=[3], num_conditions=4)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def refused(self, *, model=None, data=None, samples=10, extra=()):
        out = os.path.join(self.tmp.name, "out.npy")
        code, err = run_cli(["ms-eps", "--model", model or self.model, "--data",
                             data or self.data, "--samples", samples, "--seed", 1, "--out", out,
                             *extra])
        self.assertEqual(code, 2, err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertFalse(os.path.exists(out))
        return err

    def test_missing_files(self):
        missing = os.path.join(self.tmp.name, "nope.pt")
        err = self.refused(model=missing)
        self.assertIn("--model", err)
        self.assertIn(missing, err)
        err = self.refused(data=missing)
        self.assertIn("--data", err)
        self.assertIn(missing, err)

    def test_not_a_contract_archive(self):
        for path in (self.junk, self.plain):
            err = self.refused(model=path)
            self.assertIn("--model", err)
            self.assertIn(path, err)

    def test_data_shape(self):
        err = self.refused(data=self.wrong_shape)
        self.assertIn("shape", err)
        self.assertIn("[3]", err)
        self.assertIn("[4]", err)

    def test_categorical_and_conditional(self):
        err = self.refused(model=self.categorical)
        self.assertIn("process", err)
        self.assertIn("categorical", err)
        err = self.refused(model=self.conditional)
        self.assertIn("num_conditions: 4", err)

    def test_samples(self):
        err = self.refused(samples=1)
        self.assertIn("--samples: 1", err)

    def test_exit_code_from_the_command_line(self):
        import subprocess
        import sys
        missing = os.path.join(self.tmp.name, "nope.pt")
        r = subprocess.run([sys.executable, "-m", "diffuscope_torch", "ms-eps", "--model",
                            missing, "--data", self.data, "--samples", "4", "--seed", "1",
                            "--out", os.path.join(self.tmp.name, "o.npy")],
                           env=support.subprocess_env(), capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stderr.strip(), f"diffuscope_torch ms-eps: --model: {missing}: "
                                           f"no such file")


if __name__ == "__main__":
    unittest.main()
