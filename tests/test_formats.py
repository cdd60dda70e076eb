"""Formats as data: the shipped files load; bad files get messages naming the key."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deckcheck.formats import FormatError
from deckcheck.formats.registry import FormatRegistry, default_registry, read_raw
from deckcheck.games.chaos.checks import os_groups
from deckcheck.games.chaos.tables import os_policy_of

SHIPPED = {
    "chaos-standard",
    "chaos-neo-standard",
    "rakuen-standard",
    "vision-standard",
    "iris-standard",
}


def test_shipped_formats_load_and_cite_sources() -> None:
    registry = default_registry()
    assert set(registry.ids()) >= SHIPPED
    for fmt in registry.all():
        assert fmt.sources
        for check in fmt.checks():
            assert check.source.strip(), (fmt.id, check.rule)
            assert "/" in check.rule


def test_neo_standard_extends_standard_with_appendix_groups() -> None:
    fmt = default_registry().get("chaos-neo-standard")
    policy = os_policy_of(fmt)
    assert policy is not None and policy.mode == "single"
    assert fmt.copies.rule == "chaos/copies"  # inherited
    groups = os_groups(policy)
    assert frozenset({"そらのおとしものf", "そらのおとしもの"}) in groups
    assert len(groups) == 3


def test_vision_facts_from_outside_the_rulebooks_are_assumptions() -> None:
    fmt = default_registry().get("vision-standard")
    text = "\n".join(fmt.assumptions)
    for fact in ("vision/deck-limit", "opening_hand", "mulligan", "hand_limit", "node_ready"):
        assert fact in text
    # cited to 「Phantom Magic Vision 総合ルール」 §1.2, no longer assumptions
    assert "vision/main-size" not in text and "vision/side-size" not in text


def write(folder: Path, name: str, text: str) -> FormatRegistry:
    (folder / f"{name}.toml").write_text(text, encoding="utf-8")
    return FormatRegistry([folder, *default_registry().folders])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("id = 'x'\ngame = 'chess'", "game"),
        ("this is not toml =", "not valid TOML"),
        (
            "extends = 'chaos-standard'\ncopies = { key = 'name', limit = -1, rule = 'r', "
            "source = 's' }",
            "copies.limit",
        ),
        (
            "extends = 'chaos-standard'\n[[type_counts]]\ntypes = ['wizard']\nrule = 'r'\n"
            "source = 's'",
            "'wizard' is not a chaos card type",
        ),
        (  # a game's own check table names card types too (CheckTable.types)
            "extends = 'chaos-standard'\n[partner]\ncandidate_types = ['wizard']\n"
            "partner_types = ['partner']\nrule = 'r'\nsource = 's'",
            "partner.candidate_types: 'wizard' is not a chaos card type",
        ),
        ("extends = 'chaos-standard'\nsurprise = 1", "surprise"),
        ("extends = 'bad'", "loops"),
        ("extends = 'nowhere'", "extends unknown format 'nowhere'"),
        (
            "extends = 'chaos-standard'\n[[limit_overrides]]\nmatch = { keyword_pattern = '(' }\n"
            "limit = 'pattern'\nrule = 'r'\nsource = 's'",
            "not a regular expression",
        ),
        (  # a match by a word names a list column of the game's cards (chaos: append)
            "extends = 'chaos-standard'\n[[limit_overrides]]\nmatch = { power = 'BETA' }\n"
            "limit = 'unlimited'\nsource = 's'",
            "limit_overrides: chaos cards have no list column 'power'",
        ),
        (
            "extends = 'iris-standard'\n[[limit_overrides]]\nmatch = { append = 'BETA' }\n"
            "limit = 'unlimited'\nsource = 's'",
            "limit_overrides: iris cards have no list column 'append'",
        ),
        (
            "extends = 'chaos-standard'\n[[limit_overrides]]\n"
            "match = { append = 'BETA', keyword = 'x' }\nlimit = 'unlimited'\nsource = 's'",
            "give exactly one of keyword, keyword_pattern or a list column",
        ),
    ],
)
def test_malformed_format_files(tmp_path: Path, text: str, message: str) -> None:
    registry = write(tmp_path, "bad", text)
    with pytest.raises(FormatError) as caught:
        registry.get("bad")
    assert message in str(caught.value) and "bad.toml" in str(caught.value)


def test_a_new_format_is_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my-event.toml").write_text(
        "extends = 'iris-standard'\nname = 'my event'\nsources = ['outside the rulebooks']\n"
        "[[restrictions]]\nkind = 'banned'\nlist = 'my list'\ncards = ['SAMPLE-I-U01']\n"
        "rule = 'restriction/banned'\nsource = 'outside the rulebooks: my list'\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("DECKCHECK_FORMATS", str(tmp_path))
    fmt = default_registry().get("my-event")
    assert fmt.game == "iris" and len(fmt.restrictions) == 1


_EVENT = (
    "extends = 'iris-standard'\nname = 'my event'\nsources = ['outside the rulebooks']\n"
    "[[restrictions]]\n{key}list = 'my list'\ncards = ['SAMPLE-I-U01']\n"
    "rule = 'restriction/banned'\nsource = 'outside the rulebooks: my list'\n"
)


def test_a_restriction_form_reads_under_its_old_key_too(tmp_path: Path) -> None:
    """``form`` says which of the three restrictions a table is. Format files written before it
    had that name say ``kind`` (the word is now the card column's only), and still read the
    same; a table that says both is refused, not read one way or the other."""
    new = write(tmp_path, "new", _EVENT.format(key="form = 'limit'\nlimit = 2\n")).get("new")
    old = write(tmp_path, "old", _EVENT.format(key="kind = 'limit'\nlimit = 2\n")).get("old")
    assert new.restrictions == old.restrictions and new.restrictions[0].form == "limit"
    dumped = old.model_dump(mode="json")["restrictions"][0]
    assert dumped["form"] == "limit" and "kind" not in dumped
    both = write(tmp_path, "both", _EVENT.format(key="form = 'banned'\nkind = 'limit'\n"))
    with pytest.raises(FormatError, match="kind"):
        both.get("both")


def test_a_format_file_is_read_as_it_is_now_and_each_reader_gets_its_own_table(
    tmp_path: Path,
) -> None:
    """The registry keeps format files parsed (``read_raw``): an edit is still read at the next
    look-up, even one that keeps the file's size and time stamp, and a table a reader changes
    is not what the next reader gets."""
    path = tmp_path / "my-event.toml"
    path.write_text(_EVENT.format(key="form = 'limit'\nlimit = 2\n"), encoding="utf-8")
    stamp = path.stat().st_mtime_ns
    first = read_raw(path)
    first["restrictions"][0]["limit"] = 9
    first["name"] = "changed"
    again = read_raw(path)
    assert again["restrictions"][0]["limit"] == 2 and again["name"] == "my event"
    path.write_text(_EVENT.format(key="form = 'limit'\nlimit = 3\n"), encoding="utf-8")
    os.utime(path, ns=(stamp, stamp))
    fmt = FormatRegistry([tmp_path, *default_registry().folders]).get("my-event")
    assert fmt.restrictions[0].limit == 3
