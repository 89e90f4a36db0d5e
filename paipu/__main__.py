"""``python -m paipu``: the same command line as the ``paipu`` script."""

from .cli import main

if __name__ == "__main__":
    main()
