#!/usr/bin/env python3
"""Build the site: `python build.py` (see `python build.py --help`)."""

import sys
from pathlib import Path

# Run from a checkout without installing: the package sits beside this file.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scholarsite.cli import run  # noqa: E402

if __name__ == "__main__":
    run()
