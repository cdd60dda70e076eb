"""Rule sources in Japanese (issue 21: "a rulebook citation is in the rulebook's language"): a
source's citation (rulebook title, edition, section, quoted rulebook text) stays as written,
and deckcheck's own words around it ("fan source", "deckcheck's reading", a gloss) are
Japanese, in every output that shows a source: the report, its JSON, ``formats show``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po
from prose import english_words

from deckcheck import i18n, plugins
from deckcheck.checks import naming
from deckcheck.checks.table import check_tables
from deckcheck.decklist import SYNTAX_SOURCE
from deckcheck.formats.params import param_value
from deckcheck.formats.registry import FormatRegistry, default_registry
from deckcheck.i18n_extract import _ENGLISH, game_of, source_texts
from deckcheck.pool.store import Pool
from deckcheck.wording import cited
from tests.cli_run import deckcheck

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "deckcheck" / "locale" / "ja" / "LC_MESSAGES" / "deckcheck.po"
EXAMPLES = sorted((ROOT / "examples").glob("*.deck"))
FORMAT_FILES = sorted((ROOT / "formats").glob("*.toml"))
# Names of sites and pages a source cites (fan wikis, an announcement's address, a README):
# names, not prose.
SITES = (
    "luck-and-logic.com/information/170201_blog/", "Game_preparation_and_goal", "Game_flow",
    "README.ja.md", "atwiki", "thvision", "wikiwiki", "rueren", "Wiki", "Q&A",
    "node_ready = never", "first_turn_attack = false",  # parameter settings a source names
)
# deckcheck's fixed words for what a source is (the plan's glossary for sources)
FIXED = {"fan source": "ファン情報", "deckcheck's reading": "deckcheckの解釈",
         "outside the rulebooks": "ルールブック外"}
# What a citation is made of, which a translation keeps as it is
QUOTED = re.compile(r"「[^「」]*(?:「[^「」]*」[^「」]*)*」|【[^】]*】")
_SECTION = re.compile(r"§\s?[\d.]+[a-z]?|\bch\.\d+|\d{4}-\d{2}-\d{2}")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff々〆ー]{4,}")


def source_prose(out: str, allowed: list[str]) -> list[str]:
    """English prose of ``out``: not a command quoted in backticks, nor a chapter reference
    (``ch.2``: part of a citation)."""
    out = re.sub(r"`[^`]*`", " ", out)
    return english_words(re.sub(r"\bch\.(?=\d)", " ", out), allowed)


def _catalogue() -> dict[tuple[str | None, str], Message]:
    with PO.open("rb") as handle:
        return {(m.context, str(m.id)): m for m in read_po(handle, locale="ja") if m.id}


def _english_sources() -> Iterator[tuple[str, str]]:
    """(game, source) of every format file's source with deckcheck's English words in it."""
    for path in FORMAT_FILES:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        game = game_of(data, path.parent)
        for text in source_texts(data):
            if _ENGLISH.search(re.sub(r"\bch\.(?=\d)", "", text)):
                yield game, text


def _source_entries() -> list[tuple[str, str]]:
    """(English, Japanese) of every source the catalogue holds: the format files' and
    deckcheck's own (the deck-list format)."""
    found = _catalogue()
    keys = [*_english_sources(), (None, SYNTAX_SOURCE)]
    return [(text, found[(game, text)].string if (game, text) in found else "")
            for game, text in keys]


def test_every_source_with_english_words_has_japanese() -> None:
    missing = [en for en, ja in _source_entries() if not ja]
    assert missing == []
    assert len(_source_entries()) > 30  # every format's sources are read


@pytest.mark.parametrize(("en", "ja"), _source_entries(), ids=lambda t: t[:40])
def test_a_translated_source_keeps_its_citation(en: str, ja: str) -> None:
    """Every quoted passage (「…」, 【…】), section (§1.2.2.b, ch.2), date and Japanese run
    of the English is in the Japanese as written; deckcheck's own words are translated."""
    kept = [*QUOTED.findall(en), *_SECTION.findall(en), *_JAPANESE.findall(en)]
    assert [k for k in kept if k not in ja] == []
    for english, japanese in FIXED.items():
        if english in en.casefold():
            assert japanese in ja
    assert english_words(ja, SITES) == []


def test_a_source_is_shown_in_the_language_and_kept_in_english() -> None:
    text = "fan source only (English fan wiki): 25 life"
    assert cited("vision", text) == text
    with i18n.override("ja"):
        assert cited("vision", text) == "ファン情報のみ (英語のファンWiki): ライフ25"
        assert cited("vision", "「Phantom Magic Vision 総合ルール」 §1.2.4") == (
            "「Phantom Magic Vision 総合ルール」 §1.2.4"  # nothing of deckcheck's to translate
        )
        assert cited("chaos", "") == ""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("i18n-sources") / "pool.sqlite3"
    Pool(path).close()  # the shipped card data
    return path


@pytest.fixture(scope="module")
def formats() -> FormatRegistry:
    return default_registry()


def _run(*args: str, lang: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("LC_ALL", "LC_MESSAGES", "LANG", "DECKCHECK_LANG")}
    env.update(PYTHONPATH=str(ROOT), COLUMNS="1000", LANG=lang)
    return deckcheck(args, env=env, cwd=ROOT)  # in process, as the process answers


