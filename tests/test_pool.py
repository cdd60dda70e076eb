"""The card pool: first fill, imports (CSV, JSON, JSON Lines), atomicity, updates, search."""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from deckcheck import data, plugins
from deckcheck.models import Card
from deckcheck.pool.importer import card_files
from deckcheck.pool.store import CardFileError, CardPool, ImportRejected, Pool, PoolError

HEADER = "game,number,name,type,kind,title,os,append,keywords,gate_number,level\n"


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_new_pool_is_filled_from_card_pool(fresh_db: Path) -> None:
    """From card_pool/ and every installed game's own card lists (a plugin's data/cards)."""
    with Pool(fresh_db) as pool:
        stats = pool.stats()
        by_game = stats["by_game"]
        assert isinstance(by_game, dict) and set(by_game) == set(plugins.ids())
        assert data.card_dirs()[0] == data.card_pool_dir()
        shipped = sum(  # data lines: not the header, not the leading # comment
            len([x for x in path.read_text(encoding="utf-8").strip().splitlines() if x[:1] != "#"])
            - 1
            for folder in data.card_dirs()
            for path in card_files(folder)
        )
        assert stats["total"] == shipped > 100
        assert all(n > 0 for n in by_game.values())


def test_import_csv_json_jsonl(fresh_db: Path, tmp_path: Path) -> None:
    csv_file = write(
        tmp_path / "a.csv", HEADER + "chaos,T-001,テスト キャラ,キャラ,,STEINS;GATE,,,,,\n"
    )
    json_file = write(
        tmp_path / "b.json",
        json.dumps(
            [
                {
                    "game": "rakuen",
                    "number": "T-R1",
                    "name": "試験の定理者 テスト",
                    "type": "メンバーカード",
                    "kind": "定理者",
                    "level": 2,
                    "keywords": ["A", "B"],
                },
            ],
            ensure_ascii=False,
        ),
    )
    jsonl_file = write(
        tmp_path / "c.jsonl",
        "\n".join(
            [
                json.dumps(
                    {"game": "iris", "number": "T-I1", "name": "テストユニット", "type": "ユニット"}
                ),
                "",
                json.dumps({"game": "vision", "number": "T-V1", "name": "テスト", "type": "spell"}),
            ]
        ),
    )
    with Pool(fresh_db) as pool:
        before = pool.stats()["total"]
        result = pool.import_files([csv_file, json_file, jsonl_file])
        assert (result.added, result.updated) == (4, 0)
        assert pool.stats()["total"] == before + 4  # type: ignore[operator]
        chaos = pool.get("chaos", "T-001")
        assert chaos is not None and chaos.type == "chara" and chaos.text_of("os") == "ニトロプラス"
        rakuen = pool.get("rakuen", "t-r1")
        assert rakuen is not None and rakuen.level == 2 and rakuen.keywords == ("A", "B")


@pytest.mark.parametrize(
    "title",
    [
        "STEINS;GATE",
        "ＳＴＥＩＮＳ；ＧＡＴＥ",
        "OS:ニトロプラス",
        "ニトロプラス",
        "<OS: ニトロプラス>",
        "真・恋姫†無双",
        "あっぱれ！天下御免",
        "LOVELY×CATION",
        "ご注文はうさぎですか？？",
    ],
)
def test_titles_resolve_in_any_spelling(fresh_db: Path, tmp_path: Path, title: str) -> None:
    path = write(tmp_path / "t.csv", HEADER + f'chaos,T-1,x,chara,,"{title}",,,,,\n')
    with Pool(fresh_db) as pool:
        pool.import_files([path])
        card = pool.get("chaos", "T-1")
        assert card is not None and card.text_of("os") is not None


def test_os_column_wins_and_is_canonical(fresh_db: Path, tmp_path: Path) -> None:
    path = write(
        tmp_path / "t.csv", HEADER + "chaos,T-1,x,chara,,未知の作品,ＯＳ：アクアプラス,,,,\n"
    )
    with Pool(fresh_db) as pool:
        pool.import_files([path])
        card = pool.get("chaos", "T-1")
        assert card is not None and card.text_of("os") == "アクアプラス" and card.text_of("title") == "未知の作品"


