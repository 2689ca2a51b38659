import sys

from .signals import install

install()  # before the (slow) imports: a SIGTERM at start-up ends the run cleanly too
try:
    from .cli import main

    code = main()
except KeyboardInterrupt as exc:  # a signal before the command line took over
    print(f"hymt: interrupted ({exc or 'SIGINT'}) while starting; nothing was done", file=sys.stderr)
    code = getattr(exc, "exit_code", 130)
sys.exit(code)
