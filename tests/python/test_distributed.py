"""ms-eps under torchrun: 1 and 2 ranks, fresh and resumed, write the same bytes."""
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import support
from support import read_bytes, run_cli, save_closed_form, stderr_of

N = 50


def torchrun_stream_options():
    """torch 1.13's launcher on Python ≥ 3.11 cannot parse its own default "--redirects 0
    --tee 0" (Std.NONE is no longer among the flag's members); stderr tee'd works there."""
    from torch.distributed.elastic.multiprocessing.api import Std
    return ["--redirects", "2", "--tee", "2"] if Std.from_str("0") is None else []


def progress_lines(out):
    """Timesteps recorded in OUT.progress."""
    with open(out + ".progress") as f:
        return len(f.read().splitlines()) - 1


class DistributedTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        cls.model = os.path.join(d, "m.pt")
        save_closed_form(cls.model, "linear", N, 3, 0.5, "v_prediction")
        cls.data = os.path.join(d, "x.npy")
        np.save(cls.data, np.random.default_rng(3).normal(0, 0.7, (500, 3)))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def args(self, out, batch):
        return ["ms-eps", "--model", self.model, "--data", self.data, "--samples", "20",
                "--seed", "11", "--out", out, "--batch", str(batch), "--device", "cpu"]

    def torchrun(self, args):
        r = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone",
                            # The launcher looks at its workers every monitor interval (5 s).
                            "--nproc_per_node=2", "--monitor_interval", "0.2",
                            *torchrun_stream_options(), "-m",
                            "diffuscope_torch", *args],
                           env=support.subprocess_env(), capture_output=True, text=True,
                           timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stderr

    def test_one_and_two_ranks_write_the_same_bytes(self):
        # The same --batch: the calls are the same slices of draws whatever the rank count.
        ref = os.path.join(self.tmp.name, "one.npy")
        code, err = run_cli(self.args(ref, 5))
        self.assertEqual(code, 0, err)

        two = os.path.join(self.tmp.name, "two.npy")
        log = self.torchrun(self.args(two, 5))
        self.assertIn(f"ms-eps: {N}/{N} timesteps", log)
        self.assertEqual(read_bytes(two), read_bytes(ref))
        self.assertEqual(read_bytes(stderr_of(two)), read_bytes(stderr_of(ref)))

        # Stopped with one rank after an odd count, finished with two.
        resumed = os.path.join(self.tmp.name, "resumed.npy")
        code, err = run_cli(self.args(resumed, 5), env={"DIFFUSCOPE_MS_EPS_STOP_AFTER": "11"})
        self.assertEqual(code, 3, err)
        done = progress_lines(resumed)
        self.assertGreaterEqual(done, 11)
        log = self.torchrun(self.args(resumed, 5))
        self.assertIn(f"resuming, {done}/{N} timesteps already done", log)
        self.assertEqual(read_bytes(resumed), read_bytes(ref))
        self.assertEqual(read_bytes(stderr_of(resumed)), read_bytes(stderr_of(ref)))
        self.assertFalse(os.path.exists(resumed + ".progress"))


