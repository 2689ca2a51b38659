import sys

from .signals import install, starting_line

install()  # before the (slow) imports: a SIGTERM at start-up ends the run cleanly too
try:
    from .cli.app import main

    code = main()
except KeyboardInterrupt as exc:  # a signal before the command line took over
    print(starting_line(str(exc or "SIGINT")), file=sys.stderr)
    code = getattr(exc, "exit_code", 130)
sys.exit(code)
