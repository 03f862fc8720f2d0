"""Gaussian noise schedules, computed in float64 the way the C++ app computes them
(core/schedule/gaussian_schedule.cpp) so that both sides see the same ᾱ_n and β̄_n: scalar
`math` functions, which call the C library like std::log1p and std::cos do (numpy's own
vectorised versions may differ in the last bits), in the same order of operations.

Arrays have N + 1 entries, index n = 0..N, with ᾱ_0 = 1 and β̄_0 = 0.
"""
import csv
import io
import math
import re

import numpy as np

from . import limits
from .errors import FieldError
from .files import read_input

ZERO_SNR_SUFFIX = ",zero-snr"


class ScheduleError(ValueError):
    """A schedule that cannot be built; field and value name what was refused."""

    def __init__(self, field, value, reason):
        super().__init__(f"{field}: {value!r}: {reason}")
        self.field = field
        self.value = value
        self.reason = reason


class GaussianSchedule:
    """β_n, ᾱ_n, β̄_n = 1 − ᾱ_n and log ᾱ_n for n = 0..N (float64 numpy arrays)."""

    def __init__(self, beta, alpha_bar, beta_bar, log_alpha_bar):
        self.beta = np.asarray(beta, dtype=np.float64)
        self.alpha_bar = np.asarray(alpha_bar, dtype=np.float64)
        self.beta_bar = np.asarray(beta_bar, dtype=np.float64)
        self.log_alpha_bar = np.asarray(log_alpha_bar, dtype=np.float64)

    @property
    def num_steps(self):
        return len(self.beta) - 1

    @classmethod
    def from_betas(cls, betas, field):
        if len(betas) == 0:
            raise ScheduleError(field, "0 values", "a schedule needs at least one β_n")
        n = len(betas)
        beta = [0.0] * (n + 1)
        alpha_bar = [1.0] * (n + 1)
        beta_bar = [0.0] * (n + 1)
        log_alpha_bar = [0.0] * (n + 1)
        for i in range(1, n + 1):
            b = float(betas[i - 1])
            if not (0.0 < b < 1.0):  # NaN fails too
                raise ScheduleError(f"{field}[{i}]", b, "β_n must lie in the open interval (0, 1)")
            beta[i] = b
            # Sums of log1p(−β) rather than a product of (1 − β): β̄_n stays accurate near 0.
            log_alpha_bar[i] = log_alpha_bar[i - 1] + math.log1p(-b)
            alpha_bar[i] = math.exp(log_alpha_bar[i])
            beta_bar[i] = -math.expm1(log_alpha_bar[i])
        if not alpha_bar[n] > 0.0:
            raise ScheduleError(field, f"{n} values",
                                "ᾱ_N underflows to 0: the schedule destroys the data too fast")
        return cls(beta, alpha_bar, beta_bar, log_alpha_bar)

    def with_zero_terminal_snr(self, spec):
        """Rescaled so that ᾱ_N = 0 while ᾱ_1 is kept (Lin et al. 2024)."""
        n_steps = self.num_steps
        if n_steps < 2:
            raise ScheduleError("schedule", spec, "the zero-SNR transform needs N ≥ 2")
        la = list(self.log_alpha_bar)
        s1 = math.exp(0.5 * la[1])
        sN = math.exp(0.5 * la[n_steps])
        span = s1 - sN
        beta = [0.0] * (n_steps + 1)
        alpha_bar = [1.0] * (n_steps + 1)
        beta_bar = [0.0] * (n_steps + 1)
        log_alpha_bar = [0.0] * (n_steps + 1)
        # log ᾱ'_n = log ᾱ_1 + 2·log((s_n − s_N)/(s_1 − s_N)): exactly log ᾱ_1 at n = 1, −∞ at N.
        for n in range(1, n_steps + 1):
            sn = s1 if n == 1 else math.exp(0.5 * la[n])
            ratio = 0.0 if n == n_steps else (sn - sN) / span
            log_alpha_bar[n] = la[1] + 2.0 * (math.log(ratio) if ratio > 0.0 else -math.inf)
            alpha_bar[n] = math.exp(log_alpha_bar[n])
            beta_bar[n] = -math.expm1(log_alpha_bar[n])
            diff = log_alpha_bar[n] - log_alpha_bar[n - 1]
            beta[n] = 1.0 if diff == -math.inf else -math.expm1(diff)
            last = n == n_steps
            if not (beta[n] > 0.0 and (beta[n] == 1.0 if last else beta[n] < 1.0)):
                raise ScheduleError("schedule", spec, f"the zero-SNR transform gives "
                                    f"β_{n} = {beta[n]!r}, outside (0, 1)")
        return GaussianSchedule(beta, alpha_bar, beta_bar, log_alpha_bar)


