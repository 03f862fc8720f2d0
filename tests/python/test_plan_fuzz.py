"""The plan reader under mutation: seeded random edits of plans as `diffuscope plan` writes them
(values of another type, special numbers, entries removed or repeated, lists cut, bytes
flipped or cut off) are either read or refused with one line naming --plan; no other exception
escapes. The plan reader's libFuzzer: Python has none in Debian, so the mutations are drawn
here, a few thousand in seconds, the same ones every run."""
import copy
import json
import os
import random
import tempfile
import unittest

from diffuscope_torch.errors import FieldError
from diffuscope_torch.sample import Plan
from test_sample import app_plan

# Values of every JSON type, and numbers at the edges of what a plan holds.
ODD_VALUES = [None, True, False, 0, -1, 1, 2**31, 2**63, -(2**63), 10**400, 0.5, -0.0, 1e-320,
              1e308, float("nan"), float("inf"), float("-inf"), "", "ddim", "x" * 300,
              "\u2028", "\x00", [], [1], [None], {}, {"t": 1}]


def random_path(value, rng):
    """A place in a JSON value, keys and indices: a child of each level drawn uniformly (so the
    plan's 20 entries are as likely as its 1000-long ᾱ), stopping at each level with
    probability 0.4."""
    path = ()
    while isinstance(value, (dict, list)) and value and (not path or rng.random() > 0.4):
        key = rng.choice(list(value.keys())) if isinstance(value, dict) else rng.randrange(len(value))
        path += (key,)
        value = value[key]
    return path


def mutate(plan, rng):
    """One structural edit of a copy of `plan`."""
    plan = copy.deepcopy(plan)
    path = random_path(plan, rng)
    parent = plan
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    kind = rng.randrange(6)
    if kind == 0:
        parent[last] = rng.choice(ODD_VALUES)
    elif kind == 1 and isinstance(parent, dict):
        del parent[last]
    elif kind == 2 and isinstance(parent[last], list) and parent[last]:
        parent[last] = parent[last][:rng.randrange(len(parent[last]))]
    elif kind == 3 and isinstance(parent[last], list) and parent[last]:
        parent[last].append(copy.deepcopy(rng.choice(parent[last])))
    elif (kind == 4 and isinstance(parent[last], (int, float)) and not isinstance(parent[last], bool)
          and abs(parent[last]) < 2**60):
        parent[last] = parent[last] * rng.choice([-1.0, 0.0, 1.0 + 1e-9, 2.0, 1e-300])
    else:
        parent[last] = rng.choice(ODD_VALUES)
    return plan


def as_bytes(plan, rng):
    """The plan's JSON text, sometimes with a byte flipped or the end cut off."""
    text = json.dumps(plan, allow_nan=True).encode()
    roll = rng.random()
    if roll < 0.1 and text:
        at = rng.randrange(len(text))
        text = text[:at] + bytes([rng.randrange(256)]) + text[at + 1:]
    elif roll < 0.15:
        text = text[:rng.randrange(len(text) + 1)]
    return text


class PlanReaderMutations(unittest.TestCase):
    def test_every_mutant_is_read_or_refused_in_one_line(self):
        rng = random.Random(20261205)
        plans = [app_plan("linear", 1000, [1, 2, 10, 500, 1000], "ddpm", 1.0, "analytic", 1.0),
                 app_plan("cosine", 200, list(range(1, 21)), "ddim", 0.3, "small", 0.0),
                 app_plan("cosine,zero-snr", 1000, [1, 250, 1000], "ddim", 0.0, "analytic", 1.0)]
        read = refused = 0
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "p.json")
            for number in range(3000):
                plan = rng.choice(plans)
                for _ in range(rng.choice([1, 1, 2, 3])):
                    plan = mutate(plan, rng)
                with open(path, "wb") as f:
                    f.write(as_bytes(plan, rng))
                try:
                    Plan(path)
                    read += 1
                except FieldError as error:
                    message = str(error)
                    self.assertEqual(len(message.splitlines()), 1, f"mutant {number}: {message!r}")
                    self.assertIn(f"--plan: {path}", message, f"mutant {number}")
                    refused += 1
                except Exception as error:  # noqa: BLE001 - any other escape is the finding
                    with open(path, "rb") as f:
                        text = f.read()[:400]
                    self.fail(f"mutant {number}: {type(error).__name__}: {error}; plan: {text!r}")
        # Most edits break a plan, and some leave it valid (a label the numbers still fit).
        self.assertGreater(refused, 2500)
        self.assertGreater(read, 0)


if __name__ == "__main__":
    unittest.main()