class LauncherTest(unittest.TestCase):
    """`python3 -m diffuscope_torch run --nproc N ms-eps …` with a convolutional network, whose
    last bits depend on the intra-op thread count and, through the kernels oneDNN picks for the
    call's shape and the CPU, on --batch: --threads and --batch fix them, so one rank started
    with OMP_NUM_THREADS=2 and two ranks write the same bytes, fresh and resumed; another
    --batch agrees to float32's rounding."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        import torch
        from diffuscope_torch.export import export_model
        from fake_unet import FakeUNet2DModel
        torch.manual_seed(0)
        cls.model = os.path.join(d, "unet.pt")
        export_model(FakeUNet2DModel(hidden=16), cls.model, prediction="epsilon",
                     schedule="linear", num_steps=40, shape=[1, 8, 8])
        cls.data = os.path.join(d, "x.npy")
        np.save(cls.data, np.random.default_rng(5).uniform(-1, 1, (300, 1, 8, 8)))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def args(self, out, batch, threads=None):
        return ["ms-eps", "--model", self.model, "--data", self.data, "--samples", "10",
                "--seed", "3", "--out", out, "--batch", str(batch), "--device", "cpu",
                *(["--threads", str(threads)] if threads else [])]

    def launch(self, nproc, args, omp, code=0, env_extra=None):
        env = support.subprocess_env()
        env["OMP_NUM_THREADS"] = str(omp)
        env.update(env_extra or {})
        r = subprocess.run([sys.executable, "-m", "diffuscope_torch", "run", "--nproc",
                            str(nproc), *args], env=env, capture_output=True, text=True,
                           timeout=120)
        self.assertEqual(r.returncode, code, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        return r.stderr

    def test_one_and_two_ranks_any_thread_environment(self):
        ref = os.path.join(self.tmp.name, "one.npy")
        self.launch(1, self.args(ref, 7), omp=2)
        two = os.path.join(self.tmp.name, "two.npy")
        log = self.launch(2, self.args(two, 7), omp=1)
        self.assertIn("ms-eps: 40/40 timesteps", log)
        self.assertEqual(read_bytes(two), read_bytes(ref))
        self.assertEqual(read_bytes(stderr_of(two)), read_bytes(stderr_of(ref)))
        # Another call size: equal to float32's rounding, not promised to the bit.
        other = os.path.join(self.tmp.name, "other.npy")
        self.launch(2, self.args(other, 64), omp=1)
        np.testing.assert_allclose(np.load(other), np.load(ref), rtol=1e-5, atol=1e-9)

        # Interrupted with two ranks, resumed with one.
        resumed = os.path.join(self.tmp.name, "resumed.npy")
        self.launch(2, self.args(resumed, 7), omp=1, code=3,
                    env_extra={"DIFFUSCOPE_MS_EPS_STOP_AFTER": "9"})
        err = self.launch(1, self.args(resumed, 7, threads=2), omp=1, code=2)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn("different intra-op thread count (--threads) (1 there, 2 now)", err)
        err = self.launch(1, self.args(resumed, 1000), omp=1, code=2)
        self.assertIn("different call size (--batch) (7 there, 1000 now)", err)
        done = progress_lines(resumed)
        self.assertGreaterEqual(done, 9)
        log = self.launch(1, self.args(resumed, 7), omp=2)
        self.assertIn(f"resuming, {done}/40 timesteps already done", log)
        self.assertEqual(read_bytes(resumed), read_bytes(ref))
        self.assertEqual(read_bytes(stderr_of(resumed)), read_bytes(stderr_of(ref)))

    def test_two_intra_op_threads_one_and_two_ranks(self):
        one = os.path.join(self.tmp.name, "t2-one.npy")
        self.launch(1, self.args(one, 64, threads=2), omp=1)
        two = os.path.join(self.tmp.name, "t2-two.npy")
        self.launch(2, self.args(two, 64, threads=2), omp=3)
        self.assertEqual(read_bytes(two), read_bytes(one))
        self.assertEqual(read_bytes(stderr_of(two)), read_bytes(stderr_of(one)))

    def test_digits_unet_thread_count_is_fixed(self):
        # The bundled U-Net's convolutions round differently on 3 intra-op threads than on 1
        # here; --threads 3 on one rank and on two gives the same bytes all the same.
        model = os.path.join(support.PYTHON_DIR, "..", "resources", "models", "digits-unet.pt")
        if not os.path.exists(model):
            self.skipTest("no bundled digits U-Net")
        data = os.path.join(self.tmp.name, "digits.npy")
        np.save(data, np.random.default_rng(6).uniform(-1, 1, (200, 1, 8, 8)))

        def args(out, threads):
            return ["ms-eps", "--model", model, "--data", data, "--samples", "2", "--seed", "4",
                    "--out", out, "--batch", "64", "--device", "cpu", "--threads", str(threads)]

        one = os.path.join(self.tmp.name, "d-one.npy")
        self.launch(1, args(one, 3), omp=1)
        two = os.path.join(self.tmp.name, "d-two.npy")
        self.launch(2, args(two, 3), omp=1)
        self.assertEqual(read_bytes(two), read_bytes(one))
        self.assertEqual(read_bytes(stderr_of(two)), read_bytes(stderr_of(one)))
        # The control: where the network's output depends on the thread count, so do the bytes.
        import torch
        net = torch.jit.load(model)
        x = torch.from_numpy(np.random.default_rng(0).normal(size=(64, 1, 8, 8))).float()
        t = torch.arange(64) * 15
        saved = torch.get_num_threads()
        try:
            torch.set_num_threads(1)
            a = net(x, t)
            torch.set_num_threads(3)
            b = net(x, t)
        finally:
            torch.set_num_threads(saved)
        if torch.equal(a, b):
            return  # this machine's kernels do not depend on it: no control
        single = os.path.join(self.tmp.name, "d-single.npy")
        self.launch(1, args(single, 1), omp=1)
        self.assertNotEqual(read_bytes(single), read_bytes(one))

    def test_refused_input_is_one_line_from_the_launcher(self):
        missing = os.path.join(self.tmp.name, "nope.npy")
        args = self.args(os.path.join(self.tmp.name, "o.npy"), 8)
        args[args.index("--data") + 1] = missing
        err = self.launch(2, args, omp=1, code=2)
        self.assertEqual(err.strip(), f"diffuscope_torch ms-eps: --data: {missing}: no such file")

    def test_more_ranks_than_gpus_names_device(self):
        from diffuscope_torch.errors import FieldError
        from diffuscope_torch.ms_eps import check_gpus
        check_gpus("cuda", 1, 1)
        with self.assertRaises(FieldError) as caught:
            check_gpus("cuda", 2, 1)
        self.assertEqual(str(caught.exception), "--device: cuda: 2 ranks on this machine but 1 "
                                                "GPU; use at most 1 rank or --device cpu")
        import torch
        if not torch.cuda.is_available():
            env = support.subprocess_env()
            r = subprocess.run([sys.executable, "-m", "diffuscope_torch", "run", "--nproc", "2",
                                *self.args(os.path.join(self.tmp.name, "g.npy"), 8)[:-2],
                                "--device", "cuda"], env=env, capture_output=True, text=True,
                               timeout=120)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertEqual(r.stderr.strip(), "diffuscope_torch ms-eps: --device: cuda: CUDA is "
                                               "not available on this machine")


if __name__ == "__main__":
    unittest.main()
