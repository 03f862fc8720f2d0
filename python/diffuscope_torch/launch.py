"""run --nproc N COMMAND …: starts N ranks of `python3 -m diffuscope_torch COMMAND …` on this
machine, as torchrun --standalone would, but without torchrun: its launcher differs between
torch versions (torch 1.13 on Python ≥ 3.11 cannot parse its own stream defaults) and reports a
failed rank with a traceback. The ranks find each other through torch.distributed's env://
rendezvous (MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE)."""
import os
import signal
import socket
import subprocess
import sys
import time

from .errors import FieldError, Parser, integer

MAX_PROCESSES = 1024
# After a rank fails, how long the others may take to end on their own before they are stopped.
GRACE_SECONDS = 5.0
PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMANDS = ("ms-eps",)


def build_parser(prog):
    p = Parser(prog=prog, description="Runs COMMAND in N processes on this machine (ranks "
                                      "0..N−1), each with its own GPU under --device cuda.",
               epilog="Every rank's standard output and error go to the console; the exit code "
                      "is the first failing rank's (the others are then stopped), else 0.")
    p.add_argument("--nproc", required=True, type=integer, help="number of ranks (≥ 1)")
    p.add_argument("command", help="the command each rank runs: " + ", ".join(COMMANDS))
    return p


def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _option(argv, name, default):
    """The value of `name` in argv (--name V or --name=V; the last one wins), else default."""
    value = default
    for i, a in enumerate(argv):
        if a == name and i + 1 < len(argv):
            value = argv[i + 1]
        elif a.startswith(name + "="):
            value = a[len(name) + 1:]
    return value


def usable_cores():
    """The cores this process may run on (its CPU affinity), which its ranks share."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def check_devices(argv, nproc):
    """More ranks than the device allows is refused before any rank starts: on the CPU
    (--device cpu, or auto on a machine without CUDA) more than the cores this process may use,
    naming --nproc; with CUDA more than the GPUs, naming --device."""
    device = _option(argv, "--device", "auto")
    on_gpu = device.startswith("cuda")
    if device == "auto":
        import torch
        on_gpu = torch.cuda.is_available()
    if not on_gpu:
        if device not in ("cpu", "auto"):
            return  # not a device: the ranks refuse it, naming --device
        cores = usable_cores()
        if nproc > cores:
            raise FieldError("--nproc", nproc, f"more ranks than the {cores} core"
                             f"{'' if cores == 1 else 's'} this process may use on the CPU "
                             f"(--device {device}"
                             f"{' and no CUDA here' if device == 'auto' else ''}); use at most "
                             f"{cores}")
        return
    import torch
    if not torch.cuda.is_available():
        return  # a rank refuses cuda itself
    from .ms_eps import check_gpus
    check_gpus(device, nproc, torch.cuda.device_count())


def stop_ranks(children):
    """Terminates the ranks still running, then kills those that have not ended after
    GRACE_SECONDS, and waits for every one."""
    grace = GRACE_SECONDS
    for child in children:
        if child.poll() is None:
            child.terminate()
    deadline = time.monotonic() + grace
    for child in children:
        try:
            child.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def start_ranks(command, rest, nproc, port):
    """The N rank processes. When one cannot be started (a process or memory limit), those
    already started are stopped and the refusal names --nproc."""
    children = []
    for rank in range(nproc):
        env = dict(os.environ)
        env.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank),
                   WORLD_SIZE=str(nproc), LOCAL_RANK=str(rank),
                   LOCAL_WORLD_SIZE=str(nproc), GROUP_RANK="0")
        env.setdefault("OMP_NUM_THREADS", "1")  # ms-eps sets its own count (--threads)
        env["PYTHONPATH"] = PACKAGE_PARENT + (os.pathsep + env["PYTHONPATH"]
                                              if env.get("PYTHONPATH") else "")
        try:
            children.append(subprocess.Popen(
                [sys.executable, "-m", "diffuscope_torch", command, *rest], env=env))
        except (OSError, ValueError) as e:
            stop_ranks(children)
            why = e.strerror if isinstance(e, OSError) and e.strerror else \
                (str(e).strip().splitlines() or [type(e).__name__])[0]
            started = len(children)
            stopped = "no rank had started" if started == 0 else \
                f"stopped the {started} rank{'' if started == 1 else 's'} already started"
            raise FieldError("--nproc", nproc, f"could not start rank {rank} of {nproc}: "
                             f"{why}; {stopped}") from None
    return children


def main(argv, prog="diffuscope_torch run"):
    argv = list(argv)
    # Options after COMMAND belong to it.
    split = next((i for i, a in enumerate(argv) if a in COMMANDS), len(argv))
    args = build_parser(prog).parse_args(argv[:split + 1])
    rest = argv[split + 1:]
    if not 1 <= args.nproc <= MAX_PROCESSES:
        raise FieldError("--nproc", args.nproc, f"must lie between 1 and {MAX_PROCESSES}")
    if args.command not in COMMANDS:
        raise FieldError("command", args.command, "not one of " + ", ".join(COMMANDS))
    if args.nproc > 1:  # one rank always fits
        check_devices(rest, args.nproc)
    port = _free_port()
    children = start_ranks(args.command, rest, args.nproc, port)

    def stop(signum, frame):
        for child in children:
            if child.poll() is None:
                child.terminate()
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    code = 0
    stop_at = None
    try:
        running = list(children)
        while running:
            for child in list(running):
                rc = child.poll()
                if rc is None:
                    continue
                running.remove(child)
                if rc != 0 and code == 0:
                    code = rc
                    # The others would wait for the failed rank forever; but a refused input
                    # fails every rank, and only rank 0 says why: give them a moment to end
                    # by themselves first.
                    stop_at = time.monotonic() + GRACE_SECONDS
            if stop_at is not None and time.monotonic() >= stop_at:
                for other in running:
                    if other.poll() is None:
                        other.terminate()
                stop_at = float("inf")
            time.sleep(0.05)
    except KeyboardInterrupt:
        # A Ctrl-C reaches the ranks too; a SIGINT sent to this process alone is passed on.
        time.sleep(1.0)
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGINT)
        for child in children:
            try:
                child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                child.send_signal(signal.SIGKILL)
        return 130
    return code if code >= 0 else 128 - code
