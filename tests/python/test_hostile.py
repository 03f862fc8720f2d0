"""Hostile input ("The Python tool is a program, not a script"): every refusal is one line on
stderr and exit code 2, naming the option or field and the value; outputs are checked before
the work; a refused or failed run loses nothing and leaves nothing behind; numbers are as strict
as the app's (core/model/torch_contract.cpp, core/util/limits.h); sizes are checked before
anything is allocated; special files (FIFOs, devices, folders) are refused, never read or
replaced."""
import errno
import json
import os
import signal
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

import numpy as np
import torch

import support
import test_sample
from support import read_bytes, run_cli, save_closed_form, stderr_of

N = 10
DIM = 3


class NanModel(torch.nn.Module):
    def __init__(self, value: float):
        super().__init__()
        self.value = value

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return x * self.value


def snapshot(folder):
    """{relative path: bytes or kind} of everything under `folder`."""
    found = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, folder)
            if os.path.islink(path):
                found[rel] = "link -> " + os.readlink(path)
            elif os.path.isfile(path):
                found[rel] = read_bytes(path)
            else:
                found[rel] = "special"
    return found


class Hostile(unittest.TestCase):
    """Shared files: a model, data, special files; refused() runs a command and checks the
    line, the exit code and that the folder is exactly as it was."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = cls.tmp.name
        cls.model = cls.path("m.pt")
        save_closed_form(cls.model, "cosine", N, DIM, 1.0)
        cls.data = cls.path("x.npy")
        np.save(cls.data, np.random.default_rng(0).normal(size=(5, DIM)).astype(np.float32))
        cls.fifo = cls.path("fifo")
        os.mkfifo(cls.fifo)
        cls.folder = cls.path("folder.npy")
        os.mkdir(cls.folder)
        cls.plain_file = cls.path("plain")
        with open(cls.plain_file, "w") as f:
            f.write("a file, not a folder\n")
        cls.device_link = cls.path("null-link.npy")
        os.symlink("/dev/null", cls.device_link)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def path(cls, *names):
        return os.path.join(cls.tmp.name, *names)

    def refused(self, argv, *expected, env=None, subprocess_timeout=None):
        """Runs argv (in this process, or as `python3 -m diffuscope_torch` with a timeout, for
        what could block); asserts exit code 2, one line of stderr holding every `expected`
        text, and that no file under the temporary folder was created, changed or removed."""
        before = snapshot(self.dir)
        if subprocess_timeout is None:
            code, err = run_cli(argv, env=env)
        else:
            environment = support.subprocess_env()
            environment.update(env or {})
            try:
                r = subprocess.run([sys.executable, "-m", "diffuscope_torch",
                                    *[str(a) for a in argv]], env=environment,
                                   capture_output=True, text=True, timeout=subprocess_timeout)
            except subprocess.TimeoutExpired:
                self.fail(f"blocked for {subprocess_timeout} s: {argv}")
            code, err = r.returncode, r.stderr
        self.assertEqual(code, 2, err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertNotIn("Traceback", err)
        for text in expected:
            self.assertIn(str(text), err)
        self.assertEqual(snapshot(self.dir), before, "files changed by a refused run")
        return err.strip()

    def ms_eps(self, out, model=None, data=None, samples=4, extra=()):
        return ["ms-eps", "--model", model or self.model, "--data", data or self.data,
                "--samples", samples, "--seed", 1, "--out", out, *extra]

    def contract_model(self, name, text):
        """A working model whose diffuscope.json is `text` (bytes, or a dict, as JSON)."""
        path = self.path(name)
        module = torch.jit.script(support.ClosedFormGaussian(np.ones(N + 1), np.ones(N + 1),
                                                             1.0, "epsilon"))
        if not isinstance(text, (str, bytes)):
            text = json.dumps(text)
        torch.jit.save(module, path, _extra_files={"diffuscope.json": text})
        return path


GOOD_CONTRACT = {"process": "gaussian", "schedule": "cosine", "num_steps": N, "shape": [DIM],
                 "num_conditions": 0, "prediction": "epsilon"}


class MsEpsOutputsTest(Hostile):
    """--out and OUT.progress are checked before the work and never replace a special file."""

    def test_out_folder_missing_or_a_file(self):
        for out, why in ((self.path("nowhere", "o.npy"), "does not exist"),
                         (self.path("plain", "o.npy"), "is not a folder")):
            with self.subTest(out=out):
                self.refused(self.ms_eps(out), "--out", out, why)

    def test_out_is_a_folder_fifo_or_device_link(self):
        for out, kind in ((self.folder, "is a folder"), (self.fifo, "is a FIFO"),
                          (self.device_link, "symbolic link to a device")):
            with self.subTest(out=out):
                self.refused(self.ms_eps(out), "--out", out, kind)
                self.assertFalse(os.path.isfile(out))

    def test_out_in_a_read_only_folder(self):
        if os.geteuid() == 0:
            self.skipTest("root ignores permission bits; see test_out_folder_missing_or_a_file")
        folder = self.path("read-only")
        os.mkdir(folder)
        os.chmod(folder, 0o555)
        try:
            out = os.path.join(folder, "o.npy")
            self.refused(self.ms_eps(out), "--out", out, "cannot write in the folder")
        finally:
            os.chmod(folder, 0o755)
            os.rmdir(folder)

    def test_out_is_an_input(self):
        self.refused(self.ms_eps(self.data), f"--out: {self.data}: is the --data file; choose "
                                             f"another output")

    def test_progress_is_special_or_not_a_progress_file(self):
        cases = []
        folder_out = self.path("pfolder.npy")
        os.mkdir(folder_out + ".progress")
        cases.append((folder_out, "is a folder"))
        for name, content in (("binary", b"\xff\xfe\x00\x01garbage\n"),
                              ("list", b"[1, 2]\n"), ("number", b"42\n"),
                              ("deep", b"[" * 100000 + b"\n")):
            out = self.path(f"p{name}.npy")
            with open(out + ".progress", "wb") as f:
                f.write(content)
            cases.append((out, "not an ms-eps progress file"))
        for out, why in cases:
            with self.subTest(out=out):
                self.refused(self.ms_eps(out), "progress file", out + ".progress", why)

    def test_progress_fifo_does_not_block(self):
        out = self.path("pfifo.npy")
        os.mkfifo(out + ".progress")
        self.refused(self.ms_eps(out), "progress file", out + ".progress", "FIFO",
                     subprocess_timeout=60)

    def test_full_disk_keeps_the_old_outputs_and_the_progress(self):
        out = self.path("full.npy")
        with open(out, "wb") as f:
            f.write(b"the previous result")
        with open(stderr_of(out), "wb") as f:
            f.write(b"its standard errors")
        from diffuscope_torch import files
        real, calls = files._write_all, []

        def full_after_the_progress_file(fd, data):
            calls.append(len(data))
            if len(calls) == 1:  # the progress file, written before the work
                return real(fd, data)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        with mock.patch("diffuscope_torch.files._write_all", full_after_the_progress_file):
            code, err = run_cli(self.ms_eps(out))
        self.assertEqual(code, 2, err)
        line = err.strip().splitlines()[-1]
        self.assertNotIn("Traceback", err)
        self.assertIn("--out", line)
        self.assertIn("No space left on device", line)
        self.assertIn("rerun to resume", line)
        self.assertEqual(read_bytes(out), b"the previous result")
        self.assertEqual(read_bytes(stderr_of(out)), b"its standard errors")
        self.assertTrue(os.path.exists(out + ".progress"))  # the finished work is kept
        self.assertFalse([n for n in os.listdir(self.dir) if ".tmp-" in n or ".partial" in n])
        # The rerun finds every timestep done and only writes.
        code, err = run_cli(self.ms_eps(out))
        self.assertEqual(code, 0, err)
        self.assertEqual(np.load(out).shape, (N + 1,))
        self.assertFalse(os.path.exists(out + ".progress"))


class MsEpsInputsTest(Hostile):
    def test_model_and_data_must_be_regular_files(self):
        for option, path, kind in (("--model", "/dev/zero", "is a device"),
                                   ("--model", self.fifo, "is a FIFO"),
                                   ("--model", self.folder, "is a folder"),
                                   ("--data", "/dev/zero", "is a device"),
                                   ("--data", self.fifo, "is a FIFO")):
            with self.subTest(option=option, path=path):
                argv = self.ms_eps(self.path("o.npy"), **{option[2:]: path})
                err = self.refused(argv, option, path, kind, "not a regular file")
                self.assertNotIn("no such file", err)

    def test_option_limits(self):
        for option, value, text in (("--samples", 10**12, "between 2 and 10000000"),
                                    ("--samples", 1, "--samples: 1"),
                                    ("--batch", 10**6, "between 1 and 65536"),
                                    ("--batch", 0, "--batch: 0"),
                                    ("--seed", -1, "--seed: -1"),
                                    ("--seed", 2**64, "the seed must lie between"),
                                    ("--samples", "1e3", "not a whole number"),
                                    ("--seed", "x", "not a whole number")):
            with self.subTest(option=option, value=value):
                argv = self.ms_eps(self.path("o.npy"))
                argv = argv + [option, value]
                self.refused(argv, option, value, text)

    def test_missing_option_is_one_line(self):
        self.refused(["ms-eps", "--model", self.model], "required", "--data")

    def test_memory_of_a_batch_is_checked_before_allocating(self):
        wide = self.path("wide.pt")
        save_closed_form(wide, "cosine", N, 65536, 1.0)
        data = self.path("wide.npy")
        np.save(data, np.zeros((1, 65536), dtype=np.float32))
        self.refused(self.ms_eps(self.path("o.npy"), model=wide, data=data, samples=1000,
                                 extra=("--batch", 1000)),
                     "--batch: 1000", "GB of memory, more than the 4.0 GB")
        os.unlink(wide)
        os.unlink(data)

    def test_csv_schedule_fifo_does_not_block(self):
        model = self.contract_model("csvfifo.pt", {**GOOD_CONTRACT,
                                                    "schedule": "csv:" + self.fifo})
        self.refused(self.ms_eps(self.path("o.npy"), model=model), "schedule",
                     "csv:" + self.fifo, "FIFO", subprocess_timeout=60)

    def test_csv_schedule_sizes(self):
        many = self.path("many.csv")
        with open(many, "w") as f:
            f.write("beta\n" + "0.001\n" * 100_001)
        wide = self.path("wide.csv")
        with open(wide, "w") as f:
            f.write("beta" + "," * 70_000 + "\n0.1\n")
        for spec, texts in (("csv:/dev/zero", ('schedule: "csv:/dev/zero": is a device',)),
                            ("csv:" + many, ("csv:" + many, "more than 100000 rows")),
                            ("csv:" + wide, (wide + ": line 1 = 70001 cells",
                                             "between 1 and 65536"))):
            with self.subTest(spec=spec):
                model = self.contract_model("csv.pt", {**GOOD_CONTRACT, "schedule": spec})
                self.refused(self.ms_eps(self.path("o.npy"), model=model), *texts)
        os.unlink(many)
        os.unlink(wide)
        os.unlink(self.path("csv.pt"))

    def test_nan_or_inf_in_the_data(self):
        for value in (np.nan, np.inf, -np.inf):
            with self.subTest(value=value):
                data = self.path("bad.npy")
                points = np.zeros((1, DIM), dtype=np.float32)
                points[0, 1] = value
                np.save(data, points)
                self.refused(self.ms_eps(self.path("o.npy"), data=data), "--data", data,
                             "timestep n = 1", repr(float(value)), "must be finite")
                os.unlink(data)

    def test_nan_in_the_data_later_leaves_no_progress(self):
        # With seed 1 and 2 draws per timestep, point 5 of 10 is first drawn at n = 3, after
        # timesteps 1 and 2 went into the progress file this run began.
        data = self.path("later.npy")
        points = np.ones((10, DIM), dtype=np.float32)
        points[5, 0] = np.nan
        np.save(data, points)
        out = self.path("later-out.npy")
        code, err = run_cli(self.ms_eps(out, data=data, samples=2))
        self.assertEqual(code, 2, err)
        self.assertNotIn("Traceback", err)
        line = err.strip().splitlines()[-1]
        self.assertIn(f"--data: {data}: data point 5 (drawn at timestep n = 3) holds nan", line)
        for leftover in (out, stderr_of(out), out + ".progress"):
            self.assertFalse(os.path.exists(leftover), leftover)
        os.unlink(data)

    def test_nan_or_inf_predictions(self):
        for value in (float("nan"), float("inf"), float("-inf")):
            with self.subTest(value=value):
                model = self.path("nan.pt")
                support.contract.save(torch.jit.script(NanModel(value)), model,
                                      process="gaussian", schedule="cosine", num_steps=N,
                                      shape=[DIM], prediction="epsilon")
                self.refused(self.ms_eps(self.path("o.npy"), model=model), "--model", model,
                             "timestep n = 1", "refusing to write")
                os.unlink(model)


class ContractTest(Hostile):
    """The contract as strict as the app reads it."""

    CASES = [
        ("num_steps", 50.7, "num_steps: 50.7: a whole number is expected"),
        ("num_steps", "50", 'num_steps: "50": a number is expected'),
        ("num_steps", True, "num_steps: true: a number is expected"),
        ("num_steps", 10**9, "num_steps: 1000000000: the number of steps N must be at most "
                             "100000"),
        ("num_steps", 10**12, "num_steps: 1000000000000: the number of steps N must be at most "
                              "100000"),
        ("num_steps", 1e300, "num_steps: 1e+300: the number of steps N must be at most 100000"),
        ("num_steps", 0, "num_steps: 0: the number of steps N must be at least 1"),
        ("shape", "2", 'shape: "2": must be a list of 1 to 4 sizes'),
        ("shape", [], "shape: []: must be a list"),
        ("shape", [1, 1, 1, 1, 3], "shape: [1,1,1,1,3]: must be a list of 1 to 4"),
        ("shape", [2.5], "shape[0]: 2.5: a whole number is expected"),
        ("shape", [0], "shape[0]: 0: a size must be at least 1"),
        ("shape", [2, -3], "shape[1]: -3: a size must be at least 1"),
        ("shape", [True], "shape[0]: true: a number is expected"),
        ("shape", [65537], "shape[0]: 65537: a size must be at most 65536, the limit of the data "
                           "dimension d"),
        ("shape", [1, 10**12], "shape[1]: 1000000000000: a size must be at most 65536"),
        ("shape", [300, 300], "shape: [300,300]: the data dimension d, the product of the sizes "
                              "(90000), must be at most 65536"),
        ("shape", list(range(1, 100_000)), "shape: [1,2,3,4,5,"),
        ("num_conditions", 2.5, "num_conditions: 2.5: a whole number is expected"),
        ("process", ["gaussian"], "process: an array: a string is expected"),
        ("process", "poisson", 'process: "poisson": must be gaussian or categorical'),
        ("prediction", "x0", 'prediction: "x0": must be epsilon, sample or v_prediction'),
        ("schedule", "", 'schedule: "": must name the schedule'),
        ("schedule", "linear,N=10", 'schedule: "linear,N=10": must name the schedule'),
        ("schedule", None, "schedule: null: a string is expected"),
        ("num_conditions", 1001, "num_conditions: 1001: the number of condition labels"),
        ("num_conditions", -1, "num_conditions: -1: the number of condition labels"),
    ]

    def test_fields(self):
        for key, value, text in self.CASES:
            with self.subTest(key=key, value=value):
                model = self.contract_model("c.pt", {**GOOD_CONTRACT, key: value})
                self.refused(self.ms_eps(self.path("o.npy"), model=model),
                             model + ": diffuscope.json: " + text)
        os.unlink(self.path("c.pt"))

    def test_missing_fields(self):
        for key in ("process", "schedule", "num_steps", "shape"):
            with self.subTest(key=key):
                contract = dict(GOOD_CONTRACT)
                del contract[key]
                model = self.contract_model("c.pt", contract)
                self.refused(self.ms_eps(self.path("o.npy"), model=model),
                             f"diffuscope.json: {key}: ")
        os.unlink(self.path("c.pt"))

    def test_not_an_object_or_not_strict_json(self):
        for text, expected in (("[1, 2]", "an array: must be a JSON object"),
                               ('"gaussian"', "must be a JSON object"),
                               ('{"num_steps": 10, "num_steps": 10}', "appears twice"),
                               ('{"num_steps": NaN}', "not valid JSON"),
                               ('{"num_steps": 1e999}', "not valid JSON"),
                               ("{", "not valid JSON")):
            with self.subTest(text=text):
                model = self.contract_model("c.pt", text)
                self.refused(self.ms_eps(self.path("o.npy"), model=model),
                             model + ": diffuscope.json", expected)
        os.unlink(self.path("c.pt"))

    def test_hostile_text_is_refused_in_one_printable_line(self):
        good = json.dumps(GOOD_CONTRACT)[1:-1]
        nested = lambda depth: "[" * depth + "]" * depth  # noqa: E731
        for text, expected in (
                (b'{"process": "gau\xffssian"}', ["not valid JSON", "0xff"]),
                ('{"process": "\\ud800"}', ["not valid JSON", "lone UTF-16 surrogate"]),
                ('{"\\udc00": 1, ' + good + "}", ["not valid JSON", "lone UTF-16 surrogate"]),
                (json.dumps({**GOOD_CONTRACT, "process": "a\nb\x1b[31m\u0085"}),
                 ['process: "a\\nb\\x1b[31m\\u0085": must be']),
                (json.dumps({**GOOD_CONTRACT, "process": "p" * 100_000}),
                 ['process: "' + "p" * 80 + '…": must be']),
                ('{"extra": ' + nested(66) + ", " + good + "}", ["nesting is too deep"]),
                ('{"extra": [' + nested(64) + "], " + good + "}", ["nesting is too deep"]),
                ('{"num_steps": 1' + "0" * 400 + "}", ["not valid JSON", "beyond a double"]),
                (json.dumps({**GOOD_CONTRACT, "schedule": "linear\n" + "x" * 5000}),
                 ['schedule: "linear\\nxxx', "(5007 bytes)", "longer than 4096 bytes"])):
            with self.subTest(text=text[:40]):
                model = self.contract_model("c.pt", text)
                err = self.refused(self.ms_eps(self.path("o.npy"), model=model),
                                   model + ": diffuscope.json", *expected)
                self.assertLess(len(err), 600)
        os.unlink(self.path("c.pt"))

    def test_deep_but_allowed_nesting_and_big_whole_numbers_are_read(self):
        # As deep as the app's reader goes (64 levels), and an integer beyond 64 bits that the
        # app reads as a double, in a key neither side uses.
        text = ('{"extra": ' + "[" * 63 + "]" * 63 + ', "big": 1' + "0" * 30 + ", " +
                json.dumps(GOOD_CONTRACT)[1:])
        _, contract = support.contract.load(self.contract_model("deep.pt", text))
        self.assertEqual(contract["shape"], [DIM])
        os.unlink(self.path("deep.pt"))

    def test_whole_float_is_accepted_as_the_app_does(self):
        model = self.contract_model("float.pt", {**GOOD_CONTRACT, "num_steps": 10.0,
                                                 "shape": [3.0]})
        _, contract = support.contract.load(model)
        self.assertEqual((contract["num_steps"], contract["shape"]), (10, [3]))
        self.assertIs(type(contract["num_steps"]), int)


class ProgressValuesTest(Hostile):
    """Resuming checks every value of the progress file."""

    def progress_for(self, name, lines, estimator="score"):
        out = self.path(name)
        extra = ("--estimator", estimator)
        code, err = run_cli(self.ms_eps(out, extra=extra),
                            env={"DIFFUSCOPE_MS_EPS_STOP_AFTER": "2"})
        self.assertEqual(code, 3, err)
        with open(out + ".progress") as f:
            header = f.read().split("\n")[0]
        with open(out + ".progress", "w") as f:
            f.write(header + "\n" + "".join(line + "\n" for line in lines))
        return self.ms_eps(out, extra=extra), out + ".progress"

    def test_values(self):
        cases = [(["2 nan 0.1"], "score", 2, "not a finite number"),
                 (["2 inf 0.1"], "score", 2, "not a finite number"),
                 (["2 1e999 0.1"], "score", 2, "not a finite number"),
                 (["2 -5.0 0.1"], "score", 2, "cannot be negative"),
                 (["2 -inf 0.1"], "score", 2, "not a finite number"),
                 (["2 0.5 1e999"], "score", 2, "standard error must be a finite number"),
                 (["1_0 0.5 0.1"], "score", 2, "expected a line 'n mean stderr'"),
                 (["2 0.5_0 0.1"], "score", 2, "expected a line"),
                 (["\u0662 0.5 0.1"], "score", 2, "expected a line"),
                 (["2 Infinity 0.1"], "score", 2, "expected a line"),
                 (["2 1.5 0.1"], "error", 2, "cannot exceed 1"),
                 (["2 0.5 -1.0"], "score", 2, "standard error must be a finite number ≥ 0"),
                 (["2 0.5 nan"], "score", 2, "standard error"),
                 (["0 0.5 0.1"], "score", 2, f"n must lie between 1 and N = {N}"),
                 ([f"{N + 1} 0.5 0.1"], "score", 2, "n must lie between 1"),
                 (["2.0 0.5 0.1"], "score", 2, "expected a line 'n mean stderr'"),
                 (["hello"], "score", 2, "expected a line"),
                 (["2 0.5 0.1 7"], "score", 2, "expected a line"),
                 (["2 0.5 0.1", "3 0.5 0.1", "2 0.6 0.1"], "score", 4,
                  "timestep 2 appears twice (first on line 2)")]
        for i, (lines, estimator, line, text) in enumerate(cases):
            with self.subTest(lines=lines):
                argv, progress = self.progress_for(f"v{i}.npy", lines, estimator)
                self.refused(argv, f"progress file {progress}, line {line}:",
                             lines[line - 2], text)
                os.unlink(progress)

    def test_a_huge_value_is_not_echoed_whole(self):
        line = "2 " + "1" * 1_000_000 + " 0.1"
        argv, progress = self.progress_for("huge.npy", [line])
        err = self.refused(argv, "(1000006 characters)", "not a finite number")
        self.assertLess(len(err), 600)
        os.unlink(progress)

    def test_good_values_resume(self):
        argv, progress = self.progress_for("good.npy", ["3 0.5 0.125", "1 0.25 0.0"])
        code, err = run_cli(argv)
        self.assertEqual(code, 0, err)
        out = argv[argv.index("--out") + 1]
        self.assertEqual((np.load(out)[1], np.load(out)[3]), (0.25, 0.5))
        self.assertEqual(np.load(stderr_of(out))[3], 0.125)
        self.assertFalse(os.path.exists(progress))


class ExportTest(Hostile):
    def export(self, out, *extra, steps=20):
        return ["export", "--factory", "fake_unet:make_unet", "--prediction", "epsilon",
                "--schedule", "cosine", "--num-steps", steps, "--shape", "1,8,8", "--out", out,
                *extra]

    def test_out(self):
        for out, why in ((self.path("nowhere", "m.pt"), "does not exist"),
                         (self.path("plain", "m.pt"), "is not a folder"),
                         (self.folder, "is a folder"),
                         (self.fifo, "is a FIFO"),
                         (self.device_link, "symbolic link to a device")):
            with self.subTest(out=out):
                self.refused(self.export(out), "--out", out, why)

    def test_out_in_a_read_only_folder(self):
        if os.geteuid() == 0:
            self.skipTest("root ignores permission bits; see test_out")
        folder = self.path("read-only-export")
        os.mkdir(folder)
        os.chmod(folder, 0o555)
        try:
            out = os.path.join(folder, "m.pt")
            self.refused(self.export(out), "--out", out, "cannot write in the folder")
        finally:
            os.chmod(folder, 0o755)
            os.rmdir(folder)

    def test_weights(self):
        text = self.path("weights.txt")
        with open(text, "w") as f:
            f.write("hello, not a state_dict\n")
        tensor = self.path("tensor.pt")
        torch.save(torch.zeros(3), tensor)
        for weights, why in ((text, "not a state_dict saved by torch.save"),
                             (tensor, "holds Tensor, not a state_dict"),
                             (self.fifo, "is a FIFO"), (self.folder, "is a folder"),
                             ("/dev/zero", "is a device")):
            with self.subTest(weights=weights):
                self.refused(self.export(self.path("m.pt"), "--weights", weights),
                             "--weights", weights, why)
        os.unlink(text)
        os.unlink(tensor)

    def test_the_apps_limits(self):
        for extra, steps, expected in (
                ((), 200_000, "--num-steps: 200000: the number of steps N must be at most "
                              "100000"),
                ((), 0, "--num-steps: 0"),
                ((), "50.5", "--num-steps: 50.5: not a whole number"),
                (("--shape", "70000"), 20, "--shape: 70000: a size must be at most 65536"),
                (("--shape", "1,2,3,4,5"), 20, "--shape: 1,2,3,4,5: must be a list of 1 to 4"),
                (("--shape", "300,300"), 20, "--shape: 300,300: the data dimension d"),
                (("--shape", "2,x"), 20, "--shape: 2,x"),
                (("--num-conditions", "1001"), 20, "--num-conditions: 1001"),
                (("--process", "categorical", "--num-classes", "300", "--shape", "4"), 20,
                 "--num-classes: 300: the number of classes K must be at most 256"),
                (("--process", "categorical", "--num-classes", "2", "--shape", "5000"), 20,
                 "--shape: 5000: a size must be at most 4096, the limit of the number of "
                 "positions D"),
                (("--process", "categorical", "--schedule", "uniform", "--num-classes", "2",
                  "--shape", "4"), 20, '--schedule: "uniform": unknown schedule')):
            with self.subTest(extra=extra, steps=steps):
                self.refused(self.export(self.path("m.pt"), *extra, steps=steps), expected)

    def test_existing_output_is_kept_on_a_refusal_and_a_full_disk(self):
        out = self.path("kept.pt")
        with open(out, "wb") as f:
            f.write(b"an earlier model")
        self.refused(self.export(out, steps=200_000), "--num-steps")
        no_space = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        before = snapshot(self.dir)
        with mock.patch("diffuscope_torch.files._write_all", side_effect=no_space):
            code, err = run_cli(self.export(out))
        self.assertEqual(code, 2, err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn(f"--out: {out}: cannot write the file: No space left on device", err)
        self.assertEqual(snapshot(self.dir), before)
        os.unlink(out)


class RaisesValueError(torch.nn.Module):
    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        if x.shape[0] > 0:
            raise ValueError("bad input shape 7")
        return x


class RaisesInAnOperator(torch.nn.Module):
    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return x.reshape(5, 7)


def sample_args(model, plan, out):
    return ["sample", "--model", model, "--plan", plan, "--count", 4, "--seed", 0, "--device",
            "cpu", "--out", out]


class OutputIsAnInputTest(Hostile):
    """No command writes over a file it reads, whatever path names it: the same file (st_dev,
    st_ino, links followed) is refused before any work, and every file is left as it was."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.sample_model = test_sample.save_model(cls.dir)  # linear, N = 1000
        cls.plan = cls.path("p.json")
        test_sample.write_json(cls.plan, test_sample.hand_plan())

    def test_sample_out_is_the_plan(self):
        self.refused(sample_args(self.sample_model, self.plan, self.plan),
                     f"--out: {self.plan}: is the --plan file; choose another output")

    def test_sample_out_is_the_model(self):
        self.refused(sample_args(self.sample_model, self.plan, self.sample_model),
                     f"--out: {self.sample_model}: is the --model file; choose another output")

    def test_sample_out_is_a_symbolic_link_to_the_model(self):
        link = self.path("model-link.npy")
        os.symlink(self.sample_model, link)
        try:
            self.refused(sample_args(self.sample_model, self.plan, link),
                         f"--out: {link}: is the --model file ({self.sample_model}); choose "
                         f"another output")
        finally:
            os.unlink(link)

    def test_sample_out_is_a_hard_link_to_the_plan(self):
        link = self.path("plan-hard-link.npy")
        os.link(self.plan, link)
        try:
            self.refused(sample_args(self.sample_model, self.plan, link),
                         f"--out: {link}: is the --plan file ({self.plan}); choose another "
                         f"output")
        finally:
            os.unlink(link)

    def test_ms_eps_out_is_the_model(self):
        self.refused(self.ms_eps(self.model), f"--out: {self.model}: is the --model file; "
                                              f"choose another output")

    def test_ms_eps_progress_file_is_a_hard_link_to_the_model(self):
        out = self.path("linked.npy")
        os.link(self.model, out + ".progress")
        try:
            self.refused(self.ms_eps(out), f"progress file: {out}.progress: is the --model file "
                                           f"({self.model}); choose another output")
        finally:
            os.unlink(out + ".progress")

    def test_nll_terms_out_is_the_plan(self):
        plan = self.path("nll-plan.json")
        with open(plan, "w") as f:
            json.dump({"format": "diffuscope-plan"}, f)
        try:
            self.refused(self.ms_eps(plan, extra=("--nll-terms", plan)),
                         f"--out: {plan}: is the --nll-terms file; choose another output")
        finally:
            os.unlink(plan)

    def test_export_out_is_the_weights_or_the_schedule(self):
        weights = self.path("weights.pt")
        with open(weights, "wb") as f:
            f.write(b"a state_dict")
        csv = self.path("betas.csv")
        with open(csv, "w") as f:
            f.write("beta\n" + "0.01\n" * 20)
        base = ["export", "--factory", "fake_unet:make_unet", "--prediction", "epsilon",
                "--num-steps", 20, "--shape", "1,8,8"]
        try:
            self.refused(base + ["--schedule", "cosine", "--weights", weights, "--out", weights],
                         f"--out: {weights}: is the --weights file; choose another output")
            self.refused(base + ["--schedule", f"csv:{csv},zero-snr", "--out", csv],
                         f"--out: {csv}: is the --schedule file; choose another output")
        finally:
            os.unlink(weights)
            os.unlink(csv)


