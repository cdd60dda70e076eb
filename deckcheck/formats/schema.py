"""Formats as data: the schema of ``formats/*.toml`` (read by formats/registry.py).

A format names its game, its sources, its deck sections, copy limits and overrides, type
counts, restriction lists and the tables of its game's own checks. Every check carries
the rule id it reports and the rulebook section (or "outside the rulebooks") it comes from.
Adding a format or a restriction list is a new or edited file, never code. A format may be
dated (``effective``) and supersede an earlier version (``supersedes``): the registry uses the
version in force on a day (formats/versions.py). The model of each table lives with its check
in the check-table registry (deckcheck/checks/, and the check tables a game's spec declares):
one without a field here reads its own top-level table (``Format.tables``). The game is loaded,
and so its check tables are known, before the format's tables are read.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
    model_validator,
)
from pydantic_core import InitErrorDetails

from deckcheck import plugins
from deckcheck.checks.copies import Copies as Copies
from deckcheck.checks.copies import LimitOverride as LimitOverride
from deckcheck.checks.copies import Match as Match
from deckcheck.checks.counts import AttributeLimit as AttributeLimit
from deckcheck.checks.counts import OpeningCheck as OpeningCheck
from deckcheck.checks.counts import TypeCount as TypeCount
from deckcheck.checks.restrictions import Restriction as Restriction
from deckcheck.checks.sections import ForbiddenTypes as ForbiddenTypes
from deckcheck.checks.sections import Section as Section
from deckcheck.checks.sections import SizeCheck as SizeCheck
from deckcheck.checks.sections import TypeCheck as TypeCheck
from deckcheck.checks.table import Check as Check
from deckcheck.checks.table import Strict, check_tables
from deckcheck.errors import FormatError as FormatError
from deckcheck.errors import UnknownGame
from deckcheck.formats import versions
from deckcheck.formats.params import ASSUMED as ASSUMED
from deckcheck.formats.params import Parameter as Parameter
from deckcheck.formats.params import assumed, check_parameters, param_note
from deckcheck.i18n import _
from deckcheck.models import SECTIONS, Card, FormatVersion
from deckcheck.wording import a_an, cited, word

if TYPE_CHECKING:
    from deckcheck.plugins.contract import GameSpec


# The copy-limit keys every game has; a game adds its own (GameSpec.cards.copy_keys).
COPY_KEYS = ("name", "name+type")


class Effective(Strict):
    """When a format version is in force: from its first day to its last (``until``,
    inclusive; none: until a version that supersedes it starts, or for good), with the source
    of the dates."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
    )

    start: datetime.date = Field(alias="from")
    until: datetime.date | None = None
    source: str

    @model_validator(mode="after")
    def _ordered(self) -> Effective:
        if self.until is not None and self.until < self.start:
            raise ValueError(
                _("from {start} is after until {until}", start=self.start, until=self.until)
            )
        return self


def _known(where: str, names: Sequence[str], known: Collection[str], game: str | None) -> None:
    """Each of ``names`` is one of ``known``: the game's card types (``game`` given), else the
    sections."""
    for name in names:
        if name in known:
            continue
        if game is not None:
            a_game = a_an(word(game, game))
            message = _(
                "{where}: {name} is not {a_game} card type",
                where=where, name=repr(name), a_game=a_game,
            )
        else:
            message = _(
                "{where}: {name} is not a section ({sections})",
                where=where, name=repr(name), sections=", ".join(known),
            )
        raise ValueError(message)


