"""`diffuscope decode --preset llada:…` against LLaDA's own sampler on an exact table denoiser.

`llada_generate` below restates, step for step, `generate()`, `add_gumbel_noise()` and
`get_num_transfer_tokens()` of LLaDA's generate.py (GSAI-ML/LLaDA, MIT licence), without the
prompt and classifier-free guidance (a prompt of length 0, cfg_scale = 0): per block, ⌊M/N_b⌋
tokens a step with the remainder on the first steps; values by float64 Gumbel-max on
softmax(l/τ) (τ = 0: argmax); `low_confidence` keeps the masked positions of the current block
with the largest softmax(l) at the drawn value, `random` ranks them by a uniform draw. The model
is the table's exact denoiser: for each masked position the data's conditional given the
unmasked ones (logits log p, −inf for the mask token). 20 000 chains per case run as one batch;
the app's exact law must pass a chi-square test (p > 1e-4, cells with expected count < 5
pooled), and a law with one outcome must be met by every chain. The tables have no ties in any
conditional nor between the positions' probabilities: at a tie argmax and topk choose by float
rounding and by torch's kernel, which no exact law can follow."""
import itertools
import json
import math
import os
import subprocess
import tempfile
import unittest

try:
    import numpy as np
    import torch
    import torch.nn.functional as F
except ImportError:  # the tests skip without torch
    torch = None

HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.environ.get("DIFFUSCOPE_BINARY") or os.path.join(HERE, "..", "..", "build", "app",
                                                             "diffuscope")
DRAWS = 20000


def add_gumbel_noise(logits, temperature):
    if temperature == 0:
        return logits
    logits = logits.to(torch.float64)
    noise = torch.rand_like(logits, dtype=torch.float64)
    gumbel_noise = (-torch.log(noise)) ** temperature
    return logits.exp() / gumbel_noise


def get_num_transfer_tokens(mask_index, steps):
    mask_num = mask_index.sum(dim=1, keepdim=True)
    base = mask_num // steps
    remainder = mask_num % steps
    num_transfer_tokens = torch.zeros(mask_num.size(0), steps, dtype=torch.int64) + base
    for i in range(mask_num.size(0)):
        num_transfer_tokens[i, :remainder[i]] += 1
    return num_transfer_tokens


def llada_generate(model, batch, gen_length, steps, block_length, temperature, remasking,
                   mask_id):
    x = torch.full((batch, gen_length), mask_id, dtype=torch.long)
    num_blocks = gen_length // block_length
    steps = steps // num_blocks
    for num_block in range(num_blocks):
        block_mask_index = x[:, num_block * block_length:(num_block + 1) * block_length] == mask_id
        num_transfer_tokens = get_num_transfer_tokens(block_mask_index, steps)
        for i in range(steps):
            mask_index = x == mask_id
            logits = model(x)
            logits_with_noise = add_gumbel_noise(logits, temperature=temperature)
            x0 = torch.argmax(logits_with_noise, dim=-1)
            if remasking == "low_confidence":
                p = F.softmax(logits, dim=-1)
                x0_p = torch.squeeze(torch.gather(p, dim=-1, index=torch.unsqueeze(x0, -1)), -1)
            else:
                x0_p = torch.rand((x0.shape[0], x0.shape[1]))
            x0_p[:, (num_block + 1) * block_length:] = -np.inf
            x0 = torch.where(mask_index, x0, x)
            confidence = torch.where(mask_index, x0_p, torch.tensor(-np.inf, dtype=x0_p.dtype))
            transfer_index = torch.zeros_like(x0, dtype=torch.bool)
            for j in range(confidence.shape[0]):
                _, select_index = torch.topk(confidence[j], k=int(num_transfer_tokens[j, i]))
                transfer_index[j, select_index] = True
            x[transfer_index] = x0[transfer_index]
    return x


def table_model(rows, probabilities, k):
    """The exact denoiser of a table as a batched model: logits (batch, D, K + 1)."""
    d = len(rows[0])
    states = list(itertools.product(range(k + 1), repeat=d))
    table = torch.full(((k + 1) ** d, d, k + 1), -math.inf, dtype=torch.float64)
    for state in states:
        code = sum(v * (k + 1) ** i for i, v in enumerate(state))
        for pos in range(d):
            if state[pos] != k:
                table[code, pos, state[pos]] = 0.0  # decoded: its own value
                continue
            weight = [0.0] * k
            for row, p in zip(rows, probabilities):
                if all(state[i] == k or state[i] == row[i] for i in range(d)):
                    weight[row[pos]] += p
            total = sum(weight)
            for v in range(k):
                if total > 0 and weight[v] > 0:
                    table[code, pos, v] = math.log(weight[v] / total)
            if total == 0:
                table[code, pos, :k] = 0.0
    powers = torch.tensor([(k + 1) ** i for i in range(d)], dtype=torch.long)

    def model(x):
        return table[(x * powers).sum(dim=1)]
    return model


