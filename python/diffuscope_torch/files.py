"""Writing files so that a crash or a full disk never leaves a half-written one: the bytes go to
a temporary file beside the target, are checked and flushed to disk, and only then replace it."""
import os


def fsync_dir(path):
    """Flushes the folder holding `path`, so a rename into it survives a crash."""
    try:
        fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(path, data):
    """Replaces `path` by `data` (bytes); on any failure the old file stays as it was."""
    tmp = f"{path}.partial"
    try:
        with open(tmp, "wb") as f:
            if f.write(data) != len(data):
                raise OSError(f"{tmp}: short write")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    fsync_dir(path)
