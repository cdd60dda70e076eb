"""The formats of the search path (the shipped ``formats/`` plus user folders): the files
read, ``extends`` merged, and the version of a dated family in force on a day."""

from __future__ import annotations

import datetime
import pickle
import sys
import tomllib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from deckcheck import data
from deckcheck.errors import FormatError
from deckcheck.files import read_limited
from deckcheck.formats import Format, versions
from deckcheck.i18n import N_, _, current
from deckcheck.memo import ENTRY, byte_cache

# what each file says of itself only: ``extends`` never passes these on
OWN_KEYS = ("id", "effective", "supersedes")


def _merge(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """``extends``: the child's keys replace the parent's; restriction lists add up; a file's
    id and dates are its own."""
    parent = {key: v for key, v in parent.items() if key not in OWN_KEYS}
    merged = {**parent, **child}
    merged["restrictions"] = [*parent.get("restrictions", []), *child.get("restrictions", [])]
    merged["parameters"] = {**parent.get("parameters", {}), **child.get("parameters", {})}
    merged["sources"] = [*parent.get("sources", []), *child.get("sources", [])]
    return merged


# pydantic's messages for the errors a format file most often has, as pydantic words them (so
# English stays pydantic's own); others are shown as pydantic gives them
_PYDANTIC = {
    "missing": N_("Field required"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "int_type": N_("Input should be a valid integer"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "string_type": N_("Input should be a valid string"),
    "bool_type": N_("Input should be a valid boolean"),
    "list_type": N_("Input should be a valid list"),
    "tuple_type": N_("Input should be a valid tuple"),
    "dict_type": N_("Input should be a valid dictionary"),
    "date_type": N_("Input should be a valid date"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
}


def _pydantic_message(err: Any) -> str:
    """One pydantic error's message in the language of the moment: a check's own ValueError is
    already in it (pydantic's "Value error, " prefix is English)."""
    if current() == "en":
        return str(err["msg"])
    error = (err.get("ctx") or {}).get("error")
    if err["type"] == "value_error" and error is not None:
        return str(error)
    known = _PYDANTIC.get(err["type"])
    if known is None:
        return str(err["msg"])
    return _(known, **{k: v for k, v in (err.get("ctx") or {}).items()})


def _error_text(path: Path, exc: ValidationError) -> str:
    lines = [_("{path}: not a valid format file:", path=path)]
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or _("(top level)")
        lines.append(f"  {where}: {_pydantic_message(err)}")
    return "\n".join(lines)


# A format file is a page of TOML; anything larger is no format file.
MAX_FORMAT_BYTES = 1 << 20


# Format files parsed, by their bytes: a registry reads every file of its search path (its
# first dated look-up asks each file what it supersedes), and each command and service start
# makes one. tomllib took 1.4 ms for the 7 KB VISION file, unpickling a copy 0.04 ms (issue
# 35). Keyed by the bytes, so an edited file is parsed again whatever its time stamp says.
PARSED_BYTES = 4 << 20


def _parsed_bytes(args: tuple[bytes], value: bytes) -> int:
    return len(args[0]) + len(value) + ENTRY


@byte_cache(PARSED_BYTES, _parsed_bytes)
def _parse(raw: bytes) -> bytes:
    """``raw``'s TOML table, pickled: each reader gets a copy of its own to edit."""
    return pickle.dumps(tomllib.loads(raw.decode("utf-8")), pickle.HIGHEST_PROTOCOL)


def read_raw(path: Path) -> dict[str, Any]:
    """A format file's TOML, read with the deck files' checks (a regular file, a size limit)."""
    raw = read_limited(path, MAX_FORMAT_BYTES, FormatError, "a format file")
    try:
        table: dict[str, Any] = pickle.loads(_parse(raw))
        return table
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(_("{path}: not valid TOML: {error}", path=path, error=exc)) from exc
    except UnicodeDecodeError as exc:
        raise FormatError(_("{path}: not UTF-8 text: {error}", path=path, error=exc)) from exc
    except RecursionError as exc:  # tables or arrays nested thousands deep (exit 70 before)
        raise FormatError(
            _("{path}: not a format file: its tables or arrays are nested too deep", path=path)
        ) from exc
    except ValueError as exc:  # an integer of more digits than Python converts
        limit = f"{sys.get_int_max_str_digits():,}"
        raise FormatError(
            _("{path}: not a format file: a number has over {n} digits", path=path, n=limit)
        ) from exc


class FormatRegistry:
    """The formats found in the search path: the shipped ``formats/`` plus user folders."""

    def __init__(self, folders: list[Path]) -> None:
        self.folders = folders
        self._cache: dict[str, Format] = {}  # as read
        self._dated: dict[str, Format] = {}  # read, with their dates in the family (get)
        self._successors: dict[str, list[str]] | None = None  # superseded id → its successors
        self._in_force: dict[tuple[str, datetime.date], Format] = {}  # resolve()'s answers

    def paths(self) -> dict[str, Path]:
        found: dict[str, Path] = {}
        for folder in self.folders:
            if folder.is_dir():
                for path in sorted(folder.glob("*.toml")):
                    found.setdefault(path.stem, path)
        return found

    def ids(self) -> list[str]:
        return sorted(self.paths())

    def get(self, ref: str) -> Format:
        """A format by id, or by path to a ``.toml`` file: that version, whatever the date."""
        fmt = self._dated.get(ref)
        if fmt is None:
            fmt = self._plain(ref)
            self._date(fmt)
            self._dated[ref] = fmt
        return fmt

    def resolve(self, ref: str, day: datetime.date | None = None) -> Format:
        """The version of ``ref`` in force on ``day`` (default: today): ``ref`` itself or a
        version it supersedes (versions.in_force; FormatError when none is)."""
        fmt = self.get(ref)
        if fmt.effective is None:
            return fmt
        day = day or datetime.date.today()
        found = self._in_force.get((ref, day))
        if found is None:
            chain = self._chain(fmt)
            after = self._successor(fmt.id)
            dated = [f.dated() for f in chain]
            chosen = versions.in_force(dated, after.dated() if after else None, day)
            found = fmt if chosen.id == fmt.id else self.get(chosen.id)
            self._in_force[(ref, day)] = found
        return found

    def family(self, ref: str) -> list[Format]:
        """Every version of ``ref``'s family, newest first (one format when it is undated)."""
        head = self.get(ref)
        seen = {head.id}
        while (after := self._successor(head.id)) is not None and after.id not in seen:
            head = after
            seen.add(head.id)
        return [self.get(f.id) if f.id in self.paths() else f for f in self._chain(head)]

    def _plain(self, ref: str) -> Format:
        if ref in self._cache:
            return self._cache[ref]
        as_path = Path(ref)
        # any existing path (a FIFO too, refused by read_limited saying what it is)
        if ref.endswith(".toml") and as_path.exists():
            fmt = self._load(as_path, set())
        else:
            path = self.paths().get(ref)
            if path is None and ref.endswith(".toml"):  # a file, not an id: say it is missing
                raise FormatError(_("{path}: no such file", path=ref))
            if path is None:
                known = ", ".join(self.ids()) or _("none")
                raise FormatError(
                    _("unknown format {ref} (known: {known})", ref=repr(ref), known=known)
                )
            fmt = self._load(path, set())
        self._cache[ref] = fmt
        return fmt

    def _chain(self, fmt: Format) -> list[Format]:
        """``fmt``, then the versions it supersedes, newest first."""
        chain = [fmt]
        while (older := chain[-1].supersedes) is not None:
            where = self._where(chain[-1].id)
            if older in {f.id for f in chain}:
                raise FormatError(
                    _(
                        "{where}: supersedes {older}, which loops back to it",
                        where=where,
                        older=repr(older),
                    )
                )
            if older not in self._cache and older not in self.paths():
                raise FormatError(
                    _("{where}: supersedes unknown format {older}", where=where, older=repr(older))
                )
            chain.append(self._plain(older))
        return chain

    def _where(self, fid: str) -> str:
        """A format's file, for messages (its id when it has none in the search path)."""
        path = self.paths().get(fid)
        return str(path) if path else fid

    def _successor(self, fid: str) -> Format | None:
        """The format in the search path that supersedes ``fid``; two are an error."""
        if self._successors is None:
            found: dict[str, list[str]] = {}
            for stem, path in self.paths().items():
                try:
                    older = read_raw(path).get("supersedes")
                except FormatError:
                    continue  # reported when that file itself is used
                if isinstance(older, str):
                    found.setdefault(older, []).append(stem)
            self._successors = found
        newer = self._successors.get(fid, [])
        if len(newer) > 1:
            files = (" and " if current() == "en" else "、").join(self._where(n) for n in newer)
            raise FormatError(
                _(
                    "{files} both supersede {id}: a version has one successor",
                    files=files,
                    id=repr(fid),
                )
            )
        return self._plain(newer[0]) if newer else None

    def _date(self, fmt: Format) -> None:
        """``fmt``'s dates, checked against the version after it and those before it."""
        after = self._successor(fmt.id)
        chain = self._chain(fmt) if fmt.supersedes or after else [fmt]
        found = versions.problems([f.dated() for f in [*([after] if after else []), *chain]])
        if found:
            where = self._where(fmt.id)
            raise FormatError(
                _(
                    "{where}: versions do not fit together: {problems}",
                    where=where,
                    problems=("; " if current() == "en" else "；").join(found),
                )
            )
        successor = after.dated() if after else None
        fmt.dated_by(versions.end_of(fmt.dated(), successor), after.id if after else None)

    def _raw(self, path: Path, seen: set[str]) -> dict[str, Any]:
        raw = read_raw(path)
        parent = raw.get("extends")
        if parent is None:
            return raw
        if not isinstance(parent, str):
            raise FormatError(_("{path}: extends must be a format id", path=path))
        if parent in seen:
            raise FormatError(_("{path}: extends {parent} loops", path=path, parent=repr(parent)))
        parent_path = self.paths().get(parent)
        if parent_path is None:
            raise FormatError(
                _("{path}: extends unknown format {parent}", path=path, parent=repr(parent))
            )
        return _merge(self._raw(parent_path, seen | {parent}), raw)

    def _load(self, path: Path, seen: set[str]) -> Format:
        raw = self._raw(path, seen)
        raw.setdefault("id", path.stem)
        try:
            return Format.model_validate(raw)
        except ValidationError as exc:
            raise FormatError(_error_text(path, exc)) from exc

    def all(self) -> list[Format]:
        return [self.get(fid) for fid in self.ids()]


def default_registry(extra: list[Path] | None = None) -> FormatRegistry:
    return FormatRegistry([*(extra or []), *data.format_dirs()])


def listing(fmt: Format) -> dict[str, Any]:
    """One format as ``deckcheck formats --json`` and ``GET /formats`` list it."""
    return {
        "id": fmt.id,
        "game": fmt.game,
        "name": fmt.name,
        "assumptions": fmt.assumptions,
        "version": fmt.version.model_dump(mode="json"),
    }


def detail(registry: FormatRegistry, ref: str) -> dict[str, Any]:
    """One format's rules as ``formats show --json`` and ``GET /formats/{id}`` give them, with
    the dates of every version of its family (``versions``, newest first)."""
    fmt = registry.get(ref)
    versions = [f.version.model_dump(mode="json") for f in registry.family(ref)]
    return {**fmt.model_dump(mode="json"), "versions": versions}
