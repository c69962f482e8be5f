# The example a researcher would write (examples/stencil_comm.py) runs headless and draws its figure
# into the build folder; its numbers are the module's (a sweep of the communication cost).
import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT


def test_stencil_comm_example():
    out = Path(os.environ.get("HETSTRUCT_BUILD", ROOT / "build")) / "python" / "stencil_comm.png"
    if out.exists():
        out.unlink()
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "stencil_comm.py"), "--reps", "300", "--out",
                           str(out)], capture_output=True, text=True, env=dict(os.environ, MPLBACKEND="Agg"))
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    lines = [line.split() for line in done.stdout.splitlines()[1:12]]
    comm = [float(f[0]) for f in lines]
    mean = [float(f[1]) for f in lines]
    stderr = [float(f[2]) for f in lines]
    q95 = [float(f[3]) for f in lines]
    assert comm == [round(0.2 * i, 1) for i in range(11)]
    # A message only delays its receiver, and every C draws the same task times (one seed): each
    # replication's makespan, hence the mean, never falls as C grows, and C = 2 is slower by far
    # more than the noise.
    assert all(b >= a for a, b in zip(mean, mean[1:]))
    assert mean[-1] - mean[0] > 10 * (stderr[-1] + stderr[0])
    assert all(q >= m for q, m in zip(q95, mean))
