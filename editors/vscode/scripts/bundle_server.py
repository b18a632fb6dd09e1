#!/usr/bin/env python3
"""Bundle the gradlint server into bundled/libs for the extension (pip install --target).

The extension puts bundled/libs on PYTHONPATH and runs `python launcher/start_server.py lsp`, so
the server works with a Python that has no gradlint installed. `vscode:prepublish` runs this
before every `vsce package`. The pure-Python code is the same for every
Python version; the native modules (libcst's parser, pyyaml's) carry the version in their file
names (native.cpython-312-x86_64-linux-gnu.so), so the builds for several versions sit side by
side and one bundle serves them all, on the platform this script runs on. Version-only
backports (tomli, exceptiongroup on 3.10) are merged in the same way.

usage: bundle_server.py [--source REPO] [--out DIR] [--pythons 3.10,3.11,...]
env:   GRADLINT_BUNDLE_PYTHONS  default for --pythons
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_PYTHONS = "3.10,3.11,3.12,3.13,3.14"


def pip(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args], check=True)


def platform_args() -> list[str]:
    # pip's own idea of this machine's platform tags (manylinux_2_36_x86_64 ... linux_x86_64).
    from pip._vendor.packaging import tags

    return [a for t in tags.platform_tags() for a in ("--platform", t)]


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def dists(target: Path) -> dict[str, str]:
    out = {}
    for info in target.glob("*.dist-info"):
        name, _, version = info.name[: -len(".dist-info")].partition("-")
        out[canonical(name)] = version
    return out


def missing_requirements(target: Path, version: str) -> list[str]:
    """Requirements of the installed dists that hold on `version` but are not installed.

    pip evaluates markers such as `python_version < '3.11'` for the Python running pip, not for
    --python-version, so a cross-version install misses backports (tomli, exceptiongroup).
    """
    from pip._vendor.packaging.requirements import Requirement

    env = {"python_version": version, "python_full_version": f"{version}.0", "implementation_name": "cpython",
           "platform_python_implementation": "CPython", "extra": ""}
    have = dists(target)
    missing = []
    for meta in target.glob("*.dist-info/METADATA"):
        for line in meta.read_text(encoding="utf-8").splitlines():
            if not line.startswith("Requires-Dist:"):
                continue
            req = Requirement(line.split(":", 1)[1].strip())
            if (req.marker is None or req.marker.evaluate(env)) and canonical(req.name) not in have:
                missing.append(f"{req.name}{req.specifier}")
    return sorted(set(missing))


def merge(src: Path, dst: Path) -> None:
    """Copy the files of src that dst lacks (the natives and backports of another version)."""
    for f in src.rglob("*"):
        if f.is_file() and "__pycache__" not in f.parts:
            to = dst / f.relative_to(src)
            if not to.exists():
                to.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(f, to)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, default=HERE.parents[2], help="the gradlint source tree")
    ap.add_argument("--out", type=Path, default=HERE.parent / "bundled" / "libs")
    ap.add_argument("--pythons", default=None, help=f"comma-separated versions (default {DEFAULT_PYTHONS})")
    a = ap.parse_args()

    wanted = (a.pythons or os.environ.get("GRADLINT_BUNDLE_PYTHONS") or DEFAULT_PYTHONS).split(",")
    if sys.implementation.name != "cpython":
        sys.exit("bundle_server.py: run it with CPython (the bundle's native modules are CPython's)")
    host = "{}.{}".format(*sys.version_info[:2])
    versions = [host] + [v.strip() for v in wanted if v.strip() and v.strip() != host]

    with tempfile.TemporaryDirectory(prefix="gradlint-bundle-") as tmp:
        wheels = Path(tmp, "wheel")
        pip("wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels), str(a.source))
        (wheel,) = wheels.glob("*.whl")
        if a.out.exists():
            shutil.rmtree(a.out)
        a.out.mkdir(parents=True)
        bundled, seen = [], {}
        for v in versions:
            target = Path(tmp, f"py{v}")
            cross = [] if v == host else ["--only-binary=:all:", "--ignore-requires-python", "--implementation", "cp",
                                          "--python-version", v, *platform_args()]
            try:
                pip("install", "--quiet", "--no-compile", "--target", str(target), *cross, str(wheel))
                for i in range(5):  # each round may add backports with requirements of their own
                    extra = missing_requirements(target, v) if cross else []
                    if not extra:
                        break
                    more = Path(tmp, f"py{v}-{i}")
                    pip("install", "--quiet", "--no-compile", "--target", str(more), *cross, *extra)
                    merge(more, target)
            except subprocess.CalledProcessError:
                if v == host:
                    raise
                print(f"bundle_server.py: warning: no wheels for Python {v}; the bundle will not support it", file=sys.stderr)
                continue
            for name, version in dists(target).items():
                if seen.setdefault(name, version) != version:
                    # One copy of the pure code must serve every version: refuse a split.
                    sys.exit(f"bundle_server.py: {name} resolves to {seen[name]} and {version} (Python {v}); pin it")
            merge(target, a.out)
            bundled.append(v)

    shutil.rmtree(a.out / "bin", ignore_errors=True)  # console scripts point at this machine's python
    manifest = {
        "gradlint": dists(a.out).get("gradlint-autograd", "?"),
        "implementation": "cpython",
        "platform": sysconfig.get_platform(),
        "pythons": sorted(bundled, key=lambda s: tuple(map(int, s.split(".")))),
    }
    (a.out / "gradlint_bundle.json").write_text(json.dumps(manifest, indent=2) + "\n")
    size = sum(f.stat().st_size for f in a.out.rglob("*") if f.is_file())
    print(f"bundled gradlint {manifest['gradlint']} for CPython {', '.join(manifest['pythons'])} "
          f"on {manifest['platform']} ({platform.machine()}) into {a.out} ({size / 2**20:.1f} MiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
