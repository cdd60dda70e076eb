"""The light install, built and measured (issue 31, item 7): a fresh venv with
``pip install CHECKOUT`` (no extras) validates a folder of lists, writing GitHub annotations,
JUnit, SARIF and the summary CSV, and the venv's size is printed (beside a full install's,
when one is given). What a pre-commit hook's environment and the GitHub Action install.

    python benchmarks/light_install.py [--venv /tmp/deckcheck-light] [--checkout .]
        [--decks examples] [--full /tmp/deckcheck-full] [--keep]

Exits 1 when the light venv cannot validate or imports an extra's package while it does.
Needs the package index (pip install); nothing here runs in the tests.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def size(folder: Path) -> int:
    """Bytes on disk under ``folder``, as ``du`` counts them (each hard-linked file once)."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for top, dirs, files in os.walk(folder):
        for name in [*dirs, *files]:
            st = os.lstat(Path(top) / name)
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_blocks * 512
    return total


def mib(n: int) -> str:
    return f"{n / 2**20:.0f} MiB"


def run(args: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, check=False, **kw)  # type: ignore[call-overload, no-any-return]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--venv", type=Path, default=Path(tempfile.gettempdir()) / "deckcheck-light"
    )
    parser.add_argument("--checkout", type=Path, default=ROOT)
    parser.add_argument("--decks", type=Path, default=ROOT / "examples")
    parser.add_argument("--full", type=Path, help="a full install's venv, to compare sizes")
    parser.add_argument("--keep", action="store_true", help="reuse --venv if it exists")
    args = parser.parse_args()

    venv: Path = args.venv
    if not (args.keep and (venv / "bin" / "deckcheck").exists()):
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        done = run([str(venv / "bin" / "pip"), "install", "--quiet", str(args.checkout)])
        if done.returncode:
            print(done.stdout, done.stderr, file=sys.stderr)
            return 1
    bin_ = venv / "bin"
    listed = json.loads(run([str(bin_ / "pip"), "list", "--format", "json"]).stdout)
    names = sorted(p["name"] for p in listed if p["name"] not in ("pip", "setuptools"))
    print(f"light install: {len(names)} packages: {' '.join(names)}")

    out = Path(tempfile.mkdtemp(prefix="deckcheck-light-"))
    env = {**os.environ, "DECKCHECK_DB": str(out / "pool.sqlite3")}
    env.pop("PYTHONPATH", None)  # the venv's own deckcheck, not a checkout on the path
    validate = [str(bin_ / "deckcheck"), "validate", str(args.decks)]
    forms = {}
    for form in ("github", "junit", "sarif"):
        done = run([*validate, "--output", form, "--summary", str(out / "summary.csv")], env=env)
        if done.returncode not in (0, 1):
            print(f"validate --output {form}: exit {done.returncode}\n{done.stderr}")
            return 1
        forms[form] = done.stdout
        said = [line for line in done.stderr.splitlines() if not line.startswith("wrote ")]
        print(f"--output {form}: exit {done.returncode}; {' / '.join(said)}")
    suites = ET.fromstring(forms["junit"])
    sarif = json.loads(forms["sarif"])
    rows = list(csv.DictReader(io.StringIO((out / "summary.csv").read_text(encoding="utf-8-sig"))))
    annotations = sum(
        line.startswith(("::error", "::warning")) for line in forms["github"].split("\n")
    )
    print(
        f"JUnit: {suites.get('tests')} decks, {suites.get('failures')} failing; "
        f"SARIF: {len(sarif['runs'][0]['results'])} results; GitHub: {annotations} annotations; "
        f"summary CSV: {len(rows)} rows"
    )
    extras = "numpy numba pandas matplotlib fastapi uvicorn sqlalchemy httpx dask distributed"
    probe = (
        "import importlib.util as u\n"
        f"print(' '.join(m for m in {extras.split()!r} if u.find_spec(m)))"
    )
    present = run([str(bin_ / "python"), "-c", probe]).stdout.strip()
    print(f"extras' packages installed in the light venv: {present or 'none'}")
    light = size(venv)
    print(f"light venv: {mib(light)} ({venv})")
    if args.full is not None:
        full = size(args.full)
        print(f"full venv: {mib(full)} ({args.full}); the light one is {light / full:.0%} of it")
    shutil.rmtree(out, ignore_errors=True)
    return 1 if present or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