def _linspace_at(start, stop, num, k):
    # numpy.linspace(start, stop, num)[k]: start + k·step, the last point set to stop exactly.
    if num == 1:
        return start
    if k == num - 1:
        return stop
    step = (stop - start) / (num - 1)
    return start + k * step


def _check_steps(num_steps):
    # N as the app takes it: a whole number within its limit, checked before any allocation.
    if isinstance(num_steps, bool) or not isinstance(num_steps, (int, np.integer)):
        raise ScheduleError("num_steps", num_steps, "a whole number is expected")
    n = int(num_steps)
    if n < 1:
        raise ScheduleError("num_steps", num_steps, "needs at least 1 timestep")
    if n > limits.STEPS.max:
        raise ScheduleError("num_steps", num_steps, f"{limits.STEPS.what} must lie between "
                            f"{limits.STEPS.min} and {limits.STEPS.max}")
    return n


def linear(num_steps):
    """β_n = linspace(c·1e−4, c·0.02, N)[n−1] with c = 1000/N."""
    n = _check_steps(num_steps)
    scale = 1000.0 / n
    return GaussianSchedule.from_betas(
        [_linspace_at(scale * 1e-4, scale * 0.02, n, k) for k in range(n)], "linear schedule β")


def cosine(num_steps):
    """β_n = min(1 − f(n/N)/f((n−1)/N), 0.999), f(u) = cos²(((u + 0.008)/1.008)·π/2)."""
    n = _check_steps(num_steps)

    def f(u):
        c = math.cos((u + 0.008) / 1.008 * math.pi / 2.0)
        return c * c

    return GaussianSchedule.from_betas(
        [min(1.0 - f(i / n) / f((i - 1) / n), 0.999) for i in range(1, n + 1)],
        "cosine schedule β")


def scaled_linear(num_steps, beta_start=0.00085, beta_end=0.012):
    """β_n = linspace(√b0, √b1, N)[n−1]²."""
    n = _check_steps(num_steps)
    lo, hi = math.sqrt(beta_start), math.sqrt(beta_end)
    betas = []
    for k in range(n):
        r = _linspace_at(lo, hi, n, k)
        betas.append(r * r)
    return GaussianSchedule.from_betas(betas, "scaled-linear schedule β")


def sigmoid(num_steps, beta_start=1e-4, beta_end=0.02):
    """β_n = b0 + (b1 − b0)·σ(linspace(−6, 6, N)[n−1])."""
    n = _check_steps(num_steps)
    betas = [beta_start + (beta_end - beta_start) / (1.0 + math.exp(-_linspace_at(-6.0, 6.0, n, k)))
             for k in range(n)]
    return GaussianSchedule.from_betas(betas, "sigmoid schedule β")


def _csv_lines(text, path):
    # Lines for csv.reader, refused before splitting one into more cells than the app takes.
    for number, line in enumerate(io.StringIO(text, newline=""), start=1):
        if line.count(",") >= limits.CSV_COLUMNS.max:
            raise ScheduleError(f"{path}: line {number}", f"{line.count(',') + 1} cells",
                                f"{limits.CSV_COLUMNS.what} must lie between "
                                f"{limits.CSV_COLUMNS.min} and {limits.CSV_COLUMNS.max}")
        yield line


