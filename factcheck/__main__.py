"""`python -m factcheck`: the command line, as the `factcheck` script."""

from factcheck.cli import main

if __name__ == "__main__":
    main()
