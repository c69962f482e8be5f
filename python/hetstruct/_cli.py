"""The hetstruct command of a pip-installed package: runs the CLI built beside the module
(hetstruct/bin/hetstruct), with the same arguments, standard streams and exit status."""

import os
import sys


def main():
    binary = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "hetstruct")
    if not os.access(binary, os.X_OK):
        sys.exit("hetstruct: the CLI is not beside the package (%s): install with pip install ." % binary)
    os.execv(binary, [binary] + sys.argv[1:])
