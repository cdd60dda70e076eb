"""Formats as data: the schema of ``formats/*.toml`` and its loader.

A format names its game, its sources, its deck sections, copy limits and overrides, type
counts, OS policy and restriction lists. Every check carries the rule id it reports and the
rulebook section (or "outside the rulebooks") it comes from. Adding a format, a restriction
list or an OS group is a new or edited file, never code. The model of each table lives with
its check in the check-kind registry (deckcheck/checks/, games/chaos.py); a kind registered
without a field here still reads its own top-level table (``Format.tables``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    ValidationError,
    model_validator,
)
from pydantic_core import InitErrorDetails

from deckcheck import data, games
from deckcheck.checks.copies import Copies as Copies
from deckcheck.checks.copies import LimitOverride as LimitOverride
from deckcheck.checks.copies import Match as Match
from deckcheck.checks.counts import AttributeLimit as AttributeLimit
from deckcheck.checks.counts import OpeningCheck as OpeningCheck
from deckcheck.checks.counts import Pure as Pure
from deckcheck.checks.counts import TypeCount as TypeCount
from deckcheck.checks.kind import Check as Check
from deckcheck.checks.kind import Strict, kinds
from deckcheck.checks.restrictions import Restriction as Restriction
from deckcheck.checks.sections import ForbiddenTypes as ForbiddenTypes
from deckcheck.checks.sections import Section as Section
from deckcheck.checks.sections import SizeCheck as SizeCheck
from deckcheck.checks.sections import TypeCheck as TypeCheck
from deckcheck.errors import FormatError as FormatError
from deckcheck.files import read_limited
from deckcheck.games.chaos.checks import OsPolicy as OsPolicy
from deckcheck.games.chaos.checks import Partner as Partner
from deckcheck.games.vision.checks import SpellBreak as SpellBreak
from deckcheck.models import SECTIONS, Game
from deckcheck.normalize import title_key


class Parameter(Strict):
    """A fact later tools need (opening hand, mulligan, ...), with its source.

    ``assumption = true`` marks facts the rulebooks do not give; every output shows them.
    """

    value: int | float | str | bool
    source: str
    assumption: bool = False
    note: str | None = None


class Format(Strict):
    id: str
    game: Game
    name: str
    date: str | None = None
    description: str | None = None
    extends: str | None = None
    sources: tuple[str, ...] = Field(min_length=1)
    sections: tuple[Section, ...] = Field(min_length=1)
    copies: Copies
    limit_overrides: tuple[LimitOverride, ...] = ()
    pure: tuple[Pure, ...] = ()
    type_counts: tuple[TypeCount, ...] = ()
    attribute_limits: tuple[AttributeLimit, ...] = ()
    partner: Partner | None = None
    os_policy: OsPolicy | None = None
    opening_checks: tuple[OpeningCheck, ...] = ()
    restrictions: tuple[Restriction, ...] = ()
    parameters: dict[str, Parameter] = Field(default_factory=dict)
    # tables of kinds registered without a field of their own (checks.kind), by TOML key
    _kind_tables: dict[str, tuple[BaseModel, ...]] = PrivateAttr(default_factory=dict)

    @model_validator(mode="wrap")
    @classmethod
    def _registered_tables(cls, raw: Any, handler: ModelWrapValidatorHandler[Format]) -> Format:
        """Read the tables of registered kinds that have no field here with their own model."""
        tables: dict[str, tuple[BaseModel, ...]] = {}
        if isinstance(raw, dict):
            own = [k for k in kinds() if k.tables is None and k.name not in cls.model_fields]
            errors: list[InitErrorDetails] = []
            for kind in own:
                if kind.name not in raw:
                    continue
                value = raw[kind.name]
                raw = {key: v for key, v in raw.items() if key != kind.name}
                try:
                    found = kind.adapter.validate_python(value)
                except ValidationError as exc:
                    errors.extend(_under(kind.name, exc))
                    continue
                tables[kind.name] = tuple(found) if kind.many else (found,)
            if errors:
                raise ValidationError.from_exception_data(cls.__name__, errors)
        fmt = handler(raw)
        fmt._kind_tables = tables
        return fmt

    @model_validator(mode="after")
    def _consistent(self) -> Format:
        spec = games.get(self.game)
        types = spec.card_types
        _check_parameters(self.parameters, spec)
        section_names = [s.name for s in self.sections]
        if len(set(section_names)) != len(section_names):
            raise ValueError("a section is defined twice")

        def known_types(where: str, names: tuple[str, ...]) -> None:
            for name in names:
                if name not in types:
                    raise ValueError(f"{where}: {name!r} is not a {self.game} card type")

        def known_sections(where: str, names: tuple[str, ...]) -> None:
            for name in names:
                if name not in SECTIONS:
                    raise ValueError(f"{where}: {name!r} is not a section ({', '.join(SECTIONS)})")

        for s in self.sections:
            known_types(f"sections.{s.name}.types.allowed", s.types.allowed)
            partial = set(s.types.allowed) != set(types)
            if partial and (s.types.rule is None or s.types.source is None):
                raise ValueError(
                    f"sections.{s.name}.types: leaves out some types, so it needs rule and source"
                )
            for f in s.forbidden:
                known_types(f"sections.{s.name}.forbidden", f.types)
        known_sections("copies.sections", self.copies.sections)
        for tc in self.type_counts:
            known_types(f"type_counts {tc.rule}", tc.types)
            known_sections(f"type_counts {tc.rule}", tc.sections)
        for oc in self.opening_checks:
            known_types(f"opening_checks {oc.rule}", oc.types)
        if self.partner is not None:
            known_types("partner.candidate_types", self.partner.candidate_types)
            known_types("partner.partner_types", self.partner.partner_types)
        return self

    @cached_property
    def section_map(self) -> dict[str, Section]:
        return {s.name: s for s in self.sections}

    def tables(self, key: str) -> Sequence[Any]:
        """The tables under TOML key ``key`` (a field, or a registered kind's), as a sequence."""
        if key not in type(self).model_fields:
            return self._kind_tables.get(key, ())
        value = getattr(self, key)
        if value is None:
            return ()
        return value if isinstance(value, tuple) else (value,)

    def checks(self) -> list[Check]:
        """Every check of the format that can report something, in the order of the kinds."""
        return [
            check
            for kind in kinds()
            for table in kind.of(self)
            if kind.active(table)
            for check in kind.cites(table)
        ]

    @cached_property
    def assumptions(self) -> list[str]:
        """What this format takes from outside the rulebooks: shown with every report."""
        rules = [
            f"{c.rule}: {c.source}"
            for c in self.checks()
            if c.source.casefold().startswith("outside the rulebooks")
        ]
        overrides = [
            f"{o.rule}: {o.source}"
            for o in self.limit_overrides
            if o.rule and o.source.casefold().startswith("outside the rulebooks")
        ]
        params = [
            f"{key} = {p.value} ({p.source}{'; ' + p.note if p.note else ''})"
            for key, p in self.parameters.items()
            if p.assumption
        ]
        return list(dict.fromkeys([*rules, *overrides, *params]))

    def os_groups(self) -> list[frozenset[str]]:
        """OS groups whose cards may share a deck, as title keys (equivalences included)."""
        if self.os_policy is None:
            return []
        groups = [*self.os_policy.equivalences, *self.os_policy.mixing_groups]
        if self.os_policy.appendix_groups:
            appendix = data.chaos_os_table()
            groups = [*appendix.equivalences, *appendix.mixing_groups, *groups]
        return [frozenset(title_key(os) for os in group) for group in groups]

    def parameter(self, key: str) -> Parameter | None:
        return self.parameters.get(key)


def _check_parameters(parameters: dict[str, Parameter], spec: games.GameSpec) -> None:
    """Every parameter a format declares must be one the game's code reads, of its type."""
    known = spec.all_params()
    for key, param in parameters.items():
        if key not in known:
            raise ValueError(
                f"parameters.{key}: nothing in deckcheck reads it for {spec.id} "
                f"(the parameters it reads: {', '.join(sorted(known))})"
            )
        kind = known[key].kind
        value = param.value
        ok = isinstance(value, bool) if kind is bool else (
            isinstance(value, kind) and not isinstance(value, bool)
        )
        if not ok:
            raise ValueError(f"parameters.{key}: must be a {kind.__name__}, not {value!r}")
        if key == "mulligan" and value not in {m.value for m in games.MulliganKind}:
            kinds = ", ".join(m.value for m in games.MulliganKind)
            raise ValueError(f"parameters.mulligan: {value!r} is not one of {kinds}")


def _under(key: str, exc: ValidationError) -> list[InitErrorDetails]:
    """``exc``'s errors, located under ``key`` as if the table were a field of the format."""
    out: list[InitErrorDetails] = []
    for err in exc.errors():
        detail = InitErrorDetails(type=err["type"], loc=(key, *err["loc"]), input=err["input"])
        if "ctx" in err:
            detail["ctx"] = err["ctx"]
        out.append(detail)
    return out


def _merge(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """``extends``: the child's keys replace the parent's; restriction lists add up."""
    merged = {**parent, **child}
    merged["restrictions"] = [*parent.get("restrictions", []), *child.get("restrictions", [])]
    merged["parameters"] = {**parent.get("parameters", {}), **child.get("parameters", {})}
    merged["sources"] = [*parent.get("sources", []), *child.get("sources", [])]
    return merged


def _error_text(path: Path, exc: ValidationError) -> str:
    lines = [f"{path}: not a valid format file:"]
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "(top level)"
        lines.append(f"  {where}: {err['msg']}")
    return "\n".join(lines)


# A format file is a page of TOML; anything larger is no format file.
MAX_FORMAT_BYTES = 1 << 20

def read_raw(path: Path) -> dict[str, Any]:
    raw = read_limited(path, MAX_FORMAT_BYTES, FormatError, "a format file")
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"{path}: not valid TOML: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise FormatError(f"{path}: not UTF-8 text: {exc}") from exc


class FormatRegistry:
    """The formats found in the search path: the shipped ``formats/`` plus user folders."""

    def __init__(self, folders: list[Path]) -> None:
        self.folders = folders
        self._cache: dict[str, Format] = {}

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
        """A format by id, or by path to a ``.toml`` file."""
        if ref in self._cache:
            return self._cache[ref]
        as_path = Path(ref)
        if ref.endswith(".toml") and as_path.is_file():
            fmt = self._load(as_path, set())
        else:
            path = self.paths().get(ref)
            if path is None:
                known = ", ".join(self.ids()) or "none"
                raise FormatError(f"unknown format {ref!r} (known: {known})")
            fmt = self._load(path, set())
        self._cache[ref] = fmt
        return fmt

    def _raw(self, path: Path, seen: set[str]) -> dict[str, Any]:
        raw = read_raw(path)
        parent = raw.get("extends")
        if parent is None:
            return raw
        if not isinstance(parent, str):
            raise FormatError(f"{path}: extends must be a format id")
        if parent in seen:
            raise FormatError(f"{path}: extends {parent!r} loops")
        parent_path = self.paths().get(parent)
        if parent_path is None:
            raise FormatError(f"{path}: extends unknown format {parent!r}")
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