def chi_square_p(observed, expected):
    """P(χ² ≥ the statistic) with cells of expected count < 5 pooled."""
    big = [(o, e) for o, e in zip(observed, expected) if e >= 5]
    small_o = sum(o for o, e in zip(observed, expected) if e < 5)
    small_e = sum(e for o, e in zip(observed, expected) if e < 5)
    if small_e > 0:
        big.append((small_o, small_e))
    if len(big) < 2:
        return 1.0
    statistic = sum((o - e) ** 2 / e for o, e in big)
    dof = len(big) - 1
    return float(torch.special.gammaincc(torch.tensor(dof / 2.0, dtype=torch.float64),
                                         torch.tensor(statistic / 2.0, dtype=torch.float64)))


def write_table(directory, d, rows, probabilities):
    """The table as the app reads it (columns x1..xD and p); returns its path."""
    path = os.path.join(directory, f"table{d}.csv")
    with open(path, "w") as f:
        f.write(",".join(f"x{i + 1}" for i in range(d)) + ",p\n")
        for row, p in zip(rows, probabilities):
            f.write(",".join(map(str, row)) + f",{p}\n")
    return path


def exact_law(case, path, preset, steps, *options, schedule="linear"):
    """The app's exact output law of `decode --preset` on the table: {sequence: p}."""
    out = subprocess.run([BINARY, "decode", "--table", path, "--pi", "masked:2", "--schedule",
                          schedule, "--steps", str(steps), "--preset", preset, *options],
                         capture_output=True, text=True)
    case.assertEqual(out.returncode, 0, out.stderr)
    return {tuple(r["x"]): r["p"] for r in json.loads(out.stdout)["distribution"]}


def table_cases(directory):
    """Each of TABLES written into `directory` for the app, with its exact denoiser:
    (D, path, model)."""
    for d, (rows, probabilities) in TABLES.items():
        yield d, write_table(directory, d, rows, probabilities), table_model(rows, probabilities, 2)


def check_draws(case, law, x, draws, mask_id=2):
    """The reference's outputs `x` against the exact law: no mask left, no sequence outside the
    law, a law of one sequence met by every chain, else chi-square p > 1e-4. Returns whether a
    chi-square test was made."""
    case.assertTrue(bool((x != mask_id).all()))
    counts = {}
    for row in x.tolist():
        counts[tuple(row)] = counts.get(tuple(row), 0) + 1
    case.assertTrue(set(counts) <= set(law), counts)
    if len(law) == 1:
        case.assertEqual(set(counts), set(law))
        return False
    keys = sorted(law)
    p = chi_square_p([counts.get(key, 0) for key in keys], [draws * law[key] for key in keys])
    case.assertGreater(p, 1e-4, (law, counts))
    return True


TABLES = {
    3: ([(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1)],
        [0.21, 0.04, 0.13, 0.07, 0.02, 0.17, 0.05, 0.31]),
    4: (list(itertools.product(range(2), repeat=4)),
        [0.083, 0.041, 0.101, 0.016, 0.022, 0.135, 0.028, 0.094, 0.018, 0.128, 0.056, 0.013,
         0.026, 0.111, 0.107, 0.021]),
    5: (list(itertools.product(range(2), repeat=5)),
        [0.0209, 0.0097, 0.0514, 0.0062, 0.0395, 0.0242, 0.0057, 0.0368, 0.0051, 0.03, 0.0061,
         0.0069, 0.0292, 0.0717, 0.0084, 0.0139, 0.0489, 0.0869, 0.0437, 0.0268, 0.0907, 0.0054,
         0.0756, 0.0184, 0.0094, 0.0081, 0.0198, 0.0704, 0.0113, 0.0441, 0.0501, 0.0247]),
}


@unittest.skipUnless(torch is not None and os.access(BINARY, os.X_OK),
                     "needs torch and the built app")
class LladaGenerateAgainstApp(unittest.TestCase):
    def test_presets_reproduce_generate(self):
        torch.manual_seed(20261206)
        cases = 0
        with tempfile.TemporaryDirectory() as directory:
            for d, path, model in table_cases(directory):
                for blocks in (1, 2) if d == 4 else (1,):
                    for steps in (1, 2, 3, 4):
                        if steps % blocks:
                            continue
                        for remasking in ("low_confidence", "random"):
                            for temperature in (0.0, 0.5, 1.0):
                                with self.subTest(d=d, blocks=blocks, steps=steps,
                                                  remasking=remasking, temperature=temperature):
                                    law = exact_law(self, path, "llada:" + remasking, steps,
                                                    "--blocks", str(blocks),
                                                    "--temperature", repr(temperature))
                                    x = llada_generate(model, DRAWS, d, steps, d // blocks,
                                                       temperature, remasking, mask_id=2)
                                    cases += check_draws(self, law, x, DRAWS)
        self.assertEqual(cases, 62)

if __name__ == "__main__":
    unittest.main()