def from_csv(path):
    """A CSV with a `beta` column (β_1..β_N) or an `alpha_bar` column (decreasing ᾱ_1..ᾱ_N),
    and an optional `n` column that must read 1..N. The file must be a regular one of at most
    the app's input limit, and N at most the app's limit, checked while reading."""
    spec = f"csv:{path}"
    try:
        data = read_input(path, "schedule", limits.MAX_INPUT_FILE_BYTES)
    except FieldError as e:
        raise ScheduleError("schedule", spec, e.reason) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ScheduleError("schedule", spec, f"not UTF-8 text (byte {e.start})") from None
    del data
    header, column, n_column = None, -1, -1
    betas = []
    previous = 1.0
    r = 0
    try:
        for row in csv.reader(_csv_lines(text, path)):
            if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
                continue
            if header is None:
                header = [h.strip() for h in row]
                column = header.index("beta") if "beta" in header else (
                    header.index("alpha_bar") if "alpha_bar" in header else -1)
                if column < 0:
                    raise ScheduleError("schedule", spec, "a custom schedule needs a 'beta' or "
                                        "an 'alpha_bar' column")
                n_column = header.index("n") if "n" in header else -1
                continue
            r += 1
            if r > limits.STEPS.max:
                raise ScheduleError("schedule", spec, f"the file has more than "
                                    f"{limits.STEPS.max} rows; {limits.STEPS.what} must lie "
                                    f"between {limits.STEPS.min} and {limits.STEPS.max}")
            try:
                if n_column >= 0 and int(row[n_column]) != r:
                    raise ScheduleError(f"{path}: row {r}", row[n_column],
                                        f"n must count 1, 2, … without gaps (expected {r})")
                value = float(row[column])
            except (ValueError, IndexError) as e:
                if isinstance(e, ScheduleError):
                    raise
                raise ScheduleError(f"{path}: row {r}", ",".join(row), "not a number") from None
            if header[column] == "beta":
                betas.append(value)
            else:
                if not (0.0 < value < previous):
                    raise ScheduleError(f"{path}: row {r}", value,
                                        "alpha_bar must decrease strictly and stay in (0, 1)")
                betas.append(1.0 - value / previous)
                previous = value
    except csv.Error as e:
        raise ScheduleError("schedule", spec, f"not a CSV file ({e})") from None
    if header is None or not betas:
        raise ScheduleError("schedule", spec, "the schedule has no rows")
    return GaussianSchedule.from_betas(betas, path)


DIFFUSERS_PREFIX = "diffusers:"
_DIFFUSERS_BETA_SCHEDULES = ("linear", "scaled_linear", "squaredcos_cap_v2", "sigmoid")
_DIFFUSERS_SPACINGS = ("linspace", "leading", "trailing")
_DIFFUSERS_PREDICTIONS = ("epsilon", "sample", "v_prediction")
# The scheduler classes that space K + 1 points and drop the last (core/schedule/diffusers_config.h).
_DROPS_LAST_POINT = ("DPMSolverMultistepScheduler", "UniPCMultistepScheduler")
_MAX_DIFFUSERS_CONFIG_BYTES = 16 << 20
_f32 = np.float32


def _torch_linspace(start, end, steps):
    # torch.linspace(start, end, steps, dtype=float32) on the CPU: the step in float, the first
    # half counted up from start, the second down from end, every operation in float.
    start, end = _f32(start), _f32(end)
    if steps == 1:
        return [start]
    step = (end - start) / _f32(steps - 1)
    half = steps // 2
    return [start + step * _f32(i) if i < half else end - step * _f32(steps - i - 1)
            for i in range(steps)]


def _torch_cumprod(values):
    # torch.cumprod of float32 on the CPU: a double running product, each entry stored as float.
    out, product = [], 1.0
    for v in values:
        product *= float(v)
        out.append(_f32(product))
    return out


