"""Every file the tool reads or writes goes through here, with the app's rules
(core/io/file_io.cpp): only regular files are read (never a device, a FIFO or a folder), nothing
larger than a stated limit is loaded, outputs are checked before the work that ends in writing
them, and a write either lands whole or leaves the old file exactly as it was: the bytes go to
a temporary file beside the target, are checked and flushed to disk, and only then replace it.
Refusals are FieldErrors naming the option (or file) and the path."""
import errno
import itertools
import os
import stat

from .errors import FieldError
from .limits import format_bytes

_temporaries = itertools.count()


def kind_of(mode):
    """What a file that is not a regular one is, for messages."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _folder_of(path):
    return os.path.dirname(path) or "."


def check_input(path, field, max_bytes):
    """The size of `path`, a regular file (a link counts as its target) of at most max_bytes."""
    if not path:
        raise FieldError(field, None, "the path is empty")
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise FieldError(field, path, "no such file") from None
    except OSError as e:
        raise FieldError(field, path, f"cannot open the file: {e.strerror or e}") from None
    if not stat.S_ISREG(info.st_mode):
        raise FieldError(field, path, f"is {kind_of(info.st_mode)}, not a regular file")
    if info.st_size > max_bytes:
        raise FieldError(field, path, f"the file is {format_bytes(info.st_size)}, more than the "
                                      f"limit of {format_bytes(max_bytes)} for this input")
    return info.st_size


def read_input(path, field, max_bytes):
    """The bytes of `path`, checked as check_input does, before opening and after: opened
    without blocking, so a path swapped for a FIFO in between neither hangs nor passes."""
    check_input(path, field, max_bytes)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError as e:
        raise FieldError(field, path, f"cannot open the file: {e.strerror or e}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FieldError(field, path, f"is {kind_of(info.st_mode)}, not a regular file")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > max_bytes:
                raise FieldError(field, path, f"the file is more than the limit of "
                                              f"{format_bytes(max_bytes)} for this input")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as e:
        raise FieldError(field, path, f"reading the file failed: {e.strerror or e}") from None
    finally:
        os.close(fd)


def output_target(path, field):
    """The file a write to `path` replaces (`path`, or the target of a link to a regular file),
    checked now so that long work does not end in "cannot write": a device, FIFO, socket,
    folder or dangling link is refused, and so is a folder that does not exist or cannot take a
    new file, or an existing file that is write-protected."""
    if not path:
        raise FieldError(field, None, "the path is empty")
    try:
        link = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        folder = _folder_of(path)
        if not os.path.isdir(folder):
            what = "is not a folder" if os.path.exists(folder) else "does not exist"
            raise FieldError(field, path, f"cannot write here: {folder} {what}") from None
        target = path
    except OSError as e:
        raise FieldError(field, path, f"cannot write here: {e.strerror or e}") from None
    else:
        if stat.S_ISLNK(link.st_mode):
            try:
                info = os.stat(path)
            except OSError:
                raise FieldError(field, path, "is a symbolic link whose target does not exist; "
                                              "refusing to replace the link") from None
            if not stat.S_ISREG(info.st_mode):
                raise FieldError(field, path, f"is a symbolic link to {kind_of(info.st_mode)}, "
                                              f"not to a regular file; refusing to write to it")
            target = os.path.realpath(path)
        elif not stat.S_ISREG(link.st_mode):
            raise FieldError(field, path, f"is {kind_of(link.st_mode)}, not a regular file; "
                                          f"refusing to write to it")
        else:
            target = path
    folder = _folder_of(target)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise FieldError(field, path, f"cannot write in the folder {folder}: "
                                      f"{os.strerror(errno.EACCES)}")
    if os.path.exists(target) and not os.access(target, os.W_OK):
        raise FieldError(field, path, "the file is write-protected; refusing to replace it")
    return target


def _identity(path):
    """(st_dev, st_ino) of the file `path` names, links followed; None if there is none."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino


def check_not_an_input(outputs, inputs):
    """Refuses, before any work, an output that is one of the files the command reads: the same
    file (st_dev and st_ino, links followed) whatever the path, so a symbolic or hard link to an
    input is refused too. `outputs` and `inputs` are [(path, option)]; empty paths are skipped.
    The message names both options: "--out: p.json: is the --plan file; choose another output"
    (with the input's path in parentheses when it is written differently)."""
    sources = [(path, option, _identity(path)) for path, option in inputs if path]
    for out, field in outputs:
        if not out:
            continue
        identity = _identity(out)
        if identity is None:
            continue  # a new file is no input
        for path, option, source in sources:
            if source == identity:
                shown = "" if path == out else f" ({path})"
                raise FieldError(field, out, f"is the {option} file{shown}; choose another "
                                             f"output")


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


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _temporary_beside(target):
    # A new name in the target's folder (same file system, so the rename is atomic); O_EXCL,
    # so it is never an existing file, link or FIFO.
    while True:
        tmp = f"{target}.tmp-{os.getpid()}-{next(_temporaries)}"
        try:
            return tmp, os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        except FileExistsError:
            continue


def write_atomic_all(items, field):
    """Replaces each `path` of `items` [(path, bytes)] by its bytes: every file is written to a
    temporary one and flushed to disk before any is renamed, so a full disk leaves all the old
    files as they were and no temporary one behind. Raises FieldError(field, path, why)."""
    targets = [(path, output_target(path, field), bytes(data)) for path, data in items]
    temporaries = []
    current = None
    try:
        for path, target, data in targets:
            current = path
            tmp, fd = _temporary_beside(target)
            temporaries.append(tmp)
            try:
                _write_all(fd, data)
                os.fsync(fd)
                if os.fstat(fd).st_size != len(data):
                    raise OSError(errno.EIO, "the file does not have the size written")
            finally:
                os.close(fd)
        for (path, target, _), tmp in zip(targets, list(temporaries)):
            current = path
            os.replace(tmp, target)
            temporaries.remove(tmp)
    except OSError as e:
        raise FieldError(field, current, f"cannot write the file: {e.strerror or e}") from None
    finally:
        for tmp in temporaries:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    for _, target, _ in targets:
        fsync_dir(target)


def write_atomic(path, data, field="--out"):
    """Replaces `path` by `data` (bytes); on any failure the old file stays as it was."""
    write_atomic_all([(path, data)], field)