def test_bad_rows_are_all_reported_and_nothing_changes(fresh_db: Path, tmp_path: Path) -> None:
    good = write(
        tmp_path / "good.csv", HEADER + "chaos,SAMPLE-C-001,renamed,chara,,STEINS;GATE,,,,,\n"
    )
    bad = write(
        tmp_path / "bad.csv",
        HEADER
        + "\n".join(
            [
                "chaos,B-1,ok,chara,,STEINS;GATE,,,,,",
                "chaos,B-2,bad type,wizard,,STEINS;GATE,,,,,",
                "chaos,B-3,,chara,,STEINS;GATE,,,,,",
                "chaos,B-1,dup,chara,,STEINS;GATE,,,,,",
                "chaos,B-4,no os,chara,,存在しない作品,,,,,",
                "poker,B-5,x,chara,,,,,,,",
                "rakuen,B-6,x,member,魔法使い,,,,,,",
                "rakuen,B-7,x,gate,,,,,,one,",
            ]
        )
        + "\n",
    )
    with Pool(fresh_db) as pool:
        before = pool.all_cards()
        with pytest.raises(ImportRejected) as caught:
            pool.import_files([good, bad])
        errors = caught.value.errors
        assert len(errors) == 7
        expected = [
            "row 2 (line 3): unknown type 'wizard'",
            "row 3 (line 4): missing name",
            "row 4 (line 5): duplicate number 'B-1' for chaos (also row 1)",
            "row 5 (line 6): unknown title '存在しない作品'",
            "row 6 (line 7): unknown game",
            "row 7 (line 8): unknown kind",
            "row 8 (line 9): gate_number 'one'",
        ]
        for error, fragment in zip(errors, expected, strict=True):
            assert error.startswith(str(bad)) and fragment in error
        assert pool.all_cards() == before  # the good file was not applied either


def test_import_updates_existing_cards(fresh_db: Path, tmp_path: Path) -> None:
    path = write(
        tmp_path / "u.csv", HEADER + "chaos,SAMPLE-C-001,改名キャラ,chara,,ToHeart2,,,,,\n"
    )
    with Pool(fresh_db) as pool:
        before = pool.stats()["total"]
        result = pool.import_files([path])
        assert (result.added, result.updated) == (0, 1)
        card = pool.get("chaos", "SAMPLE-C-001")
        assert card is not None and card.name == "改名キャラ" and card.text_of("os") == "アクアプラス"
        assert pool.stats()["total"] == before


