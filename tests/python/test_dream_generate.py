"""`diffuscope decode --preset dream:…` against Dream's own sampler on an exact table denoiser.

`dream_sample` below restates, step for step, the decoding loop of Dream's
`DreamGenerationMixin._sample` and its `sample_tokens` (DreamLM/Dream,
src/generation_utils.py, Apache License 2.0) for top_p = top_k = None and alg_temp = 0,
without the attention mask and with logits already aligned to their positions (Dream's model
shifts them by one; the table model here predicts each position itself). The grid is
torch.linspace(1, 1e-3, N + 1); `origin` unmasks each masked token with probability 1 − s/t
(all at the last step), the other algorithms take int(M·(1 − s/t)) tokens ranked by the
tempered probability of the value drawn (maskgit_plus), by top-1 − top-2 (topk_margin) or by
Σ p log(p + 1e-10) (entropy). 20 000 chains per case; the app's exact law must pass a
chi-square test (p > 1e-4). The tables are test_llada_generate's, free of ties."""
import os
import tempfile
import unittest

from test_llada_generate import BINARY, DRAWS  # the app and the chains per case

try:
    import torch
    import torch.distributions as dists
    from test_llada_generate import check_draws, exact_law, table_cases
except ImportError:  # the tests skip without torch
    torch = None


def sample_tokens(logits, temperature=0.0, margin_confidence=False, neg_entropy=False):
    if temperature > 0:
        logits = logits / temperature
    probs = torch.softmax(logits, dim=-1)
    if temperature > 0:
        x0 = dists.Categorical(probs=probs).sample()
        confidence = torch.gather(probs, -1, x0.unsqueeze(-1)).squeeze(-1)
    else:
        confidence, x0 = probs.max(dim=-1)
    if margin_confidence:
        sorted_probs, _ = torch.sort(probs, dim=-1, descending=True)
        confidence = sorted_probs[:, 0] - sorted_probs[:, 1]
    if neg_entropy:
        epsilon = 1e-10
        log_probs = torch.log(probs + epsilon)
        confidence = torch.sum(probs * log_probs, dim=-1)
    return confidence, x0


def dream_sample(model, batch, length, steps, temperature, alg, mask_token_id, eps=1e-3):
    x = torch.full((batch, length), mask_token_id, dtype=torch.long)
    timesteps = torch.linspace(1, eps, steps + 1)
    for i in range(steps):
        mask_index = x == mask_token_id
        logits = model(x)
        mask_logits = logits[mask_index]
        t = timesteps[i]
        s = timesteps[i + 1]
        if alg == "origin":
            p_transfer = 1 - s / t if i < steps - 1 else 1
            x0 = torch.zeros_like(x[mask_index], dtype=torch.long) + mask_token_id
            transfer_index_t_s = torch.rand(*x0.shape) < p_transfer
            _, x0[transfer_index_t_s] = sample_tokens(mask_logits[transfer_index_t_s],
                                                      temperature=temperature)
            x[mask_index] = x0.clone()
        else:
            if alg == "maskgit_plus":
                confidence, x0 = sample_tokens(mask_logits, temperature=temperature)
            elif alg == "topk_margin":
                confidence, x0 = sample_tokens(mask_logits, temperature=temperature,
                                               margin_confidence=True)
            else:
                confidence, x0 = sample_tokens(mask_logits, temperature, neg_entropy=True)
            num_mask_token = mask_index.sum() / mask_index.shape[0]
            number_transfer_tokens = (int(num_mask_token * (1 - s / t)) if i < steps - 1
                                      else int(num_mask_token))
            full_confidence = torch.full_like(x, -torch.inf, dtype=logits.dtype)
            full_confidence[mask_index] = confidence
            if number_transfer_tokens > 0:
                _, transfer_index = torch.topk(full_confidence, number_transfer_tokens)
                x_ = torch.zeros_like(x, dtype=torch.long) + mask_token_id
                x_[mask_index] = x0.clone()
                row_indices = torch.arange(x.size(0)).unsqueeze(1).expand_as(transfer_index)
                x[row_indices, transfer_index] = x_[row_indices, transfer_index]
    return x


@unittest.skipUnless(torch is not None and os.access(BINARY, os.X_OK),
                     "needs torch and the built app")
class DreamSampleAgainstApp(unittest.TestCase):
    def test_presets_reproduce_dream(self):
        torch.manual_seed(20261207)
        cases = 0
        with tempfile.TemporaryDirectory() as directory:
            for d, path, model in table_cases(directory):
                for steps in (1, 2, 3, 4):
                    for alg in ("origin", "maskgit_plus", "topk_margin", "entropy"):
                        for temperature in (0.0, 0.5, 1.0):
                            with self.subTest(d=d, steps=steps, alg=alg, temperature=temperature):
                                law = exact_law(self, path, "dream:" + alg, steps,
                                                "--temperature", repr(temperature))
                                x = dream_sample(model, DRAWS, d, steps, temperature, alg, 2)
                                cases += check_draws(self, law, x, DRAWS)
        self.assertEqual(cases, 102)

if __name__ == "__main__":
    unittest.main()