def _rescale_zero_terminal_snr(betas):
    alphas = [_f32(1.0) - b for b in betas]
    s = [_f32(math.sqrt(float(a))) for a in _torch_cumprod(alphas)]
    s0, sT = s[0], s[-1]
    factor = s0 / (s0 - sT)
    s = [(v - sT) * factor for v in s]
    alpha_bar = [v * v for v in s]
    return [_f32(1.0) - alpha_bar[0]] + [_f32(1.0) - alpha_bar[i] / alpha_bar[i - 1]
                                         for i in range(1, len(s))]


def read_diffusers_config(path):
    """A diffusers scheduler_config.json as the app reads it (core/schedule/diffusers_config):
    a dict of the keys used (num_train_timesteps, beta_schedule, beta_start, beta_end,
    trained_betas, rescale_betas_zero_snr, timestep_spacing, steps_offset, prediction_type,
    _class_name)
    and `unknown_keys`. A key of the wrong type or value raises ScheduleError naming it."""
    import json
    try:
        data = read_input(path, "schedule", _MAX_DIFFUSERS_CONFIG_BYTES)
    except FieldError as e:
        raise ScheduleError("schedule", DIFFUSERS_PREFIX + str(path), e.reason) from None
    try:
        json_object = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise ScheduleError(str(path), "", f"not JSON ({e})") from None
    if not isinstance(json_object, dict):
        raise ScheduleError(str(path), json_object, "a diffusers scheduler config is a JSON object")
    config = {"num_train_timesteps": 1000, "beta_schedule": "linear", "beta_start": 0.0001,
              "beta_end": 0.02, "trained_betas": None, "rescale_betas_zero_snr": False,
              "timestep_spacing": "", "steps_offset": 0, "prediction_type": "",
              "_class_name": "", "unknown_keys": []}

    def refuse(key, value, why):
        raise ScheduleError(f"{path}: {key}", value, why)

    def whole(value):
        return isinstance(value, int) and not isinstance(value, bool)

    for key, value in json_object.items():
        if key == "num_train_timesteps":
            if not whole(value) or not limits.STEPS.min <= value <= limits.STEPS.max:
                refuse(key, value, f"expected a whole number in {limits.STEPS.min}.."
                                   f"{limits.STEPS.max}")
        elif key in ("beta_start", "beta_end"):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                    not 0.0 < value < 1.0:
                refuse(key, value, "expected a number in (0, 1)")
            value = float(value)
        elif key == "beta_schedule":
            if value not in _DIFFUSERS_BETA_SCHEDULES:
                refuse(key, value, "expected " + ", ".join(_DIFFUSERS_BETA_SCHEDULES))
        elif key == "trained_betas":
            if value is not None:
                if not isinstance(value, list) or not value or any(
                        isinstance(v, bool) or not isinstance(v, (int, float)) for v in value):
                    refuse(key, value, "expected null or a list of numbers")
                value = [float(v) for v in value]
        elif key == "rescale_betas_zero_snr":
            if not isinstance(value, bool):
                refuse(key, value, "expected true or false")
        elif key == "timestep_spacing":
            if value not in _DIFFUSERS_SPACINGS:
                refuse(key, value, "expected " + ", ".join(_DIFFUSERS_SPACINGS))
        elif key == "steps_offset":
            if not whole(value) or not 0 <= value <= limits.STEPS.max:
                refuse(key, value, "expected a whole number ≥ 0")
        elif key == "_class_name":
            if not isinstance(value, str) or not value:
                refuse(key, value, "expected the scheduler's class name")
        elif key == "prediction_type":
            if value not in _DIFFUSERS_PREDICTIONS:
                refuse(key, value, "expected " + ", ".join(_DIFFUSERS_PREDICTIONS))
        else:
            config["unknown_keys"].append(key)
            continue
        config[key] = value
    betas = config["trained_betas"]
    if betas is not None and len(betas) != config["num_train_timesteps"]:
        refuse("trained_betas", f"{len(betas)} values",
               f"num_train_timesteps is {config['num_train_timesteps']}")
    if betas is None and config["beta_schedule"] != "squaredcos_cap_v2" and \
            not config["beta_start"] <= config["beta_end"]:
        refuse("beta_start", config["beta_start"],
               f"beta_start must not exceed beta_end = {config['beta_end']!r}")
    return config


