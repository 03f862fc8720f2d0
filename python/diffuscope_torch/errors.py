"""The error the command-line tools report as one line and exit code 2, and an argument parser
whose errors are such lines too."""
import argparse


class FieldError(Exception):
    """A refused input: which field (option, contract key, file), its value and why."""

    def __init__(self, field, value, reason):
        super().__init__(f"{field}: {reason}" if value is None else f"{field}: {value}: {reason}")
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
