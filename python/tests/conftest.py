# What the Python tests share: the CLI built beside the module (HETSTRUCT_BIN, set by ctest), its
# CSV read as text, and the field-by-field comparison of the module's records with it.
import csv
import io
import os
import struct
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("HETSTRUCT_BIN", str(ROOT / "build" / "hetstruct"))


def run_cli(*args, cwd=None):
    """`hetstruct args...`: its stdout, which must come with exit status 0."""
    done = subprocess.run([BIN, *map(str, args)], capture_output=True, text=True, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout


def cli_rows(*args, cwd=None):
    """The CLI's CSV as (header, rows of texts)."""
    reader = csv.reader(io.StringIO(run_cli(*args, cwd=cwd)))
    lines = list(reader)
    return lines[0], lines[1:]


def bits(x):
    return struct.pack("<d", x)


def same_field(value, text):
    """Whether a module value is the CSV field `text` bit for bit."""
    if value is None:
        return text == ""
    if isinstance(value, bool):
        return text == ("true" if value else "false")
    if isinstance(value, int):
        return text == str(value)
    if isinstance(value, float):
        return text != "" and bits(float(text)) == bits(value)
    if isinstance(value, list):
        items = text.split(";") if text else []
        return len(items) == len(value) and all(same_field(v, t) for v, t in zip(value, items))
    return text == value


def assert_same(records, header, rows, skip=()):
    """Every record's fields equal the CSV's: the same names in the same order, the same bits."""
    assert len(records) == len(rows), (len(records), len(rows))
    for i, (record, row) in enumerate(zip(records, rows)):
        assert list(record) == header, (list(record), header)
        for name, value, text in zip(header, record.values(), row):
            if name in skip:
                continue
            assert same_field(value, text), "row %d field %s: module %r, CLI %r" % (i, name, value, text)


@pytest.fixture
def root():
    return ROOT