def diffusers_tables(config, where="diffusers config"):
    """β and ᾱ (float32 lists) as diffusers' DDPMScheduler computes them on the CPU."""
    n = config["num_train_timesteps"]
    start, end = config["beta_start"], config["beta_end"]
    kind = config["beta_schedule"]
    if config["trained_betas"] is not None:
        betas = [_f32(b) for b in config["trained_betas"]]
    elif kind == "linear":
        betas = _torch_linspace(start, end, n)
    elif kind == "scaled_linear":
        betas = [b * b for b in _torch_linspace(math.sqrt(start), math.sqrt(end), n)]
    elif kind == "squaredcos_cap_v2":
        def f(t):
            c = math.cos((t + 0.008) / 1.008 * math.pi / 2.0)
            return c * c
        betas = [_f32(min(1.0 - f((i + 1) / n) / f(i / n), 0.999)) for i in range(n)]
    else:
        scale, offset = _f32(end - start), _f32(start)
        betas = [_f32(1.0 / (1.0 + math.exp(-float(x)))) * scale + offset
                 for x in _torch_linspace(-6.0, 6.0, n)]
    if config["rescale_betas_zero_snr"]:
        if n < 2:
            raise ScheduleError(f"{where}: rescale_betas_zero_snr", True,
                                "the rescale needs num_train_timesteps ≥ 2")
        betas = _rescale_zero_terminal_snr(betas)
    return betas, _torch_cumprod([_f32(1.0) - b for b in betas])


def from_diffusers(path, num_steps=0):
    """The schedule of a diffusers scheduler_config.json, the floats held in double (as the
    app's diffusers:FILE); a num_steps other than num_train_timesteps is refused."""
    config = read_diffusers_config(path)
    n = config["num_train_timesteps"]
    if num_steps and int(num_steps) > 0 and int(num_steps) != n:
        raise ScheduleError("num_steps", num_steps, f"{path} has num_train_timesteps = {n}")
    betas, alpha_bars = diffusers_tables(config, str(path))
    beta, alpha_bar, beta_bar, log_alpha_bar = [0.0], [1.0], [0.0], [0.0]
    for i in range(1, n + 1):
        b, a = float(betas[i - 1]), float(alpha_bars[i - 1])
        zero_snr_end = i == n and n >= 2 and b == 1.0 and a == 0.0
        if not zero_snr_end and not 0.0 < b < 1.0:
            raise ScheduleError(f"{path} β[{i}]", b, "β_n must lie in the open interval (0, 1)")
        if not zero_snr_end and not 0.0 < a < alpha_bar[-1]:
            raise ScheduleError(f"{path} ᾱ[{i}]", a,
                                "ᾱ_n must decrease strictly and stay in (0, 1)")
        beta.append(b)
        alpha_bar.append(a)
        beta_bar.append(1.0 - a)
        log_alpha_bar.append(-math.inf if zero_snr_end else math.log(a))
    return GaussianSchedule(beta, alpha_bar, beta_bar, log_alpha_bar)


def diffusers_trajectory_spec(config, num_timesteps):
    """The trajectory a config's timestep_spacing names for K timesteps, or ""."""
    spacing = config["timestep_spacing"]
    if not spacing:
        return ""
    spec = f"{spacing}:{num_timesteps}"
    if spacing == "leading" and config["steps_offset"]:
        spec += f",offset={config['steps_offset']}"
    # The class where its arithmetic (or Euler's float32 sigmas) differs from DDIMScheduler's.
    name = config["_class_name"]
    if name == "EulerDiscreteScheduler" or (name in _DROPS_LAST_POINT and spacing != "trailing"):
        spec += f",class={name}"
    return spec


