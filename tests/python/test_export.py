"""export: a fake diffusers UNet2DModel and a plain model become loadable contract archives that
compute what the eager models compute."""
import json
import os
import tempfile
import unittest

import numpy as np
import torch

import support  # noqa: F401  (puts the package on sys.path, one thread)
from diffuscope_torch import contract
from diffuscope_torch.errors import FieldError
from diffuscope_torch.export import export_model
from fake_unet import (CategoricalLogits, FakeUNet2DModel, SampleOutput, make_plain,
                       make_unet)
from support import run_cli

N = 50


class ExportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def test_fake_unet(self):
        model = make_unet()
        used = export_model(model, self.path("unet.pt"), prediction="v_prediction",
                            schedule="cosine", num_steps=N, shape=[1, 8, 8])
        self.assertEqual(used, "trace")
        module, c = contract.load(self.path("unet.pt"))
        self.assertEqual(c, {"process": "gaussian", "schedule": "cosine", "num_steps": N,
                             "shape": [1, 8, 8], "num_conditions": 0,
                             "prediction": "v_prediction"})
        g = torch.Generator().manual_seed(5)
        for batch in (1, 4):
            x = torch.randn(batch, 1, 8, 8, generator=g)
            t = torch.randint(0, N, (batch,), generator=g)
            with torch.no_grad():
                got = module(x, t)
                want = model(x, t).sample
            self.assertEqual(got.dtype, torch.float32)
            torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6)

    def test_fake_unet_conditional(self):
        torch.manual_seed(1)
        model = FakeUNet2DModel(num_class_embeds=3)
        export_model(model, self.path("cond.pt"), prediction="epsilon", schedule="linear",
                     num_steps=N, shape=[1, 8, 8], num_conditions=3)
        module, c = contract.load(self.path("cond.pt"))
        self.assertEqual(c["num_conditions"], 3)
        x = torch.randn(5, 1, 8, 8)
        t = torch.tensor([0, 1, 10, 48, 49])
        y = torch.tensor([0, 1, 2, 1, 0])
        with torch.no_grad():
            torch.testing.assert_close(module(x, t, y), model(x, t, class_labels=y).sample,
                                       rtol=1e-5, atol=1e-6)

    def test_plain_model_is_scripted(self):
        model = make_plain()
        used = export_model(model, self.path("plain.pt"), prediction="epsilon",
                            schedule="linear", num_steps=N, shape=[2])
        self.assertEqual(used, "script")
        module, _ = contract.load(self.path("plain.pt"))
        x, t = torch.randn(7, 2), torch.randint(0, N, (7,))
        with torch.no_grad():
            torch.testing.assert_close(module(x, t), model(x, t))

    def test_output_object_without_return_dict(self):
        torch.manual_seed(2)
        model = SampleOutput()
        used = export_model(model, self.path("obj.pt"), prediction="sample", schedule="linear",
                            num_steps=N, shape=[3])
        self.assertEqual(used, "trace")  # a dataclass output cannot be scripted
        module, _ = contract.load(self.path("obj.pt"))
        x, t = torch.randn(4, 3), torch.tensor([0, 5, 9, 49])
        with torch.no_grad():
            torch.testing.assert_close(module(x, t), model(x, t).sample)

    def test_categorical(self):
        torch.manual_seed(3)
        model = CategoricalLogits(4)
        export_model(model, self.path("cat.pt"), process="categorical", schedule="power:2",
                     num_steps=N, shape=[6], num_classes=4)
        module, c = contract.load(self.path("cat.pt"))
        self.assertEqual((c["process"], c["num_classes"], c["shape"]), ("categorical", 4, [6]))
        x, t = torch.randint(0, 4, (2, 6)), torch.tensor([0.25, 1.0])
        with torch.no_grad():
            got = module(x, t)
            self.assertEqual(tuple(got.shape), (2, 6, 4))
            torch.testing.assert_close(got, model(x, t))

    def test_categorical_schedule_is_checked_as_the_app_does(self):
        custom = self.path("beta.csv")
        with open(custom, "w") as f:
            f.write("t,beta\n0.5,0.25\n")
        for schedule in ("linear", "cosine", "power:0.5", "info-linear", "custom:" + custom):
            with self.subTest(schedule=schedule):
                export_model(CategoricalLogits(4), self.path("cat.pt"), process="categorical",
                             schedule=schedule, num_steps=N, shape=[6], num_classes=4)
                self.assertEqual(contract.load(self.path("cat.pt"))[1]["schedule"], schedule)
                os.unlink(self.path("cat.pt"))
        for schedule, reason in (("uniform", "unknown schedule"),
                                 ("cosine,zero-snr", "unknown schedule"),
                                 ("power:0", "finite number > 0"),
                                 ("custom:" + self.path("none.csv"), "no such file"),
                                 ("x" * 5000, "longer than 4096 bytes")):
            with self.subTest(schedule=schedule[:20]):
                with self.assertRaises(FieldError) as caught:
                    export_model(CategoricalLogits(4), self.path("no.pt"),
                                 process="categorical", schedule=schedule, num_steps=N,
                                 shape=[6], num_classes=4)
                message = str(caught.exception)
                self.assertIn('schedule: "' + schedule[:40], message)
                self.assertIn(reason, message)
                self.assertLess(len(message), 400)
                self.assertFalse(os.path.exists(self.path("no.pt")))

    def test_refusals_name_the_field(self):
        cases = [(dict(schedule="linear,zero-snr", num_steps=1), "schedule"),
                 (dict(schedule="quadratic", num_steps=N), 'schedule: "quadratic"'),
                 (dict(schedule="linear", num_steps=N, prediction="x0"), "prediction"),
                 (dict(schedule="linear", num_steps=N, shape=[2, 2]), "shape")]
        for kwargs, field in cases:
            with self.subTest(field=field):
                kwargs = {"prediction": "epsilon", "shape": [2], **kwargs}
                with self.assertRaises(FieldError) as caught:
                    export_model(make_plain(), self.path("no.pt"), **kwargs)
                self.assertIn(field, str(caught.exception))
                self.assertFalse(os.path.exists(self.path("no.pt")))

    def test_command_line_then_ms_eps(self):
        weights = self.path("weights.pt")
        model = make_unet()
        with torch.no_grad():
            for p in model.parameters():
                p.mul_(0.5)  # differs from what the factory returns
        torch.save(model.state_dict(), weights)
        out = self.path("cli.pt")
        code, err = run_cli(["export", "--factory", "fake_unet:make_unet", "--weights", weights,
                             "--prediction", "sample", "--schedule", "linear", "--num-steps", N,
                             "--shape", "1,8,8", "--out", out])
        self.assertEqual(code, 0, err)
        module, c = contract.load(out)
        self.assertEqual(c["prediction"], "sample")
        x, t = torch.randn(2, 1, 8, 8), torch.tensor([3, 30])
        with torch.no_grad():
            torch.testing.assert_close(module(x, t), model(x, t).sample, rtol=1e-5, atol=1e-6)

        data = self.path("x.npy")
        np.save(data, np.random.default_rng(0).normal(size=(10, 1, 8, 8)).astype(np.float32))
        code, err = run_cli(["ms-eps", "--model", out, "--data", data, "--samples", 3,
                             "--seed", 0, "--out", self.path("g.npy")])
        self.assertEqual(code, 0, err)
        gamma = np.load(self.path("g.npy"))
        self.assertEqual(gamma.shape, (N + 1,))
        self.assertTrue(np.all(np.isfinite(gamma)))

    def test_command_line_refusals(self):
        base = ["export", "--schedule", "linear", "--num-steps", N, "--shape", "1,8,8",
                "--out", self.path("no.pt")]
        for extra, expected in (
                (["--factory", "fake_unet:make_unet"], "--prediction"),
                (["--factory", "fake_unet:nothing", "--prediction", "epsilon"],
                 "--factory: fake_unet:nothing"),
                (["--factory", "fake_unet:make_unet", "--prediction", "epsilon", "--weights",
                  self.path("missing.pt")], "--weights"),
                (["--factory", "fake_unet:make_plain", "--prediction", "epsilon",
                  "--weights", None], "--weights")):
            with self.subTest(expected=expected):
                if None in extra:
                    torch.save({"other.weight": torch.zeros(1)}, self.path("bad.pt"))
                    extra = [self.path("bad.pt") if e is None else e for e in extra]
                code, err = run_cli(base + extra)
                self.assertEqual(code, 2, err)
                self.assertEqual(len(err.strip().splitlines()), 1, err)
                self.assertIn(expected, err)


if __name__ == "__main__":
    unittest.main()
