"""Schedules: the C++ app's definitions, its reference values and its refusals."""
import ctypes
import math
import os
import tempfile
import unittest

import numpy as np

import support
from diffuscope_torch.errors import printable
from diffuscope_torch.schedules import ScheduleError, check_categorical, gaussian_schedule, strtod

DATA = os.path.normpath(os.path.join(support.HERE, "..", "data"))


class SchedulesTest(unittest.TestCase):
    def test_definitions(self):
        n = 1000
        c = 1000.0 / 500
        np.testing.assert_array_equal(gaussian_schedule("linear", 500).beta[1:],
                                      np.linspace(c * 1e-4, c * 0.02, 500))
        np.testing.assert_array_equal(gaussian_schedule("scaled-linear", n).beta[1:],
                                      np.linspace(np.sqrt(0.00085), np.sqrt(0.012), n) ** 2)
        sigmoid = 1e-4 + (0.02 - 1e-4) / (1 + np.exp(-np.linspace(-6, 6, n)))
        np.testing.assert_allclose(gaussian_schedule("sigmoid", n).beta[1:], sigmoid,
                                   rtol=1e-15)

        def f(u):
            return np.cos((u + 0.008) / 1.008 * np.pi / 2) ** 2

        steps = np.arange(1, n + 1)
        cosine = np.minimum(1 - f(steps / n) / f((steps - 1) / n), 0.999)
        # 1 − ratio cancels near n = 1, and numpy's cos is not libm's: a few ulps of the ratio.
        np.testing.assert_allclose(gaussian_schedule("cosine", n).beta[1:], cosine, rtol=1e-10)

    def test_cumulative_quantities(self):
        for spec in ("linear", "cosine", "scaled-linear", "sigmoid"):
            with self.subTest(spec=spec):
                s = gaussian_schedule(spec, 1000)
                self.assertEqual((s.alpha_bar[0], s.beta_bar[0]), (1.0, 0.0))
                np.testing.assert_allclose(s.alpha_bar[1:], np.cumprod(1 - s.beta[1:]),
                                           rtol=1e-12)
                log = np.cumsum(np.log1p(-s.beta[1:]))
                np.testing.assert_allclose(s.beta_bar[1:], -np.expm1(log), rtol=1e-13)

    def test_reference_values(self):
        # The C++ tests' 50-digit references for linear, N = 1000.
        s = gaussian_schedule("linear", 1000)
        self.assertAlmostEqual(s.alpha_bar[1000] / 4.0358297653756833148e-05, 1.0, delta=1e-12)
        self.assertAlmostEqual(s.alpha_bar[25], 0.99155816287877310769, delta=1e-15)
        self.assertEqual(s.beta_bar[1], 1e-4)

    def test_zero_terminal_snr(self):
        for spec, steps in (("linear", 1000), ("cosine", 1000), ("sigmoid", 2)):
            with self.subTest(spec=spec):
                base = gaussian_schedule(spec, steps)
                zero = gaussian_schedule(spec + ",zero-snr", steps)
                self.assertEqual(zero.alpha_bar[1], base.alpha_bar[1])
                self.assertEqual((zero.alpha_bar[steps], zero.beta_bar[steps],
                                  zero.beta[steps]), (0.0, 1.0, 1.0))
                s = np.sqrt(base.alpha_bar[1:])
                affine = (s - s[-1]) * s[0] / (s[0] - s[-1])
                np.testing.assert_allclose(np.sqrt(zero.alpha_bar[1:]), affine, rtol=1e-10,
                                           atol=1e-300)
                self.assertTrue(np.all((zero.beta[1:] > 0) & (zero.beta[1:] <= 1)))

    def test_csv(self):
        path = os.path.join(DATA, "gaussian_custom_beta.csv")
        s = gaussian_schedule("csv:" + path, 0)
        self.assertEqual(s.num_steps, 4)
        self.assertAlmostEqual(s.alpha_bar[4], 0.9 * 0.8 * 0.7 * 0.6, delta=1e-15)
        with self.assertRaises(ScheduleError) as caught:
            gaussian_schedule("csv:" + path, 5)
        self.assertIn("num_steps: 5", str(caught.exception))

    def test_refusals_name_the_field(self):
        for spec, steps, text in (("quartic", 100, "schedule: 'quartic'"),
                                  ("linear", 10, "linear schedule β[6]"),
                                  ("linear", 0, "num_steps: 0"),
                                  ("linear,zero-snr", 1, "schedule: 'linear,zero-snr'"),
                                  ("quartic,zero-snr", 100, "schedule: 'quartic,zero-snr'"),
                                  ("csv:/nonexistent/b.csv", 0, "csv:/nonexistent/b.csv")):
            with self.subTest(spec=spec, steps=steps):
                with self.assertRaises(ScheduleError) as caught:
                    gaussian_schedule(spec, steps)
                self.assertIn(text, str(caught.exception))