def gaussian_schedule(spec, num_steps):
    """The schedule a spec names: linear, cosine, scaled-linear, sigmoid, csv:FILE or
    diffusers:FILE, each optionally followed by ",zero-snr"."""
    spec = str(spec)
    if spec.endswith(ZERO_SNR_SUFFIX) and len(spec) > len(ZERO_SNR_SUFFIX):
        base_spec = spec[:-len(ZERO_SNR_SUFFIX)]
        try:
            base = gaussian_schedule(base_spec, num_steps)
        except ScheduleError as e:
            if e.field == "schedule" and e.value == base_spec:
                raise ScheduleError("schedule", spec, e.reason) from None  # name what was typed
            raise
        return base.with_zero_terminal_snr(spec)
    if spec.startswith("csv:"):
        schedule = from_csv(spec[4:])
        if num_steps and int(num_steps) > 0 and schedule.num_steps != int(num_steps):
            raise ScheduleError("num_steps", num_steps,
                                f"the schedule file has {schedule.num_steps} steps")
        return schedule
    if spec.startswith(DIFFUSERS_PREFIX):
        return from_diffusers(spec[len(DIFFUSERS_PREFIX):], num_steps)
    builders = {"linear": linear, "cosine": cosine, "scaled-linear": scaled_linear,
                "sigmoid": sigmoid}
    if spec not in builders:
        raise ScheduleError("schedule", spec, "expected linear, cosine, scaled-linear, sigmoid, "
                            "csv:FILE or diffusers:FILE, optionally followed by ,zero-snr")
    return builders[spec](num_steps)


# A number as C's strtod reads all of a text (the app parses power:P and the CSV cells of a
# custom β(t) with it): leading white space, decimal or hexadecimal, inf, infinity or nan.
_STRTOD = re.compile(r"[ \t\n\v\f\r]*(?P<sign>[+-]?)(?:"
                     r"(?P<hex>0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)"
                     r"(?:[pP][+-]?[0-9]+)?)"
                     r"|(?P<dec>(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
                     r"|(?P<inf>[iI][nN][fF](?:[iI][nN][iI][tT][yY])?)"
                     r"|(?P<nan>[nN][aA][nN](?:\([0-9A-Za-z_]*\))?))")


def strtod(text):
    """The double C's strtod makes of all of `text`, or None where it would stop early."""
    match = _STRTOD.fullmatch(text)
    if match is None:
        return None
    sign = -1.0 if match["sign"] == "-" else 1.0
    if match["hex"]:
        digits = match["hex"]
        if "p" not in digits.lower():
            digits += "p0"
        return sign * float.fromhex(digits)
    if match["dec"]:
        return sign * float(match["dec"])  # a decimal beyond a double is ±inf, as with strtod
    return sign * math.inf if match["inf"] else math.nan


def _csv_trim(text):
    return text.strip(" \t\r")


