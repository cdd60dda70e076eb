// The card search (GET /cards): the name, the type and the chosen game's own filters, a page
// of results at a time; each result adds or removes a copy.
import { apiResponse } from "./api.js";
import { $, button, buttonOf, errorText, find, input, select, show } from "./dom.js";
import { chooseGame, factList, filterField, game } from "./games.js";
import { _ } from "./i18n.js";
import { change, keyEdit } from "./deckview.js";
import { state } from "./store.js";

/** @typedef {import("./store.js").Card} Card */
/** @typedef {import("./games.js").Filter} Filter */
/** @typedef {import("./games.js").GameSpec} GameSpec */

const PAGE = 30; // search results a page

/** @type {ReturnType<typeof setTimeout> | undefined} */
let searchTimer;
let searchSeq = 0;

/** A search of the filters as they are, from the first page unless keepPage. @param {boolean} [keepPage] */
export function scheduleSearch(keepPage) {
  if (!keepPage) state.offset = 0;
  clearTimeout(searchTimer);
  searchTimer = setTimeout(searchNow, 40); // short: a search answers in a few milliseconds
}

/** The search's query: the name, the type and every game filter that has a value. */
function searchParams() {
  const params = new URLSearchParams({ game: state.info ? state.info.game : "",
    limit: String(PAGE), offset: String(state.offset), total: "true" });
  for (const [key, value] of [["q", input("q").value], ["type", select("type").value]]) {
    if (value.trim()) params.set(key, value.trim());
  }
  for (const box of $("game-filters").querySelectorAll("input[data-param]")) {
    const field = /** @type {HTMLInputElement} */ (box);
    if (field.value.trim()) params.set(field.dataset.param || "", field.value.trim());
  }
  return params;
}

async function searchNow() {
  const seq = ++searchSeq;
  const params = searchParams();
  try {
    const response = await apiResponse("cards", { query: params });
    const cards = /** @type {Card[]} */ (await response.json());
    if (seq !== searchSeq) return; // a newer search is under way: its answer wins
    show("", "game-filters");
    const total = Number(response.headers.get("X-Total-Count") || cards.length);
    const set = new Set(params.keys());
    const list = $("results");
    list.innerHTML = "";
    for (const card of cards) list.append(resultRow(card, set));
    $("page-info").textContent = cards.length
      ? _("{first}–{last} / {total}", { first: state.offset + 1,
        last: state.offset + cards.length, total })
      : _("no cards found");
    buttonOf("prev").disabled = state.offset === 0;
    buttonOf("next").disabled = state.offset + cards.length >= total;
    updateMoreFilters();
  } catch (err) {
    if (seq === searchSeq) show(_("Search failed: {error}", { error: errorText(err) }), "game-filters");
  }
}

/**
 * One result: name and number with its buttons on one line, its facts on a second (the facts
 * the search filters on first, marked, so a narrow row never hides them).
 * @param {Card} card
 * @param {Set<string>} set the parameters the search sent
 */
function resultRow(card, set) {
  const item = document.createElement("li");
  item.tabIndex = 0;
  item.dataset.number = card.number;
  item.innerHTML = `<span class="name"></span> <span class="number dim"></span>
    <span class="meta dim"></span>`;
  /** @param {string} selector */
  const part = (selector) => /** @type {HTMLElement} */ (item.querySelector(selector));
  part(".name").textContent = card.name;
  part(".number").textContent = card.number;
  const meta = part(".meta");
  factList(card, set).forEach(([text, hit], i) => {
    if (i) meta.append(" · ");
    const span = document.createElement("span");
    span.textContent = text;
    if (hit) span.className = "hit";
    meta.append(span);
  });
  item.append(button("+", _("Add {number}", { number: card.number }), () => change(card, +1)),
    button("−", _("Remove {number}", { number: card.number }), () => change(card, -1)));
  item.addEventListener("keydown", (ev) => keyEdit(ev, card));
  return item;
}

/**
 * The game's filters, compact: the common ones shown (the shared columns the game's spec
 * chose, and those of the columns its spec puts in a card's summary), the rest behind "More
 * filters".
 * @param {GameSpec} spec
 */
export function renderFilters(spec) {
  chooseGame(spec);
  const summary = new Set(game.columns.filter((c) => c.summary).map((c) => c.name));
  const own = new Set(game.columns.map((c) => c.name));
  /** @param {Filter} f */
  const common = (f) => !own.has(filterField(f)) || summary.has(filterField(f));
  const root = $("game-filters");
  root.innerHTML = "";
  const more = document.createElement("details");
  more.id = "more-filters";
  more.innerHTML = `<summary id="more-filters-summary"></summary><div class="filters"></div>`;
  const folded = /** @type {HTMLElement} */ (more.querySelector(".filters"));
  for (const f of game.filters) (common(f) ? root : folded).append(filterCell(f));
  if (more.querySelector("input")) root.append(more);
  updateMoreFilters();
}

/** @param {Filter} f */
function filterCell(f) {
  const cell = document.createElement("div");
  cell.className = "filter";
  const label = document.createElement("label");
  label.htmlFor = "filter-" + f.param;
  label.textContent = f.label;
  const box = document.createElement("input");
  box.id = "filter-" + f.param;
  box.dataset.param = f.param;
  box.autocomplete = "off";
  if (f.mode === "max" || f.mode === "min") {
    box.type = "number";
    box.inputMode = "numeric";
  } else {
    box.type = "text";
  }
  box.addEventListener("input", () => scheduleSearch());
  cell.append(label, box);
  return cell;
}

/** "More filters", with how many of them are set: a folded filter still narrows the search. */
function updateMoreFilters() {
  const summary = find("more-filters-summary");
  if (!summary) return;
  const set = [...$("more-filters").querySelectorAll("input")].filter((i) => i.value.trim());
  summary.textContent = set.length ? _("More filters ({n} set)", { n: set.length })
    : _("More filters");
}

/** Sets this part of the page going, once, when the page starts (builder.js). */
export function startSearch() {
  for (const id of ["q", "type"]) $(id).addEventListener("input", () => scheduleSearch());
  $("prev").addEventListener("click", () => {
    state.offset = Math.max(0, state.offset - PAGE);
    scheduleSearch(true);
  });
  $("next").addEventListener("click", () => { state.offset += PAGE; scheduleSearch(true); });
  input("q").addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter") return;
    const first = $("results").querySelector("li");
    if (first) first.focus();
  });
}
