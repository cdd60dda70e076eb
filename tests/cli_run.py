"""``deckcheck`` run in the test's own process, answering as ``subprocess.run([python, -m,
deckcheck, ...], capture_output=True, text=True)`` would: the console entry point itself
(``deckcheck.cli.main``: ``--lang`` anywhere, the language from the environment, exit statuses,
no traceback) under click's ``CliRunner`` isolation, with the environment and the working folder
the caller gives.

Why: a new interpreter costs about 0.4 CPU-s of imports per command, and a goldfish or sweep
command loads its numba engines again (issue 35: most of the suite's time went to such
start-ups). Tests whose point is the process itself (start-up, the console script, signals, a
closed pipe, a second process's language) still start one; ``tests/test_cli_in_process.py``
holds this runner to a real process on the same commands."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import typer.testing
from typer import Typer
from typer.testing import Result

from deckcheck import i18n
from deckcheck.cli import app, command_tree, main


class CliRunner(typer.testing.CliRunner):
    """typer's test runner, run on deckcheck's command tree as the console entry point builds
    it, once per process (``deckcheck.cli.command_tree``): typer's own builds the tree again at
    every ``invoke`` (36 ms on the 2-core VM; about a tenth of the Python time of the suite's
    in-process runs, issue 35). Any other app is built as typer builds it."""

    def invoke(self, app_: Typer, *args: Any, **kwargs: Any) -> Result:
        built = command_tree() if app_ is app else typer.testing._get_command(app_)
        # typer.testing names the builder it calls; the tree given for the length of the call
        before = typer.testing._get_command
        typer.testing._get_command = lambda _app: built
        try:
            return super().invoke(app_, *args, **kwargs)
        finally:
            typer.testing._get_command = before


_RUNNER = CliRunner()


def _changes(env: Mapping[str, str]) -> dict[str, str | None]:
    """What to set (and unset: None) in ``os.environ`` so that it becomes ``env``."""
    changes: dict[str, str | None] = {k: None for k in os.environ if k not in env}
    changes.update((k, v) for k, v in env.items() if os.environ.get(k) != v)
    return changes


def deckcheck(
    args: Sequence[str],
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    input: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """``deckcheck *args`` as a subprocess with ``env`` (the whole environment, as
    ``subprocess.run`` takes it; None: this one) would have run, in this process."""
    before = i18n.current()
    argv = sys.argv
    changes = _changes(env) if env is not None else {}
    code: int | str | None = 0
    with (
        contextlib.chdir(cwd or Path.cwd()),
        _RUNNER.isolation(input=input, env=changes) as (out, err, _output),
    ):
        sys.argv = ["deckcheck", *args]
        try:
            main()
        except SystemExit as exc:
            code = exc.code
        finally:
            sys.argv = argv
            i18n.activate(before)
            sys.stdout.flush()  # what main() wrote straight to the streams, not through click
            sys.stderr.flush()
        stdout, stderr = out.getvalue(), err.getvalue()
    if isinstance(code, str):  # sys.exit("message"): Python prints it and exits 1
        stderr, code = stderr + code.encode() + b"\n", 1
    return subprocess.CompletedProcess(
        [sys.executable, "-m", "deckcheck", *args],
        code or 0,
        stdout.decode("utf-8", "replace"),
        stderr.decode("utf-8", "replace"),
    )
