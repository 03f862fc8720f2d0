"""python3 -m diffuscope_torch COMMAND …  (also under torchrun … -m diffuscope_torch)"""
import sys

USAGE = """usage: python3 -m diffuscope_torch COMMAND [options]

commands:
  export   wrap a PyTorch model into Diffuscope's TorchScript contract
  ms-eps   estimate ms_eps_n (Analytic-DPM's Γ) of a Gaussian contract model over a data set

python3 -m diffuscope_torch COMMAND --help for the options."""


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    if command == "export":
        from .export import main as run
    elif command == "ms-eps":
        from .ms_eps import main as run
    else:
        print(f"diffuscope_torch: command: {command}: not one of export, ms-eps", file=sys.stderr)
        return 2
    return run(rest, prog=f"diffuscope_torch {command}")


if __name__ == "__main__":
    sys.exit(main())
