"""The app's table of what it accepts (core/util/limits.h and core/io/file_io.h), mirrored so
that the tool refuses, before any work or allocation, what the app would refuse."""
from .errors import FieldError


class IntRange:
    def __init__(self, what, low, high):
        self.what, self.min, self.max = what, low, high


STEPS = IntRange("the number of steps N", 1, 100_000)
CLASSES = IntRange("the number of classes K", 2, 256)
POSITIONS = IntRange("the number of positions D", 1, 4096)
CONDITIONS = IntRange("the number of condition labels", 0, 1000)
DIMENSION = IntRange("the data dimension d", 1, 65_536)
GAMMA_SAMPLES = IntRange("the number of Monte Carlo samples of Γ", 2, 10_000_000)
BATCH = IntRange("the batch size", 1, 65_536)
SEED = IntRange("the seed", 0, 2**64 - 1)  # the app's seeds are 64-bit unsigned
CSV_COLUMNS = IntRange("the number of columns of a CSV file", 1, 65_536)

MAX_WORKING_BYTES = 4e9            # the most memory one computation may ask for
MAX_INPUT_FILE_BYTES = 256 << 20   # tables, schedules, progress files
MAX_MODEL_FILE_BYTES = 2 << 30     # model archives and weights


def format_bytes(count):
    """'512 bytes', '2.1 GB', '34 GB' (SI units), as the app writes sizes."""
    units = ("bytes", "kB", "MB", "GB", "TB", "PB")
    count, unit = float(count), 0
    while count >= 1000.0 and unit < len(units) - 1:
        count /= 1000.0
        unit += 1
    if unit == 0:
        return f"{count:.0f} bytes"
    return f"{count:.1f} {units[unit]}" if count < 10 else f"{count:.0f} {units[unit]}"


def check_range(limit, field, value):
    """`value` (an int, not a bool) within `limit`, or a FieldError naming field and value."""
    if isinstance(value, bool) or not isinstance(value, int) or \
            not limit.min <= value <= limit.max:
        raise FieldError(field, value, f"{limit.what} must lie between {limit.min} and "
                                       f"{limit.max}")
    return value


def check_memory(field, value, formula, count):
    """`count` bytes (what `formula` needs) within MAX_WORKING_BYTES, or a FieldError."""
    if not count <= MAX_WORKING_BYTES:
        raise FieldError(field, value, f"needs {formula} = {format_bytes(count)} of memory, "
                                       f"more than the {format_bytes(MAX_WORKING_BYTES)} one "
                                       f"computation may use")
