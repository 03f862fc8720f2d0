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
        ref = os.path.join(self.tmp.name, "one.npy")
        code, err = run_cli(self.args(ref, 16))
        self.assertEqual(code, 0, err)

        two = os.path.join(self.tmp.name, "two.npy")
        log = self.torchrun(self.args(two, 5))
        self.assertIn(f"ms-eps: {N}/{N} timesteps", log)
        self.assertEqual(read_bytes(two), read_bytes(ref))
        self.assertEqual(read_bytes(stderr_of(two)), read_bytes(stderr_of(ref)))

        # Stopped with one rank after an odd count, finished with two.
        resumed = os.path.join(self.tmp.name, "resumed.npy")
        code, err = run_cli(self.args(resumed, 16), env={"DIFFUSCOPE_MS_EPS_STOP_AFTER": "11"})
        self.assertEqual(code, 3, err)
        log = self.torchrun(self.args(resumed, 3))
        self.assertIn(f"resuming, 11/{N} timesteps already done", log)
        self.assertEqual(read_bytes(resumed), read_bytes(ref))
        self.assertEqual(read_bytes(stderr_of(resumed)), read_bytes(stderr_of(ref)))
        self.assertFalse(os.path.exists(resumed + ".progress"))


if __name__ == "__main__":
    unittest.main()
