"""`diffuscope decode --preset mdlm` against MDLM's own sampler on an exact table denoiser.

`mdlm_sample` below restates `_sample` with the `ddpm_cache` sampler, `_ddpm_caching_update`
and `_sample_categorical` of MDLM's diffusion.py (kuleshov-group/mdlm, Apache License 2.0), with
noise_removal on (its default): the grid torch.linspace(1, 1e-5, N + 1), dt = (1 − 1e-5)/N,
q ∝ p_x0·(t − s) for the values and s for the mask, unmasked tokens copied, and at the end the
argmax of the model's prediction (which for a decoded token is the token itself). The model is
the table's exact denoiser of test_llada_generate (no ties). 20 000 chains per case; the app's
exact law must pass a chi-square test (p > 1e-4)."""
import os
import tempfile
import unittest

from test_llada_generate import BINARY, DRAWS  # the app and the chains per case

try:
    import torch
    from test_llada_generate import check_draws, exact_law, table_cases
except ImportError:  # the tests skip without torch
    torch = None


def _sample_categorical(categorical_probs):
    gumbel_norm = 1e-10 - (torch.rand_like(categorical_probs) + 1e-10).log()
    return (categorical_probs / gumbel_norm).argmax(dim=-1)


def mdlm_sample(model, batch, length, num_steps, mask_index, eps=1e-5):
    x = torch.full((batch, length), mask_index, dtype=torch.long)
    timesteps = torch.linspace(1, eps, num_steps + 1)
    dt = (1 - eps) / num_steps
    for i in range(num_steps):
        t = (timesteps[i] * torch.ones(x.shape[0], 1)).squeeze(-1)
        move_chance_t = t[:, None, None]
        move_chance_s = (t - dt)[:, None, None]
        p_x0 = model(x).exp()
        q_xs = p_x0 * (move_chance_t - move_chance_s)
        q_xs[:, :, mask_index] = move_chance_s[:, :, 0]
        _x = _sample_categorical(q_xs)
        copy_flag = (x != mask_index).to(x.dtype)
        x = copy_flag * x + (1 - copy_flag) * _x
    return model(x).argmax(dim=-1)  # noise_removal


@unittest.skipUnless(torch is not None and os.access(BINARY, os.X_OK),
                     "needs torch and the built app")
class MdlmSampleAgainstApp(unittest.TestCase):
    def test_preset_reproduces_mdlm(self):
        torch.manual_seed(20261208)
        cases = 0
        with tempfile.TemporaryDirectory() as directory:
            for d, path, model in table_cases(directory):
                for steps in (1, 2, 3, 4, 8):
                    with self.subTest(d=d, steps=steps):
                        # The project's schedule (cosine) does not matter: MDLM has its own times.
                        law = exact_law(self, path, "mdlm", steps, schedule="cosine")
                        x = mdlm_sample(model, DRAWS, d, steps, 2)
                        cases += check_draws(self, law, x, DRAWS)
        self.assertEqual(cases, 15)

if __name__ == "__main__":
    unittest.main()
