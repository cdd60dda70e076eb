"""Formats as data: the schema of ``formats/*.toml`` and its loader.

A format names its game, its sources, its deck sections, copy limits and overrides, type
counts, OS policy and restriction lists. Every check carries the rule id it reports and the
rulebook section (or "outside the rulebooks") it comes from. Adding a format, a restriction
list or an OS group is a new or edited file, never code.
"""

from __future__ import annotations

import re
import tomllib
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from deckcheck import data, games
from deckcheck.errors import FormatError as FormatError
from deckcheck.models import SECTIONS, Game, Severity
from deckcheck.normalize import title_key


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Check(_Strict):
    """What a check reports: its rule id, where the rule comes from, and how severe it is."""

    rule: str
    source: str
    severity: Severity = "error"


class SizeCheck(Check):
    min: int = Field(0, ge=0)
    max: int | None = Field(None, ge=0)


class TypeCheck(_Strict):
    """The card types a section takes. A rule id is needed only if some type is left out."""

    allowed: tuple[str, ...]
    rule: str | None = None
    source: str | None = None
    severity: Severity = "error"


class ForbiddenTypes(Check):
    types: tuple[str, ...]


class Section(_Strict):
    name: Literal["main", "extra", "gate", "side"]
    label: str | None = None
    size: SizeCheck
    types: TypeCheck
    forbidden: tuple[ForbiddenTypes, ...] = ()


class Match(_Strict):
    """Selects cards by an append word, a keyword, or a keyword pattern with a number ``n``."""

    append: str | None = None
    keyword: str | None = None
    keyword_pattern: str | None = None

    @model_validator(mode="after")
    def _one(self) -> Match:
        given = [x for x in (self.append, self.keyword, self.keyword_pattern) if x is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of append, keyword, keyword_pattern")
        if self.keyword_pattern is not None:
            try:
                compiled = re.compile(self.keyword_pattern)
            except re.error as exc:
                raise ValueError(f"keyword_pattern is not a regular expression: {exc}") from exc
            if "n" not in compiled.groupindex:
                raise ValueError("keyword_pattern needs a named group (?P<n>...) for the limit")
        return self


class Copies(Check):
    """The general copy limit. ``key``: how two cards are "the same" for counting."""

    key: Literal["name", "name+type", "vision-name"]
    limit: int = Field(ge=0)
    sections: tuple[str, ...] = ("main",)


class LimitOverride(_Strict):
    """An append word or keyword that replaces the general copy limit for its cards.

    ``limit = "unlimited"`` exempts them; a number (or the pattern's ``n``) is a stricter
    limit reported under this override's own rule.
    """

    match: Match
    limit: int | Literal["unlimited", "pattern"]
    rule: str | None = None
    source: str
    severity: Severity = "error"

    @model_validator(mode="after")
    def _rule_for_limits(self) -> LimitOverride:
        if self.limit != "unlimited" and self.rule is None:
            raise ValueError("a numeric or pattern limit needs a rule id")
        if (self.limit == "pattern") != (self.match.keyword_pattern is not None):
            raise ValueError('limit = "pattern" goes with match.keyword_pattern, and only with it')
        return self


class Pure(Check):
    """A deck with any card carrying ``append`` must consist only of such cards."""

    append: str
    sections: tuple[str, ...] = ("main", "extra")


class TypeCount(Check):
    types: tuple[str, ...]
    sections: tuple[str, ...] = ("main",)
    min: int | None = Field(None, ge=0)
    max: int | None = Field(None, ge=0)
    label: str | None = None


class AttributeLimit(Check):
    """At most ``limit`` cards sharing one value of ``attribute`` (rakuen gate numbers)."""

    attribute: Literal["gate_number", "level", "cost", "color", "world", "title", "os"]
    sections: tuple[str, ...]
    limit: int = Field(ge=0)


class Partner(Check):
    """Chaos partner choice (§6.2.2): who may be partner, and whether to warn without one."""

    candidate_types: tuple[str, ...]
    partner_types: tuple[str, ...]
    forbid_keywords: tuple[str, ...] = ()
    forbid_appends: tuple[str, ...] = ()
    warn_without_partner_card: bool = True
    warning_source: str | None = None


class OsPolicy(Check):
    """``single``: every card of the deck shares one OS, up to equivalences and mixing groups."""

    mode: Literal["any", "single"]
    appendix_groups: bool = True
    equivalences: tuple[tuple[str, ...], ...] = ()
    mixing_groups: tuple[tuple[str, ...], ...] = ()
    every_title_appends: tuple[str, ...] = ()
    sections: tuple[str, ...] = ("main", "extra")


class OpeningCheck(Check):
    """Warn when the chance of no card of ``types`` in the opening hand exceeds ``max_miss``."""

    types: tuple[str, ...]
    hand: int = Field(gt=0)
    max_miss: float = Field(ge=0, le=1)
    section: str = "main"


class Restriction(Check):
    """Event restriction lists: banned, at most N copies, or at most N out of a group (選抜).

    ``cards`` are numbers or names (names match every printing). ``count`` says what a group
    limit counts: physical copies (default) or distinct card names.
    """

    kind: Literal["banned", "limit", "group"]
    list: str
    cards: tuple[str, ...] = Field(min_length=1)
    limit: int = Field(0, ge=0)
    group: str | None = None
    count: Literal["copies", "names"] = "copies"
    sections: tuple[str, ...] = ("main", "extra", "gate")


class Parameter(_Strict):
    """A fact later tools need (opening hand, mulligan, ...), with its source.

    ``assumption = true`` marks facts the rulebooks do not give; every output shows them.
    """

    value: int | float | str | bool
    source: str
    assumption: bool = False
    note: str | None = None


class Format(_Strict):
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

    def checks(self) -> list[Check]:
        """Every check of the format, in the order a reader meets them."""
        out: list[Check] = []
        for s in self.sections:
            out.append(s.size)
            out.extend(s.forbidden)
        out.append(self.copies)
        out.extend(self.pure)
        out.extend(self.type_counts)
        out.extend(self.attribute_limits)
        if self.partner is not None:
            out.append(self.partner)
        if self.os_policy is not None and self.os_policy.mode != "any":
            out.append(self.os_policy)
        out.extend(self.opening_checks)
        out.extend(self.restrictions)
        return out

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


def read_raw(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except OSError as exc:
        raise FormatError(f"{path}: cannot read format file: {exc.strerror or exc}") from exc
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