class Format(Strict):
    id: str
    game: plugins.KnownGame
    name: str
    date: str | None = None
    description: str | None = None
    extends: str | None = None
    effective: Effective | None = None
    supersedes: str | None = None  # the id of the version this one follows
    sources: tuple[str, ...] = Field(min_length=1)
    sections: tuple[Section, ...] = Field(min_length=1)
    copies: Copies
    limit_overrides: tuple[LimitOverride, ...] = ()
    type_counts: tuple[TypeCount, ...] = ()
    attribute_limits: tuple[AttributeLimit, ...] = ()
    opening_checks: tuple[OpeningCheck, ...] = ()
    restrictions: tuple[Restriction, ...] = ()
    parameters: dict[str, Parameter] = Field(default_factory=dict)
    # tables of check tables registered without a field of their own (checks.table), by key
    _extra_tables: dict[str, tuple[BaseModel, ...]] = PrivateAttr(default_factory=dict)
    # the version's dates within its family, set by the registry (which sees every file)
    _version: FormatVersion | None = PrivateAttr(default=None)

    @model_validator(mode="wrap")
    @classmethod
    def _registered_tables(cls, raw: Any, handler: ModelWrapValidatorHandler[Format]) -> Format:
        """Read the tables of the check tables that have no field here (the game's own among
        them) with their own model. The game is loaded first; with an unknown game only the
        game is reported (its check tables, and so its tables, are unknown)."""
        tables: dict[str, tuple[BaseModel, ...]] = {}
        if isinstance(raw, dict):
            game = raw.get("game")
            try:
                known = check_tables(game) if isinstance(game, str) else check_tables()
            except UnknownGame:
                raw = {k: v for k, v in raw.items() if k in cls.model_fields}
                known = check_tables()
            own = [t for t in known if t.tables is None and t.name not in cls.model_fields]
            errors: list[InitErrorDetails] = []
            for check_table in own:
                if check_table.name not in raw:
                    continue
                value = raw[check_table.name]
                raw = {key: v for key, v in raw.items() if key != check_table.name}
                try:
                    found = check_table.adapter.validate_python(value)
                except ValidationError as exc:
                    errors.extend(_under(check_table.name, exc))
                    continue
                tables[check_table.name] = tuple(found) if check_table.many else (found,)
            if errors:
                raise ValidationError.from_exception_data(cls.__name__, errors)
        fmt = handler(raw)
        fmt._extra_tables = tables
        fmt.__dict__.pop("extra_tables", None)  # a value cached before, without them
        return fmt

    @model_serializer(mode="wrap")
    def _with_extra_tables(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        """A dump (``formats show --json``, ``GET /formats/{id}``) holds the tables of the
        check tables without a field too, under their TOML keys, so it reads back as the
        format."""
        out: dict[str, Any] = handler(self)
        for check_table in check_tables(self.game):
            tables = self._extra_tables.get(check_table.name)
            if tables:
                dumped = [t.model_dump(mode=info.mode, by_alias=info.by_alias) for t in tables]
                out[check_table.name] = dumped if check_table.many else dumped[0]
        return out

    @model_validator(mode="after")
    def _consistent(self) -> Format:
        spec = plugins.get(self.game)
        check_parameters(self.parameters, spec)
        section_names = [s.name for s in self.sections]
        if len(set(section_names)) != len(section_names):
            raise ValueError(_("a section is defined twice"))
        if self.supersedes is not None and self.effective is None:
            raise ValueError(
                _("supersedes: a version that supersedes another needs effective")
            )
        if self.supersedes == self.id:
            raise ValueError(_("supersedes: a format cannot supersede itself"))
        copy_keys = (*COPY_KEYS, *spec.cards.copy_keys)
        if self.copies.key not in copy_keys:
            raise ValueError(
                _(
                    "copies.key: {key} is not one of {keys}",
                    key=repr(self.copies.key),
                    keys=", ".join(copy_keys),
                )
            )
        self._known_names(spec)
        # a card column, shared or the game's own; not one every card has to itself
        columns = {*Card.model_fields, *(c.name for c in spec.cards.columns)} - {
            "extra", "game", "number", "name"
        }
        lists = {c.name for c in spec.cards.columns if c.type == "list"}
        for o in self.limit_overrides:  # a match by a column's word names a list column
            if o.match.column is not None and o.match.column[0] not in lists:
                raise ValueError(
                    _(
                        "limit_overrides: {game} cards have no list column {column}",
                        game=word(self.game, self.game),
                        column=repr(o.match.column[0]),
                    )
                )
        for al in self.attribute_limits:
            if al.attribute not in columns:
                raise ValueError(
                    _(
                        "attribute_limits {rule}: {game} cards have no {attribute}",
                        rule=al.rule,
                        game=word(self.game, self.game),
                        attribute=repr(al.attribute),
                    )
                )
        return self

    def _known_names(self, spec: GameSpec) -> None:
        """Every card type and section the format names is one of its game's."""
        types, sections = spec.cards.card_types, (*SECTIONS, *spec.construction.sections)

        def known_types(where: str, names: Sequence[str]) -> None:
            _known(where, names, types, self.game)

        def known_sections(where: str, names: Sequence[str]) -> None:
            _known(where, names, sections, None)

        known_sections("sections", tuple(s.name for s in self.sections))
        for s in self.sections:
            known_types(f"sections.{s.name}.types.allowed", s.types.allowed)
            some = set(s.types.allowed) != set(types)
            if some and (s.types.rule is None or s.types.source is None):
                raise ValueError(
                    _(
                        "sections.{section}.types: leaves out some types, so it needs rule and "
                        "source",
                        section=s.name,
                    )
                )
            for f in s.forbidden:
                known_types(f"sections.{s.name}.forbidden", f.types)
        known_sections("copies.sections", self.copies.sections)
        for tc in self.type_counts:
            known_types(f"type_counts {tc.rule}", tc.types)
            known_sections(f"type_counts {tc.rule}", tc.sections)
        for oc in self.opening_checks:
            known_types(f"opening_checks {oc.rule}", oc.types)
        for check_table in check_tables(self.game):  # the card types a table names (.types)
            for table in check_table.of(self):
                for where, names in check_table.types(table):
                    known_types(f"{check_table.name}.{where}", tuple(names))

    @cached_property
    def version(self) -> FormatVersion:
        """This version's id and dates; with the end a later version gives it and that
        version's id once the registry has read the family (``dated_by``). Cached: every
        report carries it."""
        if self._version is not None:
            return self._version
        eff = self.effective
        return FormatVersion(
            id=self.id,
            effective_from=eff.start if eff else None,
            effective_until=eff.until if eff else None,
            supersedes=self.supersedes,
        )

    def dated_by(self, until: datetime.date | None, successor: str | None) -> None:
        """The registry's word on this version's end and successor (formats it has read)."""
        self._version = FormatVersion(
            id=self.id,
            effective_from=self.effective.start if self.effective else None,
            effective_until=until,
            supersedes=self.supersedes,
            superseded_by=successor,
        )
        self.__dict__.pop("version", None)  # a value cached before, without them

    def dated(self) -> versions.Dated:
        eff = self.effective
        return versions.Dated(
            self.id, self.game, eff.start if eff else None, eff.until if eff else None,
            self.supersedes,
        )

    @cached_property
    def section_map(self) -> dict[str, Section]:
        return {s.name: s for s in self.sections}

    @cached_property
    def extra_tables(self) -> dict[str, tuple[BaseModel, ...]]:
        """The tables of the check tables without a field, by TOML key; cached, since reading a
        private attribute of a pydantic model is a slow lookup and every check asks."""
        return self._extra_tables

    def tables(self, key: str) -> Sequence[Any]:
        """The tables under TOML key ``key`` (a field, or a registered check table's), as a
        sequence."""
        if key not in _FIELDS:  # a set: pydantic's model_fields is a slow property
            return self.extra_tables.get(key, ())
        value = getattr(self, key)
        if value is None:
            return ()
        return value if isinstance(value, tuple) else (value,)

    def checks(self) -> list[Check]:
        """Every check of the format that can report something, in the check tables' order."""
        return [
            check
            for check_table in check_tables(self.game)
            for table in check_table.of(self)
            if check_table.active(table)
            for check in check_table.cites(table)
        ]

    @property
    def assumptions(self) -> list[str]:
        """What this format takes from outside the rulebooks: shown with every report, in the
        language of the moment (a note is the format's words; a source keeps its citation as
        written and words the rest in the language: ``wording.cited``)."""
        rules, params = self.assumed_parts
        shown = [f"{rule}: {cited(self.game, source)}" for rule, source in rules]
        return list(dict.fromkeys([*shown, *(param_note(self.game, *p) for p in params)]))

    @cached_property
    def assumed_parts(self) -> tuple[list[tuple[str, str]], list[tuple[str, Parameter]]]:
        """The assumed rules (rule, English source: what makes it assumed is English) and the
        assumed parameters."""
        rules = [(c.rule, c.source) for c in self.checks() if assumed(c.source)]
        overrides = [
            (o.rule, o.source) for o in self.limit_overrides if o.rule and assumed(o.source)
        ]
        params = [(key, p) for key, p in self.parameters.items() if p.assumption]
        return list(dict.fromkeys([*rules, *overrides])), params

    def parameter(self, key: str) -> Parameter | None:
        return self.parameters.get(key)


_FIELDS = frozenset(Format.model_fields)  # the TOML keys with a field of their own

def _under(key: str, exc: ValidationError) -> list[InitErrorDetails]:
    """``exc``'s errors, located under ``key`` as if the table were a field of the format."""
    out: list[InitErrorDetails] = []
    for err in exc.errors():
        detail = InitErrorDetails(type=err["type"], loc=(key, *err["loc"]), input=err["input"])
        if "ctx" in err:
            detail["ctx"] = err["ctx"]
        out.append(detail)
    return out
