"""The plugin SDK (``deckcheck.sdk``): one module, every name it exports documented and
loadable, cheap to import (registering a game imports no NumPy, numba or engine)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import deckcheck.sdk as sdk
from tests.conftest import ROOT


def test_every_exported_name_is_documented_and_loads() -> None:
    assert len(sdk.__all__) == len(set(sdk.__all__)) > 50
    undocumented = [n for n in sdk.__all__ if f"``{n}``" not in (sdk.__doc__ or "")]
    assert undocumented == []
    assert all(getattr(sdk, name) is not None for name in sdk.__all__)
    assert sorted(dir(sdk)) == sorted(sdk.__all__)
    assert set(sdk._LAZY) <= set(sdk.__all__)


def test_a_lazy_name_is_the_core_object_itself() -> None:
    from deckcheck.goldfish import shuffles
    from deckcheck.goldfish.common import Record

    assert sdk.Record is Record and sdk.batch_shuffle is shuffles.shuffle
    assert sdk.PLUGIN_API.count(".") == 1 and all(p.isdigit() for p in sdk.PLUGIN_API.split("."))


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        sdk.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("an unknown name resolved")


def test_importing_the_sdk_and_registering_the_games_imports_no_numpy() -> None:
    code = (
        "import sys\n"
        "from deckcheck import plugins\n"
        "import deckcheck.sdk\n"
        "plugins.ids()\n"
        "print(sorted(m for m in ('numpy', 'numba') if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stderr


def test_a_format_may_use_only_the_shared_sections_and_its_games_own(tmp_path: Path) -> None:
    """``GameSpec.construction.sections`` adds a game's own deck sections; any other name is refused, with
    the sections the game has."""
    from deckcheck.formats import FormatError
    from deckcheck.formats.registry import FormatRegistry

    text = (ROOT / "formats" / "iris-standard.toml").read_text(encoding="utf-8")
    (tmp_path / "x.toml").write_text(
        text.replace('name = "main"\nlabel = "deck"', 'name = "reserve"\nlabel = "deck"'),
        encoding="utf-8",
    )
    with pytest.raises(FormatError, match=r"sections: 'reserve' is not a section \(main, extra, gate, side\)"):
        FormatRegistry([tmp_path]).get("x")


def test_the_spec_is_in_documented_parts() -> None:
    """``GameSpec`` holds its id, the package's facts and five parts; every field of a part and
    of the spec carries its comment (on its line or the lines above), and the parts are SDK
    names."""
    import ast
    import inspect
    from dataclasses import fields

    parts = {"cards": sdk.Cards, "construction": sdk.Construction, "deal": sdk.Deal}
    parts |= {"play": sdk.Play, "words": sdk.Words}
    spec_fields = {f.name: f.type for f in fields(sdk.GameSpec)}
    assert set(spec_fields) == {"id", *parts, "plugin_api", "data", "list_rank"}
    assert all(spec_fields[name] == cls.__name__ for name, cls in parts.items())
    assert {cls.__name__ for cls in parts.values()} <= set(sdk.__all__)
    for cls in (*parts.values(), sdk.GameSpec):
        lines = inspect.getsource(cls).splitlines()
        body = ast.parse(inspect.getsource(cls)).body[0]
        assert isinstance(body, ast.ClassDef)
        for node in body.body:
            if isinstance(node, ast.AnnAssign) and node.target.id != "id":  # type: ignore[attr-defined]
                line, above = lines[node.lineno - 1], lines[node.lineno - 2].strip()
                assert "#" in line or above.startswith("#"), (cls.__name__, line)
