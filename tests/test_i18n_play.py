"""Issue 21, the play commands in Japanese: odds, hand, goldfish and sweep print Japanese prose
(card data, format ids and the sources of format parameters aside) with LANG=ja_JP.UTF-8 and
today's English with --lang en; plots with Japanese labels find a CJK font or fall back to
English labels with a warning; a worker process raises messages in the caller's language."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from deckcheck.i18n import override
from tests.cli_run import deckcheck
from tests.conftest import EXAMPLES
from tests.test_i18n_sources import SITES, source_prose

ROOT = Path(__file__).resolve().parent.parent
# one deck of each game, and a condition its cards can meet
DECKS = {
    "vision": ("vision-standard-legal.deck", "type:character>=1"),
    "chaos": ("chaos-standard-legal.deck", "type:chara>=1"),
    "rakuen": ("rakuen-standard-legal.deck", "type:member>=1"),
    "iris": ("iris-standard-legal.deck", "type:unit>=1"),
}
# Values a person types, quoted as such in the goldfish notes (VISION's node_until and
# node_ready values, its leaders parameter, in brackets after its word), and card text as printed ([TST ゲージ]): data,
# not prose.
TYPED = ['"all"', "'maintenance'", "'never'", "（leaders）", "[TST ゲージ]"]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("play") / "pool.sqlite3"
    assert deckcheck(["pool", "init", "--db", str(path)], env=_env("en")).returncode == 0
    return path


def _env(lang: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DECKCHECK_LANG", "LC_ALL")}
    env.update(LANG="ja_JP.UTF-8" if lang == "ja" else "C.UTF-8", LC_MESSAGES="", COLUMNS="5000")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return env


def _run(lang: str, *args: str) -> str:
    done = deckcheck(args, env=_env(lang), cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _commands(game: str, db: Path, tmp: Path) -> dict[str, list[str]]:
    deck, want = DECKS[game]
    path, common = str(EXAMPLES / deck), ["--db", str(db)]
    return {
        "odds": ["odds", path, "-w", want, "-t", "3", *common],
        "hand": ["hand", path, "-n", "2", "--seed", "1", "-w", want, *common],
        "goldfish": ["goldfish", path, "--games", "200", "--turns", "3", *common],
        "sweep": ["sweep", path, "--games", "100", "--turns", "3", "--want", want, *common],
    }


def _data(game: str, db: Path) -> list[str]:
    """What is data in the output: the game's card names and numbers, each format parameter
    as its file writes it (the id and ``= 7`` of ``opening hand (opening_hand) = 7``, the head
    of an assumption line; its label and source are prose, translated), the sites a fan source
    names, and the format version line."""
    with sqlite3.connect(db) as con:
        rows = con.execute("select name, number from cards where game = ?", (game,)).fetchall()
    deck, _want = DECKS[game]
    # goldfish lists every assumed parameter; odds only those it reads (issue 23)
    answer = json.loads(
        _run("en", "goldfish", str(EXAMPLES / deck), "-n", "5", "-t", "1", "--db", str(db),
             "--json")
    )  # fmt: skip
    heads = (re.match(r"^[^(]+\((\w+)\) = (\S+)", a) for a in answer["assumptions"])
    settings = [text for m in heads if m for text in (m[1], f"= {m[2]}")]
    version = answer.get("format_version")
    data = [*(n for row in rows for n in row), *settings, *SITES, *TYPED]
    return [*data, *_version_lines(version)]


def _version_lines(found: dict[str, object] | None) -> list[str]:
    """The format version line, in both languages: render.version prints it (H1's file)."""
    if not found:
        return []
    from io import StringIO

    from rich.console import Console

    from deckcheck.models import FormatVersion
    from deckcheck.render import version

    lines = []
    for lang in ("en", "ja"):
        out = Console(file=StringIO(), width=400, record=True)
        with override(lang):
            version(out, FormatVersion.model_validate(found))
        lines += [line.strip() for line in out.export_text().splitlines() if line.strip()]
    return lines


@pytest.mark.parametrize("game", sorted(DECKS))
def test_play_commands_speak_japanese(game: str, db: Path, tmp_path: Path) -> None:
    allowed = _data(game, db)
    for name, args in _commands(game, db, tmp_path).items():
        out = _run("ja", *args)
        left = source_prose(out, allowed)
        assert left == [], f"{game} {name}: English prose {left[:12]} in\n{out}"
        assert re.search(r"[ぁ-んァ-ヶ一-龯]", out), out


@pytest.mark.parametrize("game", ["vision", "rakuen"])
def test_lang_en_keeps_todays_english(game: str, db: Path, tmp_path: Path) -> None:
    commands = _commands(game, db, tmp_path)
    odds = _run("ja", "--lang", "en", *commands["odds"])
    assert "on the play" in odds and "  want: " in odds and "probability" in odds
    # issue 23: odds lists only the assumptions it reads (rakuen's hand limit is goldfish's)
    assert ("assumption: " in odds) == (game == "vision") and not re.search(r"[ぁ-んァ-ヶ]", _strip_data(odds))
    fish = _run("ja", "--lang", "en", *commands["goldfish"])
    assert "mulligans per game" in fish and "of games, " in fish
    sweep = _run("ja", "--lang", "en", *commands["sweep"])
    assert "sweep: " in sweep and "variant" in sweep and "side=play" in sweep


def _strip_data(text: str) -> str:
    """English output still holds Japanese card names, rulebook titles and quotes: keep only
    the lines deckcheck words itself (the table and the headers)."""
    keep = [line for line in text.splitlines() if not line.startswith("  assumption: ")]
    return "\n".join(keep[:2])


def test_a_deck_that_cannot_be_dealt_fails_in_japanese(db: Path, tmp_path: Path) -> None:
    """goldfish with worker processes on a one-card deck: the error a person reads is
    Japanese (it is raised while preparing, in the parent)."""
    deck = tmp_path / "tiny.deck"
    deck.write_text("format: iris-standard\n1 SAMPLE-I-U01\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "deckcheck", "goldfish", str(deck), "--games", "4000",
         "--workers", "2", "--turns", "2", "--db", str(db)],
        capture_output=True, text=True, env=_env("ja"), cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 2
    assert "初手の手札を配る途中でデッキが尽きます" in done.stderr, done.stderr


def _fails_in_the_current_language(*args: object, **kwargs: object) -> object:
    from deckcheck.goldfish.common import GoldfishError
    from deckcheck.i18n import _

    raise GoldfishError(_("the deck runs out while dealing the opening hand"))


def test_worker_functions_word_messages_in_the_callers_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What a worker process runs (goldfish's pool worker, sweep's chunk task) words a message
    in the language it was handed, not in the worker's own (English) context."""
    from deckcheck.goldfish import run as fish_run
    from deckcheck.goldfish.common import GoldfishError
    from deckcheck.sweep import run as sweep_run

    monkeypatch.setattr(fish_run, "play_chunk", _fails_in_the_current_language)
    monkeypatch.setattr(sweep_run, "play_chunk", _fails_in_the_current_language)
    monkeypatch.setattr(fish_run, "_WORKER", object())
    with override("en"), pytest.raises(GoldfishError, match="初手の手札を配る途中"):
        fish_run._worker_chunk(0, [1], 1, True, "ja")
    with override("ja"):
        task = sweep_run.ChunkTask(0, None, 0, (1,), 1, True)  # type: ignore[arg-type]
    with override("en"), pytest.raises(GoldfishError, match="初手の手札を配る途中"):
        sweep_run.play_task(task)


def test_a_chunk_task_carries_the_language_to_its_worker() -> None:
    """Sweep's chunk tasks (run in-process or on Dask workers) take the caller's language
    along: a message raised inside one is worded in it."""
    from deckcheck.sweep import run as sweep_run

    with override("ja"):
        task = sweep_run.ChunkTask(0, None, 0, (), 1, True)  # type: ignore[arg-type]
    assert task.lang == "ja"
    with override("en"):
        assert sweep_run.ChunkTask(0, None, 0, (), 1, True).lang == "en"  # type: ignore[arg-type]


# --- plots -----------------------------------------------------------------------------------


@pytest.fixture
def results(db: Path) -> Iterator[tuple[object, object]]:
    from deckcheck.goldfish.run import GoldfishResult
    from deckcheck.odds.api import OddsResult

    deck, want = DECKS["vision"]
    odds = _run("en", "odds", str(EXAMPLES / deck), "-w", want, "-t", "3", "--db", str(db),
                "--json")  # fmt: skip
    fish = _run("en", "goldfish", str(EXAMPLES / deck), "--games", "100", "--turns", "3",
                "--db", str(db), "--json")  # fmt: skip
    yield OddsResult.model_validate_json(odds), GoldfishResult.model_validate_json(fish)


def _titles_rendered(monkeypatch: pytest.MonkeyPatch, results: tuple[object, object],
                     tmp_path: Path) -> list[tuple[str, str, list[str]]]:  # fmt: skip
    """Render both plots in Japanese; (title text, font file used for it, warnings)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    from deckcheck.goldfish import output as fish_out
    from deckcheck.odds import output as odds_out

    seen: list[tuple[str, str, list[str]]] = []
    closing = plt.close

    def close(fig: object) -> None:  # read the title before the figure goes
        ax = fig.axes[0]  # type: ignore[attr-defined]
        title = ax.title
        path = font_manager.findfont(title.get_fontproperties())
        seen.append((title.get_text(), path, []))
        closing(fig)  # type: ignore[arg-type]

    monkeypatch.setattr(plt, "close", close)
    odds, fish = results
    with override("ja"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        odds_out.write_plot(odds, tmp_path / "odds.png")  # type: ignore[arg-type]
        fish_out.write_plot(fish, tmp_path / "fish.png")  # type: ignore[arg-type]
    glyphs = [str(w.message) for w in caught if "Glyph" in str(w.message)]
    return [(t, p, glyphs) for t, p, _w in seen]


def _distinct_glyphs(path: str, text: str) -> bool:
    """Every kana and kanji of ``text`` has a glyph of its own in the font at ``path`` (a
    last-resort font draws one box for a whole block)."""
    from matplotlib import ft2font

    charmap = ft2font.FT2Font(path).get_charmap()
    chars = set(re.findall(r"[ぁ-んァ-ヶ一-龯]", text))
    glyphs = {charmap.get(ord(ch)) for ch in chars}
    return None not in glyphs and len(glyphs) == len(chars)


def test_plots_in_japanese_use_a_font_with_the_glyphs(
    monkeypatch: pytest.MonkeyPatch, results: tuple[object, object], tmp_path: Path
) -> None:
    from deckcheck.plotting import covers, find_cjk_font

    if find_cjk_font() is None:
        pytest.skip("no CJK font on this machine (the fallback test covers it)")
    rendered = _titles_rendered(monkeypatch, results, tmp_path)
    assert len(rendered) == 2
    for title, path, glyphs in rendered:
        assert re.search(r"[ぁ-んァ-ヶ一-龯]", title), title  # the labels are Japanese
        assert covers(path, title), (title, path)  # and the font matplotlib used draws them
        assert _distinct_glyphs(path, title), (title, path)  # each its own glyph, not a box
        assert glyphs == []  # no "Glyph … missing" warning
    assert (tmp_path / "odds.png").stat().st_size and (tmp_path / "fish.png").stat().st_size


def test_plots_fall_back_to_english_labels_without_a_cjk_font(
    monkeypatch: pytest.MonkeyPatch,
    results: tuple[object, object],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import deckcheck.plotting

    monkeypatch.setattr(deckcheck.plotting, "find_cjk_font", lambda: None)
    rendered = _titles_rendered(monkeypatch, results, tmp_path)
    titles = [t for t, _p, _g in rendered]
    # issue 23: the titles name the deck, format, side and conditions
    assert titles[0].startswith("vision-standard-legal.deck (vision-standard), on the play\n")
    assert titles[1].startswith("vision-standard-legal.deck (vision-standard), on the play: 100")
    assert all(g == [] for _t, _p, g in rendered)
    err = capsys.readouterr().err
    # the warning, through the catalogue: in the reader's language
    assert err.count("警告") == 2 and "英語のラベル" in err