class NetworkRaisesTest(Hostile):
    """What a TorchScript network raises reaches the user in one line: its own text, not
    TorchScript's header."""

    def save(self, module, name):
        path = self.path(name)
        support.contract.save(torch.jit.script(module), path, process="gaussian",
                              schedule="cosine", num_steps=N, shape=[DIM], prediction="epsilon")
        return path

    def test_ms_eps_and_nll_terms(self):
        raises = self.save(RaisesValueError(), "raises.pt")
        operator = self.save(RaisesInAnOperator(), "operator.pt")
        plan = self.path("nll.json")
        ab = support.gaussian_schedule("cosine", N).alpha_bar
        with open(plan, "w") as f:
            json.dump({"format": "diffuscope-plan", "version": 1, "N": N,
                       "alpha_bar": [float(a) for a in ab[1:]], "timesteps": [1, N],
                       "steps": [{"t": N, "s": 1, "variance": 0.5},
                                 {"t": 1, "s": 0, "variance": 0.0}]}, f)
        try:
            for extra in ((), ("--nll-terms", plan)):
                with self.subTest(extra=extra):
                    line = self.refused(self.ms_eps(self.path("o.csv"), model=raises,
                                                    extra=extra),
                                        f"--model: {raises}: the network raised: ValueError: "
                                        f"bad input shape 7")
                    self.assertNotIn("TorchScript", line)
                    self.refused(self.ms_eps(self.path("o.csv"), model=operator, extra=extra),
                                 f"--model: {operator}: the network raised: RuntimeError: "
                                 f"shape '[5, 7]' is invalid for input of size")
        finally:
            for path in (raises, operator, plan):
                os.unlink(path)

    def test_sample(self):
        model = test_sample.save_model(self.dir, module=RaisesValueError())
        plan = self.path("raise-plan.json")
        test_sample.write_json(plan, test_sample.hand_plan())
        try:
            line = self.refused(sample_args(model, plan, self.path("o.npy")),
                                f"--model: {model}: the network raised: ValueError: bad input "
                                f"shape 7")
            self.assertNotIn("TorchScript", line)
        finally:
            os.unlink(model)
            os.unlink(plan)


