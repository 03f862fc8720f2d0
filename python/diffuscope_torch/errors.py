"""The error the command-line tools report as one line and exit code 2, and an argument parser
whose errors are such lines too."""
import argparse
import re


def printable(text, max_bytes=None):
    """`text` fit for a one-line message, as the app's core/io/reader_text.cpp makes it:
    control characters (and DEL) become \\n, \\r, \\t or \\xNN (\\uXXXX for the C1 controls and
    U+2028, U+2029, which break lines too); so does each byte of invalid
    UTF-8, which Python holds as a lone surrogate (U+DC80..U+DCFF from a file name, any other
    from a JSON escape: \\uXXXX); at most `max_bytes` UTF-8 bytes of whole characters are kept,
    then "…"."""
    out = []
    used = 0
    for ch in str(text):
        code = ord(ch)
        size = 1 if code < 0x80 or 0xDC80 <= code <= 0xDCFF else \
            2 if code < 0x800 else 3 if code < 0x10000 else 4
        if max_bytes is not None and used + size > max_bytes:
            out.append("…")
            break
        used += size
        if ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        elif 0x80 <= code <= 0x9F or code in (0x2028, 0x2029):
            out.append(f"\\u{code:04x}")  # C1 controls and the Unicode line breaks
        elif 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


class FieldError(Exception):
    """A refused input: which field (option, contract key, file), its value and why. The
    message is one printable line whatever the value holds."""

    def __init__(self, field, value, reason):
        super().__init__(printable(f"{field}: {reason}" if value is None
                                   else f"{field}: {value}: {reason}"))
        self.field = field
        self.value = value
        self.reason = reason


class UsageError(FieldError):
    """A command line argparse refused; its message already names the option."""

    def __init__(self, message):
        Exception.__init__(self, message)
        self.field, self.value, self.reason = None, None, message


class Parser(argparse.ArgumentParser):
    """argparse, but an error is a UsageError (one line, exit code 2 from the top-level
    handler) instead of the usage text and a SystemExit."""

    def error(self, message):
        if message.startswith("argument "):
            message = message[len("argument "):]
        raise UsageError(message)


def integer(text):
    """An argparse type: a whole number written in decimal ("50", not "50.7" or "5e1")."""
    try:
        return int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text}: not a whole number") from None


# The line of a TorchScript error that carries what the network raised: TorchScript prints its
# own header and traceback, then "builtins.ValueError: text" (a Python exception the module
# raised) or "RuntimeError: text" (an operator's error), unindented.
_RAISED = re.compile(r"(?:builtins\.)?([A-Za-z_][A-Za-z0-9_.]*(?:Error|Exception|Warning)): "
                     r"(.*\S)")


def network_message(error):
    """What a network raised, in one line: the last unindented "Name: text" line of a
    TorchScript error (the original exception, without TorchScript's header and traceback), else
    the first line of the message."""
    lines = str(error).strip().splitlines()
    for line in reversed(lines):
        match = _RAISED.fullmatch(line)
        if match:
            return f"{match.group(1)}: {match.group(2)}"
    first = next((line.strip() for line in lines if line.strip()), "")
    return f"{type(error).__name__}: {first}" if first else type(error).__name__


def is_interrupt(error):
    """True when TorchScript wrapped a Ctrl-C (KeyboardInterrupt) in its own error."""
    return str(error).lstrip().startswith("KeyboardInterrupt") or \
        "\nKeyboardInterrupt" in str(error)


def network_error(error, model_path):
    """The FieldError of a network that raised during a forward call."""
    return FieldError("--model", model_path, f"the network raised: {network_message(error)}")
