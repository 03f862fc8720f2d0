"""`diffuscope decode --preset remdm:…` against ReMDM's own sampler on an exact table denoiser.

`remdm_sample` below restates `_sample` with the `ddpm_cache` predictor, the `remdm-cap`,
`remdm-rescale`, `remdm-conf` and `remdm-loop` branches of `_ddpm_caching_update`, and
`_sample_categorical` of ReMDM's diffusion.py (kuleshov-group/remdm, Apache License 2.0), with
noise_removal on (its default): MDLM's grid torch.linspace(1, 1e-5, N + 1), α_t = 1 − t and
α_s = 1 − (t − dt) in float32, decoded tokens remasked with σ and masked ones unmasking with
(α_s − (1 − σ)α_t)/(1 − α_t), at the end the model's argmax. As in the code, `conf` keeps the
confidences in bfloat16 and the loop's remasking phase writes α = 0.9 whatever α_on; the app's law
follows the second and computes the confidences in double (a relative change of σ below 2⁻⁸,
far under what 20 000 draws resolve). The model is the table's exact denoiser of
test_llada_generate (no ties). The app's exact law must pass a chi-square test (p > 1e-4)."""
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
    categorical_probs = categorical_probs.to(torch.float64)
    gumbel_norm = 1e-10 - (torch.rand_like(categorical_probs) + 1e-10).log()
    return (categorical_probs / gumbel_norm).argmax(dim=-1)


def _remask_step(p_x0, x, sigma, alpha_t, alpha_s, mask_index):
    """Decoded tokens kept with 1 − σ, masked ones unmasking with (α_s − (1 − σ)α_t)/(1 − α_t);
    σ a number or a (batch, length) tensor."""
    if torch.is_tensor(sigma):
        keep, remask = 1 - sigma[:, :, None], sigma
    else:
        keep, remask = 1 - sigma, sigma
    q_xs = p_x0 * keep
    q_xs[..., mask_index] = remask
    q_xs_2 = p_x0 * ((alpha_s - keep * alpha_t) / (1 - alpha_t))
    q_xs_2[..., mask_index] = (1 - alpha_s - remask * alpha_t) / (1 - alpha_t)
    copy_flag = (x != mask_index).to(torch.bool)
    return _sample_categorical(torch.where(copy_flag.unsqueeze(-1), q_xs, q_xs_2))


def remdm_update(model, x, t, dt, sampler, params, conf, mask_index):
    move_chance_t = t[:, None, None]
    move_chance_s = (t - dt)[:, None, None]
    p_x0 = model(x).exp().to(torch.float32)
    alpha_t = (1 - move_chance_t)[0].item()
    alpha_s = (1 - move_chance_s)[0].item()
    sigma_max = min(1, (1 - alpha_s) / alpha_t) if alpha_t > 0 else 1
    if sampler == "cap":
        sigma = min(params[0], (1 - alpha_s) / alpha_t) if alpha_t > 0 else params[0]
        return _remask_step(p_x0, x, sigma, alpha_t, alpha_s, mask_index), conf
    if sampler == "rescale":
        return _remask_step(p_x0, x, params[0] * sigma_max, alpha_t, alpha_s, mask_index), conf
    if sampler == "conf":
        eta = conf.softmax(dim=-1)
        masked_flag = (x == mask_index).to(torch.bool)
        eta[masked_flag] = 0
        sigma = eta * sigma_max
        xs = _remask_step(p_x0, x, sigma, alpha_t, alpha_s, mask_index)
        unmask_mask = (x == mask_index) & (xs != mask_index)
        batch_indices = torch.arange(xs.shape[0])[:, None]
        feature_indices = torch.arange(xs.shape[1])
        conf_values = -p_x0[batch_indices, feature_indices, xs]
        conf[unmask_mask] = conf_values[unmask_mask].to(conf.dtype)
        remask_mask = (x != mask_index) & (xs == mask_index)
        conf[remask_mask] = -torch.inf
        return xs, conf
    # loop: eta, t_on, t_off, alpha_on
    eta, t_on, t_off, alpha_on = params
    time = t[0].item()
    if time > t_on:
        move_chance_t = (1 - (1 - t) * alpha_on / (1 - t_on))[:, None, None]
        move_chance_s = (1 - (1 - t + dt) * alpha_on / (1 - t_on))[:, None, None]
    elif time <= t_off:
        move_chance_t = (t * (1 - alpha_on) / t_off)[:, None, None]
        move_chance_s = ((t - dt) * (1 - alpha_on) / t_off)[:, None, None]
    if time > t_on or time <= t_off:
        q_xs = p_x0 * (move_chance_t - move_chance_s)
        q_xs[:, :, mask_index] = move_chance_s[:, :, 0]
        _x = _sample_categorical(q_xs)
        copy_flag = (x != mask_index).to(x.dtype)
        return copy_flag * x + (1 - copy_flag) * _x, conf
    sigma = eta
    q_xs = p_x0 * (1 - sigma)
    q_xs[..., mask_index] = sigma
    q_xs_2 = p_x0 * ((0.9 - (1 - sigma) * 0.9) / (1 - 0.9))
    q_xs_2[..., mask_index] = (1 - 0.9 - 0.9 * sigma) / (1 - 0.9)
    copy_flag = (x != mask_index).to(torch.bool)
    return _sample_categorical(torch.where(copy_flag.unsqueeze(-1), q_xs, q_xs_2)), conf


def remdm_sample(model, batch, length, num_steps, sampler, params, mask_index, eps=1e-5):
    x = torch.full((batch, length), mask_index, dtype=torch.long)
    timesteps = torch.linspace(1, eps, num_steps + 1)
    dt = (1 - eps) / num_steps
    conf = -torch.ones_like(x).to(torch.bfloat16) * torch.inf
    for i in range(num_steps):
        t = (timesteps[i] * torch.ones(x.shape[0], 1)).squeeze(-1)
        x, conf = remdm_update(model, x, t, dt, sampler, params, conf, mask_index)
    return model(x).argmax(dim=-1)  # noise_removal


CASES = [("remdm:cap:0.3", "cap", (0.3,)),
         ("remdm:rescale:0.5", "rescale", (0.5,)),
         ("remdm:conf", "conf", ()),
         ("remdm:loop:0.1,0.55,0.05,0.9", "loop", (0.1, 0.55, 0.05, 0.9)),
         ("remdm:loop:0.08,0.6,0.2,0.7", "loop", (0.08, 0.6, 0.2, 0.7))]


@unittest.skipUnless(torch is not None and os.access(BINARY, os.X_OK),
                     "needs torch and the built app")
class RemdmSampleAgainstApp(unittest.TestCase):
    def test_presets_reproduce_remdm(self):
        torch.manual_seed(20261206)
        cases = 0
        with tempfile.TemporaryDirectory() as directory:
            for d, path, model in table_cases(directory):
                for preset, sampler, params in CASES:
                    # Exact `conf` carries every confidence history: N = 8 at D = 4 and
                    # N = 4 at D = 5 take minutes, N = 4 at D = 4 and N = 3 at D = 5 a second.
                    last = 8 if sampler != "conf" else 4 if d < 5 else None
                    for steps in (1, 2, 3, last) if last else (1, 2, 3):
                        with self.subTest(d=d, preset=preset, steps=steps):
                            law = exact_law(self, path, preset, steps)
                            x = remdm_sample(model, DRAWS, d, steps, sampler, params, 2)
                            cases += check_draws(self, law, x, DRAWS)
        self.assertEqual(cases, 59)


if __name__ == "__main__":
    unittest.main()
