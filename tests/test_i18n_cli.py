"""The command line in Japanese (issue 21): every command's --help, typer's and click's own
words, the CLI's messages, ``formats``, ``formats show`` and ``pool``; English unchanged."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer

from deckcheck import plugins
from deckcheck.checks.table import check_tables
from deckcheck.cli import app
from deckcheck.formats.params import param_value
from deckcheck.formats.registry import default_registry
from deckcheck.i18n import _, override
from deckcheck.pool.search import known_filters
from deckcheck.pool.store import Pool
from tests.cli_run import CliRunner
from tests.cli_run import deckcheck as run_cli
from tests.prose import english_words
from tests.test_i18n_sources import SITES, source_prose

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def deckcheck(*args: str, lang: str | None = "ja_JP.UTF-8", **env: str) -> tuple[int, str]:
    """``deckcheck ARGS`` under ``LANG=lang`` (in this process, as the process would answer:
    tests/cli_run.py): exit status, stdout and stderr."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    environ.pop("DECKCHECK_LANG", None)
    # this checkout first, then whatever the tests run with (a plugin installed beside deckcheck)
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    environ.update({"COLUMNS": "200", "PYTHONPATH": path, **env})
    if lang is not None:
        environ["LANG"] = lang
    done = run_cli(args, env=environ, cwd=ROOT)
    return done.returncode, done.stdout + done.stderr


# Code in help texts and usage lines, not prose, as option names are: types (<int range>,
# <list[Path]>), metavars (OPTIONS, DECK_OR_FOLDER, K), arguments as typer names them
# ({paths}..., files...), file suffixes (.toml, *.deck), deck-file keys (format:, date:) and
# values as the user typed them ('xx'), addresses (tcp://HOST:PORT).
_CODE = [
    re.compile(r"\b[a-z]+://\S+"),
    re.compile(r"<[^<>\s]+(?: range)?>"),
    re.compile(r"(?<![:\w])[A-Z][A-Z_]*\b"),
    re.compile(r"\{?\b[a-z]+\}?\.\.\."),
    re.compile(r"(?<!\w)\*?\.[a-z0-9]+\b"),
    re.compile(r"\b[a-z]+:(?=\s|$)"),
    re.compile(r"'[^'\s]*'"),
]


def prose(text: str, allowed: list[str] | tuple[str, ...] | set[str] = ()) -> list[str]:
    """English prose left in ``text``, rich's line wrapping and box borders undone."""
    text = " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())
    for data in sorted({" ".join(a.split()) for a in allowed}, key=len, reverse=True):
        if data:
            text = re.sub(rf"(?<![\w:-]){re.escape(data)}(?![\w:-])", " ", text)
    for pattern in _CODE:
        text = pattern.sub(" ", text)
    return english_words(text)


def _paths(command: object, prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    yield prefix
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from _paths(sub, (*prefix, name))


COMMANDS = list(_paths(typer.main.get_command(app)))
# Words of help texts that are code or names, not prose: the commands, option values as typed
# (``--output text``, ``--side play``), and the names of programs and file formats.
CODE_WORDS = sorted(
    {part for path in COMMANDS for part in path}
    | {"text", "json", "junit", "github", "sarif", "csv", "main", "extra", "gate", "side"}
    | {"play", "draw", "both", "blank", "section,count,number,name", "auto", "reference"}  # option values
    | {"FastAPI", "uvicorn", "README", "git", "YAML", "JSON Lines", "card_pool/"}
    | set(plugins.ids())
)


def _game_words() -> list[str]:
    """The game plugins' own column and filter words in ``pool search --help`` (each game
    spec's; their Japanese is the game's, not the command line's)."""
    with override("ja"):
        return [
            text
            for found in known_filters(None).values()
            for f in found
            if f.game
            for text in (_(f.name or f.label), _(f.about or f.description))
        ]


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "deckcheck")
def test_every_help_is_japanese(path: tuple[str, ...]) -> None:
    code, out = deckcheck(*path, "--help")
    assert code == 0, out
    assert (
        "使い方：" in out and "オプション" in out and "このメッセージを表示して終了します。" in out
    )
    allowed = [*CODE_WORDS, *(_game_words() if path == ("pool", "search") else ())]
    assert prose(out, allowed) == [], out


def test_help_stays_english_with_lang_en() -> None:
    code, out = deckcheck("validate", "--help", "--lang", "en")
    assert code == 0
    assert "Usage: deckcheck validate" in out and "Show this message and exit." in out
    assert "Check deck lists against their format; report every violation." in out
    assert "[default: text]" in out and "使い方" not in out
    code, out = deckcheck("pool", "search", "--help", lang=None)
    assert "Filters (GET /games lists each game's):" in out and "Level at most: level" in out


def test_language_from_the_environment_and_after_the_command() -> None:
    for args, env in (
        (("formats", "--help"), {"DECKCHECK_LANG": "ja"}),
        (("formats", "--help", "--lang", "ja"), {}),
        (("formats", "--lang=ja", "--help"), {"LANG": "C"}),
    ):
        code, out = deckcheck(*args, lang=None, **env)
        assert code == 0 and "使い方：deckcheck formats" in out, (args, out)


