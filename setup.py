"""pip install . : the Python package hetstruct (python/hetstruct) with its extension _hetstruct and the
hetstruct CLI, both built by the project's CMake (a Release, unity build without tests or benchmarks,
for the Python running pip). HETSTRUCT_CMAKE_BUILD_DIR=DIR builds in DIR instead of a folder of its
own (a configured build directory is reused as it is: the tests install from the build they test).
CMAKE_BUILD_PARALLEL_LEVEL sets the jobs (default: every core). See docs/install.md."""

import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def project_version():
    """The version of CMakeLists.txt's project(), the one place it is written."""
    text = (ROOT / "CMakeLists.txt").read_text()
    match = re.search(r"project\(hetstruct\s+VERSION\s+([0-9.]+)", text)
    if not match:
        sys.exit("setup.py: no project(hetstruct VERSION x.y.z) in CMakeLists.txt")
    return match.group(1)


class CMakeBuild(build_ext):
    """Builds the targets _hetstruct and hetstruct with CMake and puts them in the package."""

    def build_extension(self, ext):
        given = os.environ.get("HETSTRUCT_CMAKE_BUILD_DIR")
        build = pathlib.Path(given or (ROOT / "build" / "pip" / "cmake")).resolve()
        if not (given and (build / "CMakeCache.txt").exists()):
            subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja",
                            "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_UNITY_BUILD=ON",
                            "-DHETSTRUCT_TESTS=OFF", "-DHETSTRUCT_BENCHMARKS=OFF", "-DHETSTRUCT_PYTHON=ON",
                            "-DPython3_EXECUTABLE=" + sys.executable], check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", str(build), "--target", "_hetstruct", "hetstruct", "-j", jobs],
                       check=True)
        built = sorted((build / "python" / "hetstruct").glob("_hetstruct*.so"))
        if len(built) != 1:
            sys.exit("setup.py: expected one _hetstruct*.so in %s, found %d" % (build / "python" / "hetstruct", len(built)))
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], target)
        # The CLI inside the package, run by the hetstruct script (hetstruct/_cli.py).
        (target.parent / "bin").mkdir(exist_ok=True)
        shutil.copy2(build / "hetstruct", target.parent / "bin" / "hetstruct")


(ROOT / "build" / "pip").mkdir(parents=True, exist_ok=True)
setup(
    version=project_version(),
    packages=["hetstruct"],
    package_dir={"": "python"},
    ext_modules=[Extension("hetstruct._hetstruct", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # setuptools' own folders beside CMake's, inside build/ (which git ignores)
    options={"build": {"build_base": str(ROOT / "build" / "pip")},
             "egg_info": {"egg_base": str(ROOT / "build" / "pip")}},
    zip_safe=False,
)