def test_a_pool_read_again_gives_each_change_and_no_stale_card(
    fresh_db: Path, tmp_path: Path
) -> None:
    """The service reads the whole pool again at each start and after each change, and a card
    whose stored row is unchanged comes back as the object read before (a card is frozen): a
    changed row must still read as its new card, and a card of a game whose spec was replaced
    as one of the new spec's."""
    renamed = write(
        tmp_path / "u.csv", HEADER + "chaos,SAMPLE-C-001,改名キャラ,chara,,ToHeart2,,,,,\n"
    )
    key = ("chaos", "SAMPLE-C-001")
    with Pool(fresh_db) as pool:
        first = {(c.game, c.number): c for c in pool.all_cards()}
        pool.import_files([renamed])
        second = {(c.game, c.number): c for c in pool.all_cards()}
        assert first[key].name != "改名キャラ" and second[key].name == "改名キャラ"
        assert second[key].text_of("os") == "アクアプラス"
        assert all(second[k] is first[k] for k in first if k != key)  # read again, not rebuilt
        chaos = plugins.get("chaos")
        plugins.register(dataclasses.replace(chaos), replace=True)
        try:
            third = {(c.game, c.number): c for c in pool.all_cards()}
        finally:
            plugins.unregister("chaos")  # the entry point's spec again
        assert third[key] == second[key] and third[key] is not second[key]
        assert all(third[k] is second[k] for k in second if k[0] != "chaos")


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("x.csv", b"\xff\xfe\x00garbage", "not UTF-8"),
        ("x.json", b"{not json", "not valid JSON"),
        ("x.json", b'{"game": "chaos"}', "array of objects"),
        ("x.csv", b"number,name\n1,a\n", "lacks the column(s) game, type"),
        ("x.xlsx", b"PK", "unknown card file type"),
    ],
)
def test_unreadable_card_files(
    fresh_db: Path, tmp_path: Path, name: str, content: bytes, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with Pool(fresh_db) as pool, pytest.raises(CardFileError, match=re.escape(message)):
        pool.import_files([path])


def test_corrupt_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(PoolError, match=r"damaged.*pool init --force"):
        Pool(path)


def test_search(shipped_pool: Pool) -> None:
    names = {c.name for c in shipped_pool.search("chaos", "見本キャラ0")}
    assert "見本キャラ 01" in names and "見本キャラ 12" not in names
    assert {c.type for c in shipped_pool.search(None, None, "paradox")} == {"paradox"}
    by_title = shipped_pool.search("chaos", title="ToHeart2")
    assert [c.number for c in by_title] == ["SAMPLE-C-AQ1"]
    by_os = shipped_pool.search("chaos", title="OS:ニトロプラス", limit=500)
    assert len(by_os) > 12 and all(c.text_of("os") == "ニトロプラス" for c in by_os)
    by_number = shipped_pool.search(None, "ｓａｍｐｌｅ-ｒ-g", limit=100)  # a number prefix
    assert {c.number for c in by_number} == {f"SAMPLE-R-G{i:02}" for i in range(1, 8)}
    cheap = shipped_pool.search("rakuen", type="member", max_level=1, max_cost=0)
    assert cheap and all(c.level <= 1 and c.cost == 0 for c in cheap)
    assert shipped_pool.search("iris", "見本の騎士")[0].name == "見本の騎士 アリシア"


def test_index_for_finds_refs_by_number_and_name(shipped_pool: Pool) -> None:
    index = shipped_pool.index_for(["SAMPLE-C-001", "見本キャラ02", "no such card"])
    assert index.resolve("chaos", "SAMPLE-C-001").card is not None
    assert index.resolve("chaos", "見本キャラ02").card is not None
    miss = index.resolve("chaos", "見本キャラ 99")
    assert miss.card is None and "見本キャラ 09" in miss.suggestions


@pytest.fixture
def both_pools(tmp_path: Path) -> Iterator[list[CardPool]]:
    """The SQLite pool and the SQLAlchemy pool (on an SQLite URL), both freshly filled."""
    from deckcheck.pool.sql import SqlPool

    pools: list[CardPool] = [
        Pool(tmp_path / "lite.sqlite3"),
        SqlPool(f"sqlite:///{tmp_path / 'alchemy.sqlite3'}"),
    ]
    yield pools
    for pool in pools:
        pool.close()


def test_both_pools_reject_the_same_imports(both_pools: list[CardPool], tmp_path: Path) -> None:
    one = write(tmp_path / "one.csv", HEADER + "chaos,X-1,ok,chara,,STEINS;GATE,,,,,\n")
    again = write(tmp_path / "again.csv", HEADER + "chaos,ｘ-１,same number,chara,,STEINS;GATE,,,,,\n")
    rows = write(tmp_path / "rows.csv", HEADER + "chaos,X-2,,chara,,,,,,,\nrakuen,X-3,x,gate,,,,,,one,\n")
    aliased = write(
        tmp_path / "aliased.csv",
        "game,number,name,type,aliases\nvision,X-4,a,spell,X-5\nvision,X-6,b,spell,X-5;X-4\n",
    )
    unreadable = write(tmp_path / "u.json", "{not json")
    for files in ([one, again], [rows], [aliased], [one, unreadable]):
        outcomes = []
        for pool in both_pools:
            before = pool.stats()
            with pytest.raises((ImportRejected, CardFileError)) as caught:
                pool.import_files(files)
            assert pool.stats() == before
            errors = caught.value.errors if isinstance(caught.value, ImportRejected) else []
            outcomes.append((type(caught.value), errors, str(caught.value)))
        assert outcomes[0] == outcomes[1]
        assert outcomes[0][0] is CardFileError or outcomes[0][1]
    lite, alchemy = both_pools
    assert _errors(lite, [one, again]) == [f"{again}: number 'x-1' also in {one}"]
    assert _errors(alchemy, [aliased]) == [
        f"{aliased}: X-6: alias 'X-5' is already an alias of X-4",
        f"{aliased}: X-6: alias 'X-4' is already a card number",
    ]


def _errors(pool: CardPool, files: list[Path]) -> list[str]:
    with pytest.raises(ImportRejected) as caught:
        pool.import_files(files)
    return caught.value.errors


def test_both_pools_search_and_get_alike(both_pools: list[CardPool]) -> None:
    from deckcheck.pool.search import known_filters

    lite, alchemy = both_pools
    assert lite.stats() == alchemy.stats()
    queries: list[dict[str, object]] = [
        {"game": "chaos", "name": "見本キャラ０"},
        {"title": "OS:ニトロプラス", "limit": 500},
        {"type": "paradox"},
        {"keyword": "【デッキ１枚制限】"},
        {"name": "ｓａｍｐｌｅ-ｒ-g", "limit": 3, "offset": 2},
        {"game": "rakuen", "max_level": 1, "max_cost": 0},
        # the games' own columns, in the JSON column: with a game, and across games
        {"game": "vision", "class": "獣", "max_node": 3, "limit": 500},
        {"package": "st4", "keyword": "デッキ1枚制限"},
        {"min_power": 6},
        {"game": "rakuen", "color": "赤", "world": "見本"},
        {"min_hp": 5},
        {"game": "vision", "name": "霧雨魔理沙", "limit": 500},  # spaces aside (replace())
    ]
    assert {"keyword", "class", "user", "package", "link", "max_node", "min_graze"} <= set(
        known_filters(None)
    )
    for query in queries:
        found = [c.number for c in lite.search(**query)]  # type: ignore[arg-type]
        assert found and found == [c.number for c in alchemy.search(**query)]  # type: ignore[arg-type]
    for pool in both_pools:
        with pytest.raises(ValueError, match="unknown search filter"):
            pool.search(colour="red")


def test_a_name_search_finds_a_name_typed_without_its_spaces(shipped_pool: Pool) -> None:
    """Players type 霧雨魔理沙 for 霧雨 魔理沙, as their deck lists do (the readers accept it):
    the builder's search and ``pool search`` found nothing. Now the name, and the spell cards
    whose 術者 (``user``) it is, are found with or without the spaces."""
    spaced = [c.number for c in shipped_pool.search(game="vision", name="霧雨 魔理沙", limit=500)]
    typed = [c.number for c in shipped_pool.search(game="vision", name="霧雨魔理沙", limit=500)]
    assert "N30" in typed and typed == spaced
    assert [c.number for c in shipped_pool.search(game="vision", name="霧雨魔理沙x")] == []


def test_a_name_search_takes_a_wave_dash_or_a_dash_as_printed(shipped_pool: Pool) -> None:
    """ふらわ～戦車 is printed with ～ (U+FF5E); a Mac or a phone types 〜 (U+301C), which NFKC
    leaves apart, and a hyphen or an en dash for a printed -, and players leave out the middle
    dot of レティ・ホワイトロック. Each finds what the printed spelling finds, as deck lists
    read them (normalize.bare_name)."""

    def found(name: str) -> list[str]:
        return [c.number for c in shipped_pool.search(game="vision", name=name, limit=50)]

    assert found("ふらわ〜戦車") == found("ふらわ～戦車") != []
    assert found("生者必滅の理 –死蝶‐") == found("生者必滅の理 -死蝶-") != []
    assert found("レティホワイトロック") == found("レティ・ホワイトロック") != []


# --- the real VISION card pool (card_pool/vision/cards.csv, made by build.py) -----------------

REAL = "VISION community card list"


def _real_vision(pool: Pool) -> list[Card]:
    return [c for c in pool.all_cards("vision") if (c.source or "").startswith(REAL)]


def test_the_real_vision_pool_is_shipped(shipped_pool: Pool) -> None:
    real = _real_vision(shipped_pool)
    assert len(real) == 2223
    assert Counter(c.type for c in real) == {"character": 841, "spell": 734, "command": 648}
    assert sum("デッキ1枚制限" in c.keywords for c in real) == 24  # P223: 【デッキ一枚制限】
    assert any(c.sample for c in shipped_pool.all_cards("vision"))  # the samples stay
    doll = shipped_pool.get("vision", "N1")
    assert doll is not None and (doll.name, doll.type, doll.int_of("node"), doll.cost) == (
        "上海人形",
        "character",
        1,
        0,
    )
    promo = shipped_pool.get("vision", "p8")  # by dataset id: the printed number comes back
    assert promo is not None and (promo.number, promo.name, promo.aliases) == (
        "PR.008",
        "博麗 霊夢",
        ("P8",),
    )
    assert promo.keywords == ("デッキ1枚制限",) and promo.items_of("package") == ("NO1", "ST4")
    union = shipped_pool.get("vision", "N401")
    assert union is not None and "Union" in union.keywords and union.text_of("class") == "人間/妖怪"
    assert union.text_of("link") == "【連結(「博麗 霊夢」+「八雲 紫」)】"
    assert not any(c.name.startswith("PR.") for c in real)
    assert all(c.number.startswith(("N", "PR.")) or c.number == "P223" for c in real)
    spell = next(c for c in real if c.type == "spell" and c.text_of("user"))
    assert (spell.text_of("attack") or "+")[:1] in "+-X0123456789"


@pytest.mark.parametrize(
    ("ref", "number"),
    [("N31", "N31"), ("n31", "N31"), ("Ｎ３１", "N31"), ("PR.008", "PR.008"), ("ｐｒ．００８", "PR.008"), ("P8", "PR.008"), ("p8", "PR.008")],
)
def test_vision_cards_resolve_by_id_or_printed_number(
    shipped_pool: Pool, ref: str, number: str
) -> None:
    found = shipped_pool.index_for([ref]).resolve("vision", ref)
    assert found.card is not None and found.card.number == number
    elsewhere = shipped_pool.index_for([ref]).resolve("chaos", ref)
    assert [c.number for c in elsewhere.other_game] == [number]


def test_deck_by_ids_and_promo_numbers_validates(check) -> None:  # type: ignore[no-untyped-def]
    deck = "format: vision-standard\n[main]\n1 P8\n1 pr.008\n" + "".join(
        f"3 N{n}\n" for n in range(31, 47)
    )
    report = check(deck)
    # every line resolves; N31 and PR.008 share the name 博麗 霊夢, one of them デッキ1枚制限
    # two PR.008 break the deck limit, and with three N31 that is 5 博麗 霊夢: the copy limit too
    assert {v.rule for v in report.violations} == {"vision/deck-limit", "vision/copies"}


def _search(db: Path, *args: str) -> list[dict[str, object]]:
    from deckcheck.cli import app
    from tests.cli_run import CliRunner

    result = CliRunner().invoke(app, ["pool", "search", *args, "--json", "--db", str(db)])
    assert result.exit_code == 0, result.output
    found: list[dict[str, object]] = json.loads(result.stdout)
    return found


def test_cli_search_by_vision_columns_and_pages(shipped_pool: Pool) -> None:
    db = shipped_pool.path
    beasts = _search(db, "--game", "vision", "--class", "獣", "--max-node", "3", "--limit", "500")
    assert beasts and all("獣" in str(c["class"]) and int(c["node"]) <= 3 for c in beasts)  # type: ignore[call-overload]
    promos = _search(db, "--package", "st4", "--keyword", "【デッキ１枚制限】")
    assert [c["number"] for c in promos] == ["PR.008", "PR.080"]
    assert _search(db, "--user", "霊夢", "--type", "spell", "--limit", "500")
    assert all(int(c["graze"]) >= 5 for c in _search(db, "--min-graze", "5", "--limit", "500"))  # type: ignore[call-overload]
    linked = _search(db, "--link", "八雲 紫", "--game", "vision")
    assert "N401" in [c["number"] for c in linked] and all("八雲 紫" in str(c["link"]) for c in linked)
    whole = [c["number"] for c in _search(db, "--game", "vision", "--limit", "10")]
    pages = [c["number"] for c in _search(db, "--game", "vision", "--limit", "5", "--offset", "0")]
    pages += [c["number"] for c in _search(db, "--game", "vision", "--limit", "5", "--offset", "5")]
    assert pages == whole and len(set(whole)) == 10


def test_service_searches_vision_columns(shipped_pool: Pool, tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from deckcheck.service.app import Settings, create_app

    app = create_app(Settings(db=shipped_pool.path, api_keys=("k",)))
    with TestClient(app) as http:
        found = http.get("/cards", params={"class": "獣", "max_node": 2, "limit": 500}).json()
        assert found and all("獣" in c["class"] and c["node"] <= 2 for c in found)
        promo = http.get("/cards", params={"keyword": "デッキ1枚制限", "package": "ST4"}).json()
        assert [c["number"] for c in promo] == ["PR.008", "PR.080"]
        assert http.get("/cards/vision/P8").json()["number"] == "PR.008"


# --- each game's own filters (its spec's columns), in the CLI and the service -----------------

GAME_FILTERS = [
    # game, filter, value, what every card found must satisfy (and no card left out does)
    ("chaos", "min_power", "6", lambda c: (c.get("power") or 0) >= 6),
    ("rakuen", "color", "赤", lambda c: c.get("color") == "赤"),
    ("iris", "min_hp", "5", lambda c: (c.get("hp") or 0) >= 5),
    ("vision", "max_node", "1", lambda c: c.get("node") is not None and c["node"] <= 1),
]


@pytest.mark.parametrize(("game", "option", "value", "holds"), GAME_FILTERS)
def test_each_games_own_filter_narrows_the_search(
    shipped_pool: Pool, game: str, option: str, value: str, holds: object
) -> None:
    """A filter a game's spec declares works in ``pool search`` and ``GET /cards``: it finds
    exactly the game's cards that satisfy it (it used to be dropped for chaos, rakuen, iris)."""
    from starlette.testclient import TestClient

    from deckcheck.service.app import Settings, create_app

    assert callable(holds)
    db = shipped_pool.path
    every = _search(db, "--game", game, "--limit", "10000")
    wanted = [c["number"] for c in every if holds(c)]
    assert 0 < len(wanted) < len(every)
    flag = "--" + option.replace("_", "-")
    found = _search(db, "--game", game, flag, value, "--limit", "10000")
    assert [c["number"] for c in found] == wanted
    with TestClient(create_app(Settings(db=db, api_keys=("k",)))) as http:
        answer = http.get("/cards", params={"game": game, option: value, "limit": 500})
        assert answer.status_code == 200, answer.text
        assert [c["number"] for c in answer.json()] == wanted[:500]
        listed = {g["id"]: g for g in http.get("/games").json()}
        assert option in {f["param"] for f in listed[game]["filters"]}


# --- a database of schema 3 (one SQL column a game's column) is upgraded in place ---------------

_V3 = (
    "game number name type kind title os append keywords gate_number level cost power color "
    "world hp territory rarity extra_cost source aliases user klass node graze attack toughness "
    "package link upkeep number_key name_key title_key os_key alias_keys"
)
V3_COLUMNS = _V3.split()
V3_LISTS = ("append", "keywords", "aliases", "package")


def _v3_pool(path: Path, rows: list[dict[str, object]]) -> None:
    import sqlite3

    conn = sqlite3.connect(path)
    with conn:
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        conn.execute("INSERT INTO meta VALUES ('schema', '3')")
        columns = ", ".join(V3_COLUMNS)
        conn.execute(f"CREATE TABLE cards ({columns}, PRIMARY KEY (game, number_key))")
        conn.execute("CREATE INDEX cards_name ON cards (name_key)")
        conn.execute("CREATE INDEX cards_number ON cards (number_key)")
        marks = ", ".join("?" * len(V3_COLUMNS))
        for row in rows:
            full = {c: "" if c in V3_LISTS else None for c in V3_COLUMNS}
            full.update(row, number_key=str(row["number"]).upper(), name_key=row["name"])
            full["alias_keys"] = ""
            conn.execute(f"INSERT INTO cards VALUES ({marks})", [full[c] for c in V3_COLUMNS])
    conn.close()


def test_a_schema_3_pool_is_upgraded_with_its_imported_cards(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    chaos = {"game": "chaos", "number": "OLD-1", "name": "古いキャラ", "type": "chara"}
    chaos |= {"title": "STEINS;GATE", "os": "ニトロプラス", "append": "BETA", "power": 7}
    vision = {"game": "vision", "number": "OLD-2", "name": "古い霊夢", "type": "character"}
    vision |= {"klass": "人間", "node": 2, "package": "NO1;ST4", "cost": 1, "power": 9}
    _v3_pool(path, [chaos, vision])
    with Pool(path, fill=False) as pool:
        old_chaos, old_vision = pool.get("chaos", "OLD-1"), pool.get("vision", "OLD-2")
        assert [c.number for c in pool.search(None, min_power=7)] == ["OLD-1"]
        assert [c.number for c in pool.search("vision", **{"class": "人間"})] == ["OLD-2"]
        assert [c.number for c in pool.search(None, title="ニトロプラス")] == ["OLD-1"]
    assert old_chaos is not None and old_chaos.extra == {
        "title": "STEINS;GATE", "os": "ニトロプラス", "append": ("BETA",), "power": 7
    }
    # a value in another game's column (power is no VISION column) is dropped, as on import
    assert old_vision is not None and old_vision.cost == 1 and old_vision.extra == {
        "class": "人間", "node": 2, "package": ("NO1", "ST4")
    }
    with Pool(path, fill=False) as again:  # upgraded once: opened as it is now
        assert again.stats()["total"] == 2


def test_a_schema_3_row_of_a_game_gone_is_a_rebuild_message(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    from deckcheck.errors import PoolError as AnyPoolError

    _v3_pool(path, [{"game": "poker", "number": "P-1", "name": "ace", "type": "card"}])
    with pytest.raises(AnyPoolError, match=r"cannot upgrade.*poker P-1.*pool init --force"):
        Pool(path, fill=False)
    with pytest.raises(AnyPoolError, match="cannot upgrade"):  # nothing changed: the same again
        Pool(path, fill=False)


def test_a_pool_of_another_schema_is_a_rebuild_message(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        conn.execute("INSERT INTO meta VALUES ('schema', '2')")
    with pytest.raises(PoolError, match=r"another deckcheck version.*pool init --force"):
        Pool(path)


def test_the_shipped_card_files_use_only_their_games_columns() -> None:
    """Every filled column of a shipped card file is its game's (a value in another game's
    column would be dropped on import, with a warning)."""
    from deckcheck.pool.importer import check_import

    checked = check_import(list(card_files(data.card_pool_dir())))
    assert {f.path: f.unknown_columns for f in checked if f.unknown_columns} == {}


def test_a_new_pool_has_the_shipped_cards_as_they_are_now(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new pool is a copy of one this process filled before (``store._template``): a shipped
    card file edited since is read again, and a pool holds the rows an import of the same
    files gives."""
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    cards = write(shipped / "iris.csv", (data.card_pool_dir() / "iris" / "sample.csv").read_text())
    monkeypatch.setattr(data, "card_dirs", lambda: [shipped])

    def rows(pool: Pool) -> list[tuple[object, ...]]:
        return [tuple(r) for r in pool.conn.execute("SELECT * FROM cards ORDER BY number")]

    with Pool(tmp_path / "first.sqlite3") as pool:
        first = rows(pool)
    with Pool(tmp_path / "imported.sqlite3", fill=False) as pool:
        pool.import_files([cards])
        assert rows(pool) == first and len(first) > 3
    with cards.open("a", encoding="utf-8") as out:
        out.write("iris,X-NEW,新しい札,unit,,,,,,,,,,,,1,,,a test's card\n")
    with Pool(tmp_path / "second.sqlite3") as pool:
        names = [r[2] for r in rows(pool)]
    assert "新しい札" in names and len(names) == len(first) + 1


def test_pools_created_at_once_in_threads_each_get_every_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first pools a process creates, from several threads at once (a service's), each get
    the whole shipped pool, from one copy checked and filled once for all of them."""
    from concurrent.futures import ThreadPoolExecutor

    from deckcheck.pool import store

    monkeypatch.setattr(store, "_templates", {})
    builds: list[int] = []
    build = store._filled

    def counted(files: list[Path]) -> object:
        builds.append(1)
        return build(files)

    monkeypatch.setattr(store, "_filled", counted)

    def total(i: int) -> object:
        with Pool(tmp_path / f"p{i}.sqlite3") as pool:
            return pool.stats()["total"]

    with ThreadPoolExecutor(8) as threads:
        totals = list(threads.map(total, range(8)))
    assert len(set(totals)) == 1 and isinstance(totals[0], int) and totals[0] > 2000
    assert len(store._templates) == 1 and len(builds) == 1  # checked and filled once
