"""python3 -m diffuscope_torch COMMAND …  (also under torchrun … -m diffuscope_torch)

Every error is one line on stderr and exit code 2; --debug (anywhere on the command line) adds
the traceback of an unexpected one."""
import sys
import traceback

USAGE = """usage: python3 -m diffuscope_torch COMMAND [options] [--debug]

commands:
  export   wrap a PyTorch model into Diffuscope's TorchScript contract
  ms-eps   estimate ms_eps_n (Analytic-DPM's Γ) of a Gaussian contract model over a data set
  sample   sample a Gaussian contract model on a plan written by `diffuscope plan`
  run      run --nproc N ms-eps …: N ranks of a command on this machine (CPU or one GPU each)

python3 -m diffuscope_torch COMMAND --help for the options; --debug prints the traceback of an
unexpected error."""

PROG = "diffuscope_torch"


def _first_line(error):
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def _interrupted(prog):
    import os
    if os.environ.get("RANK", "0") == "0":  # one line, not one per rank
        print(f"{prog}: interrupted", file=sys.stderr, flush=True)
    return 130


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    debug = "--debug" in argv
    argv = [a for a in argv if a != "--debug"]
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    prog = f"{PROG} {command}"
    try:
        if command == "export":
            from .export import main as run
        elif command == "ms-eps":
            from .ms_eps import main as run
        elif command == "sample":
            from .sample import main as run
        elif command == "run":
            from .launch import main as run
            if debug:
                rest = rest + ["--debug"]  # for the ranks
        else:
            print(f"{PROG}: command: {command}: not one of export, ms-eps, sample, run",
                  file=sys.stderr)
            return 2
        return run(rest, prog=prog)
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    except KeyboardInterrupt:
        return _interrupted(prog)
    except Exception as e:  # noqa: BLE001  the tool is a program: one line, never a traceback
        if isinstance(e, RuntimeError) and str(e).startswith("KeyboardInterrupt"):
            return _interrupted(prog)  # TorchScript wraps a Ctrl-C while it loads
        from .errors import FieldError
        if debug:
            traceback.print_exc()
        if isinstance(e, FieldError):
            message = str(e)
        elif isinstance(e, MemoryError):
            message = "out of memory"
        elif isinstance(e, OSError) and e.filename is not None:
            message = f"{e.filename}: {e.strerror or _first_line(e)}"
        else:
            message = (f"unexpected error: {type(e).__name__}: {_first_line(e)} (run with "
                       f"--debug for the traceback)")
        print(f"{prog}: {message}", file=sys.stderr, flush=True)
        return 2


if __name__ == "__main__":
    sys.exit(main())