def _data(reports: list[dict[str, Any]], formats: FormatRegistry) -> list[str]:
    """What a report may show in Latin letters that is not prose: card names and numbers,
    the format's id and name, the deck's path, the parameters as the file sets them
    (``（mulligan） = none``, after its label) and cited sites.
    Sources are not here: they are prose now."""
    out: list[str] = list(SITES)
    for report in reports:
        fmt = formats.get(report["format"])
        out += [fmt.id, fmt.name, report["path"] or ""]
        for key, p in fmt.parameters.items():
            out.append(f"（{key}） = {param_value(p.value)}")
            out += re.findall(r"\S+\.toml", p.note or "")  # a path, before the id inside it
        for v in report["violations"]:
            out += [t for c in v["cards"] for t in (c["name"], c["number"] or "")]
    return out


def _reports(out: str) -> list[dict[str, Any]]:
    data = json.loads(out)
    return data if isinstance(data, list) else [data]


def test_validate_every_example_shows_sources_in_japanese(
    db: Path, formats: FormatRegistry
) -> None:
    english = _run("validate", "examples", "--db", str(db), "--output", "json", lang="C")
    allowed = _data(_reports(english.stdout), formats)
    done = _run("validate", "examples", "--db", str(db), lang="ja_JP.UTF-8")
    assert done.returncode == 1, done.stderr
    assert "出典：" in done.stdout and "仮定：" in done.stdout
    assert source_prose(done.stdout, allowed) == []
    assert "ファン情報 (wikiwiki rueren)" in done.stdout  # vision/copies, rulebook part as is
    assert "「Phantom Magic Vision 総合ルール」 §1.2.2.b (同名のカードは3枚まで)" in done.stdout


def test_validate_json_sources_and_assumptions_follow_the_language(
    db: Path, formats: FormatRegistry
) -> None:
    english = _reports(
        _run("validate", "examples", "--db", str(db), "--output", "json", lang="C").stdout
    )
    japanese = _reports(
        _run("validate", "examples", "--db", str(db), "--output", "json",
             lang="ja_JP.UTF-8").stdout
    )
    allowed = _data(english, formats)
    changed = 0
    for en, ja in zip(english, japanese, strict=True):
        assert [v["rule"] for v in ja["violations"]] == [v["rule"] for v in en["violations"]]
        texts = [v["source"] for v in ja["violations"]] + ja["assumptions"]
        assert source_prose("\n".join(texts), allowed) == []
        changed += sum(a != b for a, b in zip(en["assumptions"], ja["assumptions"], strict=True))
        for v, w in zip(en["violations"], ja["violations"], strict=True):
            assert [q for q in QUOTED.findall(v["source"]) if q not in w["source"]] == []
    assert changed > 0


@pytest.mark.parametrize("format_id", ["vision-standard", "chaos-neo-standard",
                                       "iris-unit-command", "rakuen-standard"])
def test_formats_show_sources_in_japanese(format_id: str, formats: FormatRegistry) -> None:
    done = _run("formats", "show", format_id, lang="ja_JP.UTF-8")
    assert done.returncode == 0, done.stderr
    fmt = formats.get(format_id)
    allowed = [*SITES, fmt.id, fmt.name, *(f.id for f in formats.family(format_id))]
    allowed += [f"（{key}） = {param_value(p.value)}" for key, p in fmt.parameters.items()]
    allowed += [*fmt.parameters, *plugins.ids(), "[TST ゲージ]"]  # an OS (ChaosTCG 総合ルール §13)
    labels = {s.name: s.label for s in fmt.sections}
    # the rule table's own words (section and type ids, in brackets after their words) are not
    # sources: as formats show prints them (deckcheck/checks/naming.py)
    with i18n.override("ja"), naming.showing(fmt.game, labels):
        allowed += [" ".join(row.what.split()) for check_table in check_tables(fmt.game)
                    for entry in check_table.of(fmt) for row in check_table.describe(entry)]
    # rich wraps long cells: compare the words, not the lines
    assert source_prose(" ".join(done.stdout.split()), allowed) == [], done.stdout


def test_service_gives_sources_in_the_requests_language(db: Path) -> None:
    """``/formats/{id}`` and ``/validate``: a source's glosses follow ``Accept-Language``, its
    citation stays; the English is today's."""
    from starlette.testclient import TestClient

    from deckcheck.service.app import create_app
    from deckcheck.service.settings import Settings

    app = create_app(Settings(db=db, sync_games=100, job_games=1000, max_jobs=1, workers=1))
    text = (ROOT / "examples" / "vision-standard-illegal.deck").read_text(encoding="utf-8")
    fan = "fan source only (English fan wiki): 25 life"
    with TestClient(app) as http:
        en = http.get("/formats/vision-standard", headers={"Accept-Language": "en"}).json()
        ja = http.get("/formats/vision-standard", headers={"Accept-Language": "ja"}).json()
        assert en["parameters"]["life"]["source"] == fan
        assert ja["parameters"]["life"]["source"] == "ファン情報のみ (英語のファンWiki): ライフ25"
        assert source_prose("\n".join(ja["sources"]), list(SITES)) == []
        body = {"deck": text, "format": "vision-standard"}
        done = http.post("/validate", json=body, headers={"Accept-Language": "ja"}).json()
    sources = [v["source"] for v in done["violations"]]
    assert any("ファン情報 (wikiwiki rueren)" in s for s in sources)
    settings = [f"（{key}） = {param_value(p.value)}" for key, p in default_registry().get(
        "vision-standard").parameters.items()]
    assert source_prose("\n".join(sources + done["assumptions"]), [*SITES, *settings]) == []