class CategoricalSpecTest(unittest.TestCase):
    """The categorical β(t) specs the app's parseBetaCurve takes, and its number reader."""

    def test_strtod_reads_what_cs_strtod_reads_whole(self):
        libc = ctypes.CDLL(None)
        libc.strtod.restype = ctypes.c_double
        libc.strtod.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)]
        for text in ("1", "2.5", " 2.5", "\t3", "+.5e-3", "-7.", ".", "", "1e", "1e5", "1E+05",
                     "1_0", "2 ", "0x1p-2", "0X.8", "0x1.8", "0x", "0x1p", "inf", "-Infinity",
                     "INF", "nan", "nan(abc)", "1e999", "-1e999", "1e-400", "--1", "1.2.3", "١"):
            with self.subTest(text=text):
                raw = text.encode()
                end = ctypes.c_char_p()
                value = libc.strtod(raw, ctypes.byref(end))
                whole = bool(raw) and ctypes.cast(end, ctypes.c_void_p).value == \
                    ctypes.cast(ctypes.c_char_p(raw), ctypes.c_void_p).value + len(raw)
                ours = strtod(text)
                if not whole:
                    self.assertIsNone(ours)
                elif math.isnan(value):
                    self.assertTrue(math.isnan(ours))
                else:
                    self.assertEqual(ours, value)

    def test_accepted_and_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            def csv(name, text):
                path = os.path.join(tmp, name)
                with open(path, "w") as f:
                    f.write(text)
                return path

            good = csv("good.csv", "# a comment\n t , beta \n0,0\n0.5,0.25\n\n1,1\n")
            inner = csv("inner.csv", "beta,t\n0.1,0.2\n0.3,0.4\n")
            for spec in ("linear", "cosine", "power:2", "power: 0.5", "power:0x1p-1",
                         "info-linear", "custom:" + good, "custom:" + inner):
                with self.subTest(spec=spec):
                    check_categorical(spec)
            cases = [
                ("uniform", "schedule", "unknown schedule"),
                ("linear:", "schedule", "unknown schedule"),
                ("Linear", "schedule", "unknown schedule"),
                ("info-linear:x", "schedule", "unknown schedule"),
                ("custom:", "schedule", "unknown schedule"),
                ("power:", "schedule", "is not a number"),
                ("power:2 ", "schedule", "is not a number"),
                ("power:1_0", "schedule", "is not a number"),
                ("power:0", "schedule", "finite number > 0"),
                ("power:-1", "schedule", "finite number > 0"),
                ("power:inf", "schedule", "finite number > 0"),
                ("power:nan", "schedule", "finite number > 0"),
                ("custom:" + os.path.join(tmp, "missing.csv"), "schedule", "no such file"),
                ("custom:" + tmp, "schedule", "not a regular file"),
                ("custom:" + csv("nobeta.csv", "t,b\n0.5,0.5\n"), "nobeta.csv",
                 "no column named 'beta'"),
                ("custom:" + csv("empty.csv", "# nothing\n"), "empty.csv", "no header line"),
                ("custom:" + csv("norows.csv", "t,beta\n"), "norows.csv", "no data rows"),
                ("custom:" + csv("twice.csv", "t,beta,t\n1,1,1\n"), "twice.csv:1 column 't'",
                 "appears twice"),
                ("custom:" + csv("ragged.csv", "t,beta\n0.5\n"), "ragged.csv:2",
                 "different number of fields"),
                ("custom:" + csv("text.csv", "t,beta\n0.5,half\n"), "text.csv:2 column 'beta'",
                 "not a number"),
                ("custom:" + csv("inf.csv", "t,beta\n0.5,inf\n"), "inf.csv:2 column 'beta'",
                 "must be finite"),
                ("custom:" + csv("t.csv", "t,beta\n1.5,0.5\n"), "t.csv:2 column 't'",
                 "t must lie in [0, 1]"),
                ("custom:" + csv("b.csv", "t,beta\n0.5,-0.1\n"), "b.csv:2 column 'beta'",
                 "β must lie in [0, 1]"),
                ("custom:" + csv("order.csv", "t,beta\n0.5,0.1\n0.5,0.2\n"),
                 "order.csv:3 column 't'", "t must increase strictly"),
                ("custom:" + csv("down.csv", "t,beta\n0.2,0.5\n0.4,0.3\n"),
                 "down.csv:3 column 'beta'", "β(t) must be nondecreasing"),
                ("custom:" + csv("zero.csv", "t,beta\n0,0.1\n"), "zero.csv:2 column 'beta'",
                 "β(0) must be 0"),
                ("custom:" + csv("one.csv", "t,beta\n1,0.9\n"), "one.csv:2 column 'beta'",
                 "β(1) must be 1"),
            ]
            for spec, field, reason in cases:
                with self.subTest(spec=spec):
                    with self.assertRaises(ScheduleError) as caught:
                        check_categorical(spec)
                    self.assertIn(field, caught.exception.field)
                    self.assertIn(reason, caught.exception.reason)

    def test_printable(self):
        # Control characters and the bytes of invalid UTF-8 (surrogate-escaped) as \xNN, other
        # lone surrogates as \uXXXX, whole characters within the byte limit.
        raw = b"a\nb\tc\x1b\x7f\xff\xc3(\xc3\xa9"
        self.assertEqual(printable(raw.decode("utf-8", "surrogateescape")),
                         "a\\nb\\tc\\x1b\\x7f\\xff\\xc3(é")
        self.assertEqual(printable("x\ud800"), "x\\ud800")
        self.assertEqual(printable("ééé", 5), "éé…")
        self.assertEqual(printable("abc", 3), "abc")
        self.assertEqual(printable("abcd", 3), "abc…")

if __name__ == "__main__":
    unittest.main()
