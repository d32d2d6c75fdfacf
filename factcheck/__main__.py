"""`python -m factcheck`: the command line, as the `factcheck` script."""

import sys

from factcheck.cli import main

if __name__ == "__main__":
    sys.exit(main())