def _custom_curve(path, spec):
    """Checks a custom β(t) file as the app reads it (core/io/csv.cpp, core/schedule/
    beta_curve.cpp: readCustomCurve, customCurve): columns t and beta, t increasing strictly in
    [0, 1], β nondecreasing in [0, 1], β(0) = 0 and β(1) = 1 where t reaches 0 or 1."""
    try:
        data = read_input(path, "schedule", limits.MAX_INPUT_FILE_BYTES)
    except FieldError as e:
        raise ScheduleError(e.field, e.value, e.reason) from None
    text = data.decode("utf-8", "surrogateescape")
    if text.startswith("\ufeff"):
        text = text[1:]
    del data
    header, rows = None, []
    for number, line in enumerate(text.split("\n"), start=1):
        line = _csv_trim(line)
        if not line or line.startswith("#"):
            continue
        if line.count(",") + 1 > limits.CSV_COLUMNS.max:
            raise ScheduleError(f"{path}:{number}", f"{line.count(',') + 1} fields",
                                f"more than {limits.CSV_COLUMNS.max} columns, the limit of a "
                                f"CSV file")
        fields = [_csv_trim(f) for f in line.split(",")]
        if header is None:
            named = [f for f in fields if f]
            if len(set(named)) != len(named):
                repeated = next(f for f in named if named.count(f) > 1)
                raise ScheduleError(f"{path}:{number} column '{repeated}'", "",
                                    "the column name appears twice")
            header = fields
            continue
        if len(fields) != len(header):
            raise ScheduleError(f"{path}:{number}", f"{len(fields)} fields",
                                f"a row has a different number of fields than the header "
                                f"({len(header)})")
        rows.append((number, fields))
    if header is None:
        raise ScheduleError(path, "", "the file is empty (no header line)")
    if not rows:
        raise ScheduleError(path, "", "the file has no data rows")
    for name in ("t", "beta"):
        if name not in header:
            raise ScheduleError(path, name, f"the header has no column named '{name}'")
    t_column, beta_column = header.index("t"), header.index("beta")
    points = []
    for number, fields in rows:
        point = []
        for column, name in ((t_column, "t"), (beta_column, "beta")):
            value = strtod(fields[column]) if fields[column] else None
            where = f"{path}:{number} column '{name}'"
            if value is None:
                raise ScheduleError(where, fields[column], "not a number")
            if not math.isfinite(value):
                raise ScheduleError(where, fields[column], "the number must be finite")
            point.append(value)
        points.append((number, point[0], point[1]))
    previous = None
    for number, t, beta in points:
        if not 0.0 <= t <= 1.0:
            raise ScheduleError(f"{path}:{number} column 't'", t, "t must lie in [0, 1]")
        if not 0.0 <= beta <= 1.0:
            raise ScheduleError(f"{path}:{number} column 'beta'", beta, "β must lie in [0, 1]")
        if previous is not None and not t > previous[1]:
            raise ScheduleError(f"{path}:{number} column 't'", t,
                                f"control points are out of order: t must increase strictly "
                                f"(previous t = {previous[1]!r})")
        if previous is not None and beta < previous[2]:
            raise ScheduleError(f"{path}:{number} column 'beta'", beta,
                                f"β(t) must be nondecreasing (previous β = {previous[2]!r})")
        previous = (number, t, beta)
    first, last = points[0], points[-1]
    if first[1] == 0.0 and first[2] != 0.0:
        raise ScheduleError(f"{path}:{first[0]} column 'beta'", first[2], "β(0) must be 0")
    if last[1] == 1.0 and last[2] != 1.0:
        raise ScheduleError(f"{path}:{last[0]} column 'beta'", last[2], "β(1) must be 1")


def check_categorical(spec):
    """A categorical β(t) as the app's parseBetaCurve takes it: linear, cosine, power:P (P a
    finite number > 0), custom:FILE (a valid file, read now) or info-linear (built from the data
    it is used with). Raises ScheduleError."""
    spec = str(spec)
    ident, colon, parameter = spec.partition(":")
    if ident in ("linear", "cosine", "info-linear") and not colon:
        return
    if ident == "power":
        exponent = strtod(parameter) if parameter else None
        if exponent is None:
            raise ScheduleError("schedule", spec, "the exponent of power:P is not a number")
        if not (math.isfinite(exponent) and exponent > 0.0):
            raise ScheduleError("schedule", spec,
                                "the exponent p of β(t) = t^p must be a finite number > 0")
        return
    if ident == "custom" and parameter:
        _custom_curve(parameter, spec)
        return
    raise ScheduleError("schedule", spec, "unknown schedule (expected linear, cosine, power:P, "
                        "custom:FILE or info-linear)")
