"""`diffuscope decode --preset fast-dllm:τ` and `--preset eb:γ` against the reference samplers on
an exact table denoiser.

`fast_dllm_generate` restates `generate()` with a threshold and `get_transfer_index()` of
Fast-dLLM's llada/generate.py (NVlabs/Fast-dLLM, Apache License 2.0), without prompt: per block,
step until the block has no mask; values by float64 Gumbel-max on softmax(l/τ) (τ = 0: argmax);
every masked position of the block whose softmax(l) at the drawn value is ≥ the threshold is
kept, and the most confident one always. `eb_generate` restates the EB-sampler's step
(Ben-Hamu et al. 2025, "Accelerated Sampling from Masked Diffusion Models via Entropy Bounded
Unmasking") as its open implementations run it: log_softmax(l/τ), the masked positions sorted by
entropy, the largest prefix with cumsum(H) − cummax(H) ≤ γ (at least one), values drawn from the
tempered probabilities. Both loops run until nothing is masked, which with N ≥ D steps is the
app's law too (its N is the most steps). The model is the table's exact denoiser of
test_llada_generate (no ties). 20 000 chains per case; the app's exact law must pass a
chi-square test (p > 1e-4), and a law with one outcome must be met by every chain."""
import os
import tempfile
import unittest

from test_llada_generate import BINARY, DRAWS  # the app and the chains per case

try:
    import torch
    import torch.nn.functional as F
    from test_llada_generate import add_gumbel_noise, check_draws, exact_law, table_cases
except ImportError:  # the tests skip without torch
    torch = None


def get_transfer_index(logits, temperature, mask_index, x, threshold):
    x0 = torch.argmax(add_gumbel_noise(logits, temperature), dim=-1)
    p = F.softmax(logits.to(torch.float64), dim=-1)
    x0_p = torch.gather(p, dim=-1, index=x0.unsqueeze(-1)).squeeze(-1)
    x0 = torch.where(mask_index, x0, x)
    neg_inf = torch.tensor(torch.finfo(x0_p.dtype).min, dtype=x0_p.dtype)
    confidence = torch.where(mask_index, x0_p, neg_inf)
    transfer_index = mask_index & (confidence >= threshold)
    max_conf_indices = torch.argmax(confidence, dim=1, keepdim=True)
    force_mask = torch.zeros_like(transfer_index).scatter_(1, max_conf_indices, True)
    return x0, (transfer_index | force_mask) & mask_index


def fast_dllm_generate(model, batch, gen_length, block_length, temperature, threshold, mask_id):
    x = torch.full((batch, gen_length), mask_id, dtype=torch.long)
    for num_block in range(gen_length // block_length):
        while True:
            mask_index = x == mask_id
            logits = model(x)
            mask_index[:, (num_block + 1) * block_length:] = 0
            x0, transfer_index = get_transfer_index(logits, temperature, mask_index, x, threshold)
            x[transfer_index] = x0[transfer_index]
            block = x[:, num_block * block_length:(num_block + 1) * block_length]
            if (block == mask_id).sum() == 0:
                break
    return x


def eb_generate(model, batch, length, temperature, gamma, mask_id):
    x = torch.full((batch, length), mask_id, dtype=torch.long)
    while True:
        masked = x.eq(mask_id)
        if not bool(masked.any()):
            return x
        logits = model(x).clone()
        logits[:, :, mask_id] = -float("inf")
        log_probs = F.log_softmax(logits / temperature, dim=-1)
        probs = log_probs.exp()
        entropy = -(probs * log_probs).nan_to_num(0.0).sum(dim=-1)
        err = entropy.masked_fill(~masked, float("inf"))
        ids_sorted = err.argsort(dim=-1)
        entropy_sorted = entropy.gather(1, ids_sorted)
        cond = (entropy_sorted.cumsum(dim=-1) - entropy_sorted.cummax(dim=-1).values) <= gamma
        k = torch.minimum(cond.sum(dim=-1), masked.sum(dim=-1)).clamp(min=1)
        ranks = torch.empty_like(ids_sorted)
        ranks.scatter_(1, ids_sorted, torch.arange(length).unsqueeze(0).expand(batch, length))
        to_unmask = (ranks < k.unsqueeze(1)) & masked
        gumbel = -(-torch.rand_like(probs).log()).log()
        sampled = (log_probs + gumbel).argmax(dim=-1)
        x = torch.where(to_unmask, sampled, x)


@unittest.skipUnless(torch is not None and os.access(BINARY, os.X_OK),
                     "needs torch and the built app")
class FastDllmAndEbAgainstApp(unittest.TestCase):
    def test_fast_dllm_reproduces_generate(self):
        torch.manual_seed(20261207)
        cases = 0
        with tempfile.TemporaryDirectory() as directory:
            for d, path, model in table_cases(directory):
                for blocks in (1, 2) if d % 2 == 0 else (1,):
                    for threshold in (0.5, 0.7, 1.5):
                        for tau in (0.0, 0.5, 1.0):
                            with self.subTest(d=d, blocks=blocks, threshold=threshold, tau=tau):
                                law = exact_law(self, path, f"fast-dllm:{threshold}", d,
                                                "--temperature", str(tau),
                                                "--blocks", str(blocks))
                                x = fast_dllm_generate(model, DRAWS, d, d // blocks, tau,
                                                       threshold, 2)
                                cases += check_draws(self, law, x, DRAWS)
        self.assertEqual(cases, 24)

    def test_eb_reproduces_the_entropy_bound(self):
        torch.manual_seed(20261209)
        cases = 0
        with tempfile.TemporaryDirectory() as directory:
            for d, path, model in table_cases(directory):
                for gamma in (0.0, 0.3, 1.0):
                    for tau in (0.5, 1.0):
                        with self.subTest(d=d, gamma=gamma, tau=tau):
                            law = exact_law(self, path, f"eb:{gamma}", d, "--temperature",
                                            str(tau))
                            x = eb_generate(model, DRAWS, d, tau, gamma, 2)
                            cases += check_draws(self, law, x, DRAWS)
        self.assertEqual(cases, 18)


if __name__ == "__main__":
    unittest.main()