def test_an_unknown_language_exits_2_with_a_message() -> None:
    code, out = deckcheck("formats", "--lang", "xx")
    assert code == 2 and "--lang 'xx'" in out and "いずれかを指定してください" in out
    assert prose(out) == [], out
    code, out = deckcheck("--lang", "xx", "formats", lang=None)
    assert code == 2 and "use one of en, ja" in out


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("validate", "--bogus"), "そのようなオプションはありません：--bogus"),
        (("odds",), "引数 'DECK' がありません。"),
        (("pool", "search", "--limit", "0"), "1 以上である必要があります"),
        (("pool", "searc"), "コマンド 'searc' はありません。"),
        (("validate", "x", "--db"), "オプション '--db' には値が必要です。"),
        (("validate", "--output", "xml", "examples"), "不明な --output 'xml'"),
        (("validate", "deckcheck/locale"), "デッキファイルが見つかりません"),
        (("pool", "search", "--game", "mtg"), "不明なゲーム 'mtg'"),
        (("pool", "search", "--max-cost", "x"), "絞り込み max_cost: 'x' は整数ではありません"),
    ],
)
def test_usage_errors_are_japanese(args: tuple[str, ...], says: str) -> None:
    code, out = deckcheck(*args)
    assert code == 2 and says in out, out
    assert prose(out, CODE_WORDS) == [], out


def test_in_process_lang_ja_does_not_leak_into_the_next_run() -> None:
    ja = runner.invoke(app, ["--lang", "ja", "validate", "--help"])
    assert ja.exit_code == 0 and "デッキリストをそのフォーマットで検査し" in ja.output
    en = runner.invoke(app, ["validate", "--help"])
    assert "Check deck lists against their format" in en.output and "使い方" not in en.output
    assert "[default: text]" in en.output  # typer's own words, not the last run's Japanese
    bad = runner.invoke(app, ["validate", "--no-such"])
    assert "Error" in bad.output and "エラー" not in bad.output


def test_formats_list_is_japanese() -> None:
    code, out = deckcheck("formats")
    assert code == 0 and "有効期間" in out and "メインデッキ 50、エクストラデッキ 0–10" in out
    assert prose(out, plugins.ids()) == [], out
    code, out = deckcheck("formats", lang=None)
    assert "in force" in out and "main 50, extra 0–10" in out


def _shown_as_written(format_id: str) -> list[str]:
    """What ``formats show`` prints as the format and its rules give it: parameters, and the
    rule table's rows (the checks' own words, translated with them). Not the sources: their
    glosses are Japanese, their citations as written (test_i18n_sources.py)."""
    registry = default_registry()
    fmt = registry.get(format_id)
    family = registry.family(format_id)
    texts: list[str] = [*plugins.ids(), *SITES, "[TST ゲージ]"]  # an OS (ChaosTCG §13)
    texts += [f.id for f in family]
    for key, param in fmt.parameters.items():
        texts += [key, param_value(param.value)]  # as the file writes it: true, not True
    with override("ja"):
        for check_table in check_tables(fmt.game):
            for entry in check_table.of(fmt):
                texts += [row.what for row in check_table.describe(entry)]
    return texts


@pytest.mark.parametrize("format_id", default_registry().ids())
def test_formats_show_is_japanese(format_id: str) -> None:
    code, out = deckcheck("formats", "show", format_id)
    assert code == 0 and "ルール" in out and "出典" in out, out
    # rich wraps long cells: compare the words, not the lines
    allowed = _shown_as_written(format_id)
    words = source_prose(" ".join(out.split()), [" ".join(t.split()) for t in allowed])
    assert [w for w in words if not any(w in t for t in allowed)] == [], out


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("pool") / "pool.sqlite3"
    Pool(path).close()
    return str(path)


def test_pool_stats_and_search_are_japanese(db: str) -> None:
    code, out = deckcheck("pool", "stats", "--db", db)
    assert code == 0 and "のカード：" in out and "枚" in out
    assert prose(out, plugins.ids()) == [], out
    code, out = deckcheck("pool", "search", "霊夢", "--game", "vision", "--db", db)
    assert code == 0 and "番号" in out and "名前" in out
    with Pool(Path(db)) as pool:
        found = pool.search("vision", "霊夢", None, limit=50, offset=0)
    from deckcheck.render import card_summary

    data = [t for c in found for t in (c.name, c.number, c.type, card_summary(c), *c.keywords)]
    words = prose(" ".join(out.split()), [*plugins.ids(), *data, *" ".join(data).split()])
    assert words == [], out
    code, out = deckcheck("pool", "search", "zzzz-none", "--db", db)
    assert code == 0 and "カードは見つかりませんでした" in out


def test_pool_messages_stay_english_with_lang_en(db: str) -> None:
    code, out = deckcheck("pool", "stats", "--db", db, "--lang", "en")
    assert code == 0 and f"cards in {db}" in out
    code, out = deckcheck("pool", "search", "--max-cost", "x", "--db", db, lang=None)
    assert code == 2 and "search filter max_cost: 'x' is not a whole number" in out


@pytest.mark.parametrize("command", ["odds", "goldfish", "sweep", "validate"])
def test_japanese_help_is_folded_not_cut(command: str) -> None:
    """Japanese has no spaces for rich to wrap at: an option's help folds at the column's
    edge instead of ending in "…" (at 100 columns, odds lost the end of five helps)."""
    code, out = deckcheck(command, "--help", COLUMNS="100")
    assert code == 0 and "オプション" in out
    assert "…" not in out, out
