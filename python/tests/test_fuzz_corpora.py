# The fuzz corpora of the text formats (tests/fuzz/corpus: DOT, STG, WfFormat, laws, HBSP machines,
# programs and traces) replayed through the module: each input gives records or ValueError, no
# other exception and no crash (a crash would end this process and fail the test).
import pytest

import hetstruct
from conftest import ROOT

CORPUS = ROOT / "tests" / "fuzz" / "corpus"
MACHINE = str(ROOT / "tests" / "cli" / "data" / "hbsp-cluster-2001.txt")


def outcome(call, **kwargs):
    try:
        call(**kwargs)
        return "records"
    except ValueError:
        return "ValueError"


def files(kind, suffix=None):
    return sorted(p for p in (CORPUS / kind).iterdir() if p.is_file() and (suffix is None or p.suffix == suffix))


@pytest.mark.parametrize("kind, suffix", [("dot", ".dot"), ("stg", ".stg"), ("wfformat", ".json")])
def test_graph_corpora(kind, suffix):
    seen = set()
    for path in files(kind, suffix):
        seen.add(outcome(hetstruct.simulate, graph=str(path), reps=3, threads=1))
        seen.add(outcome(hetstruct.bounds, graph=str(path)))
    assert seen <= {"records", "ValueError"}
    assert "records" in seen and "ValueError" in seen  # the corpus has both


def test_law_corpus():
    seen = set()
    for path in files("law"):
        data = path.read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("latin-1")  # every byte a character: the module sees them re-encoded
        seen.add(outcome(hetstruct.simulate, structure="sync", n=2, m=1, levels=3, law=text, reps=3, threads=1))
        seen.add(outcome(hetstruct.bounds, structure="async", n=2, m=1, levels=3, law=text))
    assert seen == {"records", "ValueError"}


def test_hbsp_corpora():
    seen = set()
    for path in files("machine"):
        seen.add(outcome(hetstruct.hbsp_replay, machine=str(path), algorithm="scatter", size=64))
    for path in files("program"):
        seen.add(outcome(hetstruct.hbsp_replay, machine=MACHINE, program=str(path), processors=4))
    for path in files("trace"):
        seen.add(outcome(hetstruct.hbsp_replay, machine=MACHINE, algorithm="broadcast", size=64, processors=4,
                         trace=str(path), reps=20, threads=1))
    assert seen == {"records", "ValueError"}
