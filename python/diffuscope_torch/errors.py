"""The error the command-line tools report as one line and exit code 2."""


class FieldError(Exception):
    """A refused input: which field (option, contract key, file), its value and why."""

    def __init__(self, field, value, reason):
        super().__init__(f"{field}: {reason}" if value is None else f"{field}: {value}: {reason}")
        self.field = field
        self.value = value
        self.reason = reason