class LauncherLimitsTest(Hostile):
    """run --nproc N: no more ranks than the device allows, and a rank that cannot be started
    stops the ranks already started."""

    def run_args(self, nproc, *device):
        return ["run", "--nproc", nproc, *self.ms_eps(self.path("o.npy")), *device]

    def test_more_ranks_than_cores_on_the_cpu(self):
        from diffuscope_torch.launch import usable_cores
        cores = usable_cores()
        no_start = mock.patch("diffuscope_torch.launch.subprocess.Popen",
                              side_effect=AssertionError("a rank was started"))
        with no_start:
            self.refused(self.run_args(1000, "--device", "cpu"),
                         f"--nproc: 1000: more ranks than the {cores} core",
                         f"this process may use on the CPU (--device cpu); use at most {cores}")
            if not torch.cuda.is_available():
                self.refused(self.run_args(cores + 1), f"--nproc: {cores + 1}: more ranks than",
                             "(--device auto and no CUDA here)")

    def test_a_rank_that_cannot_start_stops_the_others(self):
        real_popen = subprocess.Popen
        started = []

        def popen(argv, **kwargs):
            if len(started) == 3:  # a process limit: fork fails with EAGAIN
                raise BlockingIOError(errno.EAGAIN, os.strerror(errno.EAGAIN))
            # Rank 1 ignores SIGTERM (inherited through exec): it has to be killed.
            ignore = len(started) == 1
            child = real_popen([sys.executable, "-c", "import time; time.sleep(60)"],
                               preexec_fn=(lambda: signal.signal(signal.SIGTERM,
                                                                 signal.SIG_IGN))
                               if ignore else None)
            started.append(child)
            return child

        try:
            with mock.patch("diffuscope_torch.launch.usable_cores", return_value=64), \
                    mock.patch("diffuscope_torch.launch.GRACE_SECONDS", 1.0), \
                    mock.patch("diffuscope_torch.launch.subprocess.Popen", side_effect=popen):
                self.refused(self.run_args(8, "--device", "cpu"),
                             "--nproc: 8: could not start rank 3 of 8: Resource temporarily "
                             "unavailable; stopped the 3 ranks already started")
            self.assertEqual(len(started), 3)
            self.assertEqual([child.poll() for child in started],
                             [-signal.SIGTERM, -signal.SIGKILL, -signal.SIGTERM])
        finally:
            for child in started:
                if child.poll() is None:
                    child.kill()
                    child.wait()


class TopLevelTest(Hostile):
    def test_unexpected_error_is_one_line_and_debug_shows_the_traceback(self):
        boom = RuntimeError("boom\nsecond line")
        with mock.patch("diffuscope_torch.ms_eps.Setup", side_effect=boom):
            line = self.refused(self.ms_eps(self.path("o.npy")), "RuntimeError: boom",
                                "--debug")
            self.assertNotIn("second line", line)
            code, err = run_cli(self.ms_eps(self.path("o.npy")) + ["--debug"])
        self.assertEqual(code, 2)
        self.assertIn("Traceback", err)

    def test_bad_option_value_is_one_line(self):
        self.refused(["export", "--factory", "x:y", "--schedule", "linear", "--num-steps",
                      "x", "--shape", "2", "--out", self.path("m.pt")],
                     "--num-steps: x: not a whole number")
        self.refused(self.ms_eps(self.path("o.npy"), extra=("--estimator", "guess")),
                     "--estimator", "guess")


if __name__ == "__main__":
    unittest.main()
