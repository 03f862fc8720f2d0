"""Schedules: the C++ app's definitions, its reference values and its refusals."""
import os
import unittest

import numpy as np

import support
from diffuscope_torch.schedules import ScheduleError, gaussian_schedule

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


if __name__ == "__main__":
    unittest.main()
