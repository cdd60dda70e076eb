// deckcheck deck builder: edits a list of cards and shows what the service says about it.
// No rules live here: legality, hands and odds come from /validate, /hand and /odds.
"use strict";

const $ = (id) => document.getElementById(id);
const STORE = "deckcheck.builder.v1";
const state = {
  format: null, info: null, entries: [], savedId: null, savedVersion: null, seed: 1, offset: 0,
};
const PAGE = 30; // search results a page

// --- language -------------------------------------------------------------------------------
// The page comes in the language the server chose (?lang=, else Accept-Language, which the
// browser derives from navigator.languages). A choice made with the switch is remembered and
// wins; the words of the scripts are the page's "messages" (the catalogue's entries for them).
const LANG_KEY = "deckcheck.lang";
const LANGUAGES = ["en", "ja"];
const LANG = document.documentElement.lang || "en";
const MESSAGES = JSON.parse(($("messages") || {}).textContent || "{}");
// The unknown names with one suggestion: certain typos, which "Fix all certain typos" takes
// (as deckcheck fix does; a name found only without its spaces or quotes is already its card).
let certainTypos = [];

function fields(text, values) {
  return values ? text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m)) : text;
}

// A message in the page's language, its {fields} filled in.
function _(text, values) {
  return fields(MESSAGES[text] || text, values);
}

// The same with a plural: English picks by n; Japanese has one form.
function _n(one, many, n, values) {
  return fields(MESSAGES[one] || (n === 1 ? one : many), values);
}

function storedLanguage() {
  try { return localStorage.getItem(LANG_KEY); } catch (err) { return null; }
}

function browserLanguage() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const lang = tag.toLowerCase().split(/[-_]/)[0];
    if (LANGUAGES.includes(lang)) return lang;
  }
  return "en";
}

// Returns false when the page is being reloaded in another language.
function settleLanguage() {
  const url = new URL(location.href);
  const asked = url.searchParams.get("lang");
  if (asked && LANGUAGES.includes(asked)) {
    try { localStorage.setItem(LANG_KEY, asked); } catch (err) { /* private mode: not kept */ }
    return true;
  }
  const wanted = storedLanguage() || browserLanguage();
  if (LANGUAGES.includes(wanted) && wanted !== LANG) {
    url.searchParams.set("lang", wanted);
    location.replace(url.toString());
    return false;
  }
  return true;
}

function switchLanguage(lang) {
  try { localStorage.setItem(LANG_KEY, lang); } catch (err) { /* private mode: not kept */ }
  const url = new URL(location.href);
  url.searchParams.set("lang", lang);
  location.assign(url.toString());
}

// A message beside the control or panel it belongs to (near: that element's id), else at the
// top of the page; an empty message clears it, as a control does when it next succeeds.
function show(message, near) {
  const anchor = near ? $(near) : null;
  if (!anchor) {
    const box = $("message");
    box.textContent = message;
    box.hidden = !message;
    return;
  }
  const id = `${near}-message`;
  let note = $(id);
  if (!message) {
    if (note) note.remove();
    anchor.removeAttribute("aria-describedby");
    return;
  }
  if (!note) {
    note = document.createElement("p");
    note.id = id;
    note.className = "near-message";
    note.setAttribute("role", "alert");
    anchor.after(note);
  }
  note.textContent = message;
  anchor.setAttribute("aria-describedby", id);
}

// The service's answer, its body read as JSON or text (null for 204).
async function api(method, path, body, headers, signal) {
  const response = await apiResponse(method, path, body, headers, signal);
  if (response.status === 204) return null;
  const type = response.headers.get("content-type") || "";
  return type.includes("json") ? response.json() : response.text();
}

// The service's response, for a caller that reads its headers too; an Error when it fails.
async function apiResponse(method, path, body, headers, signal) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: { "Content-Type": "application/json", "Accept-Language": LANG,
        ...(headers || {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (err.name === "AbortError") throw err; // the caller's own timeout: it decides
    throw new Error(_("the service cannot be reached ({error}); your deck is kept",
      { error: err.message }));
  }
  if (!response.ok) {
    let detail = response.statusText;
    try { detail = (await response.json()).detail || detail; } catch (err) { /* not JSON */ }
    const error = new Error(`${response.status}: ${detail}`);
    error.status = response.status;
    throw error;
  }
  return response;
}

// --- the deck -------------------------------------------------------------------------------

// The deck as deckcheck reads it; with names, each line also says its card's name in a
// comment (`3 N1374  # name`), which deckcheck skips when it reads the list back.
function deckText(withNames) {
  const lines = [`format: ${state.format}`];
  for (const section of sectionNames()) {
    const rows = state.entries.filter((e) => e.section === section && e.count > 0);
    if (!rows.length) continue;
    lines.push(`[${section}]`);
    for (const e of rows) {
      const named = withNames && e.number && e.name && e.name !== e.number;
      lines.push(`${e.count} ${e.number || e.ref}` + (named ? `  # ${e.name.replace(/\s+/g, " ")}` : ""));
    }
  }
  return lines.join("\n") + "\n";
}

// How many cards deck lines hold in all.
function copiesOf(lines) {
  return lines.reduce((n, e) => n + e.count, 0);
}

function sectionNames() {
  return state.info ? state.info.sections.map((s) => s.name) : ["main"];
}

// The sections a card may be in: those whose allowed types hold its type and whose forbidden
// types do not (a card of unknown type: any section).
function sectionsFor(card) {
  const sections = state.info ? state.info.sections : [];
  if (!card.type) return sections.map((s) => s.name);
  return sections.filter((s) => s.types.allowed.includes(card.type) &&
    !(s.forbidden || []).some((f) => (f.types || []).includes(card.type))).map((s) => s.name);
}

// Where a new card goes: where the format's tables place one of its keywords (GET
// /formats/{id} "placement"), else the first section its type is allowed in.
function sectionFor(card) {
  const allowed = sectionsFor(card);
  const keywords = (card.facts || card).keywords || [];
  const placed = ((state.info && state.info.placement) || []).find(
    (p) => keywords.includes(p.keyword) && allowed.includes(p.section));
  return placed ? placed.section : allowed[0] || sectionNames()[0];
}

function save() {
  localStorage.setItem(STORE, JSON.stringify({ format: state.format, entries: state.entries,
    savedId: state.savedId, savedVersion: state.savedVersion }));
}

function change(card, delta, section) {
  if (typeof endUndo === "function") endUndo(); // a Clear is no longer undone once edited
  const where = section || sectionFor(card);
  let entry = state.entries.find((e) => e.number === card.number && e.section === where);
  if (!entry) {
    if (delta <= 0) return;
    // a searched card brings its facts (the statistics read them); a deck line keeps its own
    entry = { section: where, count: 0, number: card.number, name: card.name, type: card.type,
      facts: card.facts || (card.game ? card : undefined) };
    state.entries.push(entry);
  }
  entry.count = Math.max(0, entry.count + delta);
  state.entries = state.entries.filter((e) => e.count > 0);
  save();
  renderDeck();
  scheduleValidate();
}

// One copy of a deck line to another section (the line's card keeps its facts); from the
// keyboard the focus follows the card.
function move(entry, target, follow) {
  if (follow) focusNext = { section: target, number: entry.number || entry.ref };
  const copy = { ...entry };
  change(copy, +1, target);
  change(entry, -1, entry.section);
}

// The next section the line's card may be in, after its own (wrapping round); none: null.
function nextSection(entry) {
  const allowed = sectionsFor(entry).filter((s) => s !== entry.section);
  const order = sectionNames();
  const after = allowed.find((s) => order.indexOf(s) > order.indexOf(entry.section));
  return after || allowed[0] || null;
}

function sectionLabel(name) {
  const found = state.info && state.info.sections.find((s) => s.name === name);
  return found ? found.label || found.name : name;
}

// The line to focus after the deck is drawn again (a keyboard edit keeps its place).
let focusNext = null;
let offendingNow = new Set();

function renderDeck(offending) {
  if (offending) offendingNow = offending;
  const active = document.activeElement;
  const line = active && active.closest ? active.closest("#sections li[data-number]") : null;
  const keep = focusNext || (line ? { section: line.dataset.section, number: line.dataset.number }
    : null);
  focusNext = null;
  const root = $("sections");
  root.innerHTML = "";
  for (const section of state.info ? state.info.sections : [{ name: "main", size: {} }]) {
    root.append(renderSection(section));
  }
  if (keep) {
    const again = root.querySelector(`li[data-section="${CSS.escape(keep.section)}"]` +
      `[data-number="${CSS.escape(keep.number)}"]`);
    if (again) again.focus();
  }
  if (typeof deckChanged === "function") deckChanged();
}

// A section: its label, its count against the format's size, and its lines (by type when the
// "group by type" box is ticked).
function renderSection(section) {
  const rows = state.entries.filter((e) => e.section === section.name);
  const total = copiesOf(rows);
  const size = section.size;
  const bound = size.max === size.min ? `/${size.min}`
    : size.max != null ? ` (${size.min}–${size.max})` : "";
  const box = document.createElement("div");
  box.className = "section";
  const label = section.label || section.name;
  box.innerHTML = `<h3><span class="label"></span> <span class="total" ` +
    `data-section="${section.name}">${total}${bound}</span> <span class="dim optional"></span></h3>`;
  box.querySelector(".label").textContent = label;
  const outside = total < (size.min || 0) || (size.max != null && total > size.max);
  box.querySelector(".total").classList.toggle("off", outside && !(size.optional && total === 0));
  if (size.optional) box.querySelector(".optional").textContent = _("(optional)");
  const grouped = $("group-by-type") && $("group-by-type").checked;
  const groups = grouped ? groupByType(rows) : [[null, rows]];
  for (const [type, lines] of groups) {
    if (type !== null) {
      const heading = document.createElement("h4");
      heading.className = "group";
      heading.textContent = `${typeName(type) || _("(unknown)")} (${copiesOf(lines)})`;
      box.append(heading);
    }
    const list = document.createElement("ul");
    list.setAttribute("aria-label", type === null ? _("{section} cards", { section: label })
      : `${label}: ${typeName(type) || _("(unknown)")}`);
    for (const e of lines) list.append(deckLine(e));
    box.append(list);
  }
  return box;
}

// Lines by type, in the order the format's sections allow the types.
function groupByType(rows) {
  const order = state.info ? [...new Set(state.info.sections.flatMap((s) => s.types.allowed))] : [];
  const rank = (t) => (order.includes(t) ? order.indexOf(t) : order.length);
  const types = [...new Set(rows.map((e) => e.type || ""))].sort((a, b) => rank(a) - rank(b));
  return types.map((t) => [t, rows.filter((e) => (e.type || "") === t)]);
}

function deckLine(e) {
  const item = document.createElement("li");
  item.tabIndex = 0;
  item.dataset.number = e.number || e.ref;
  item.dataset.section = e.section;
  if (offendingNow.has(e.number)) item.classList.add("offending");
  item.innerHTML = `<span class="count">${e.count}</span> <span class="name"></span>
    <span class="number dim"></span>`;
  item.querySelector(".name").textContent = e.name;
  item.querySelector(".number").textContent = e.number || _("(unknown)");
  const minus = button("−", _("Remove one {number}", { number: e.number }),
    () => change(e, -1, e.section));
  const plus = button("+", _("Add one more {number}", { number: e.number }),
    () => change(e, +1, e.section));
  item.append(minus, plus);
  for (const target of sectionsFor(e).filter((s) => s !== e.section)) {
    const to = button(`→ ${sectionLabel(target)}`, _("Move one {number} to the {section}",
      { number: e.number || e.ref, section: sectionLabel(target) }), () => move(e, target));
    to.className = "move";
    to.dataset.to = target;
    item.append(to);
  }
  item.addEventListener("keydown", (ev) => keyEdit(ev, e, e.section));
  return item;
}

function button(text, label, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.setAttribute("aria-label", label);
  b.addEventListener("click", onClick);
  return b;
}

function keyEdit(ev, card, section) {
  if (ev.target !== ev.currentTarget) return;
  if (ev.key === "+" || ev.key === "Enter") { change(card, +1, section); ev.preventDefault(); }
  if (ev.key === "-") { change(card, -1, section); ev.preventDefault(); }
  // a deck line: "m" moves one copy on to the next section its card may be in
  if ((ev.key === "m" || ev.key === "M") && section && card.section === section) {
    const target = nextSection(card);
    if (target) move(card, target, true);
    ev.preventDefault();
  }
}

// --- the service's verdict ------------------------------------------------------------------

let validateTimer = null;
let validateSeq = 0;
function scheduleValidate() {
  clearTimeout(validateTimer);
  checking();
  validateTimer = setTimeout(validateNow, 150);
}

// Between a change and its verdict the old verdict stands greyed and busy, never as the new
// deck's: a reader (or a test) waiting for "legal" waits for this deck's check.
function checking() {
  if (!state.entries.length) return;
  $("verdict").className = "checking";
  $("verdict").setAttribute("aria-busy", "true");
}

// The deck a paste, a shared link or a saved deck is replacing the shown one with: every step
// that reads the deck (plot, deal, watch, compare) waits for it, so none asks about a deck
// that is on its way out.
let loading = Promise.resolve();
function settled() {
  return loading;
}

// The verdict: errors, then warnings, then the format's assumptions folded away (they are
// not warnings: facts only fan sources give, which the player may want to read).
async function validateNow() {
  if (!state.entries.length) {
    $("verdict").textContent = "—";
    $("verdict").className = "";
    fill($("errors"), []);
    fill($("warnings"), []);
    listAssumptions([]);
    show("", "verdict");
    return;
  }
  const seq = ++validateSeq;
  try {
    const report = await api("POST", "/validate", { deck: deckText() });
    if (seq !== validateSeq) return; // a later change's check is on its way: it answers
    $("verdict").removeAttribute("aria-busy");
    show("", "verdict");
    const errors = report.violations.filter((v) => v.severity === "error");
    const warnings = report.violations.filter((v) => v.severity === "warning");
    $("verdict").textContent = report.legal ? _("LEGAL")
      : _n("ILLEGAL — {n} error", "ILLEGAL — {n} errors", errors.length, { n: errors.length });
    $("verdict").className = report.legal ? "legal" : "illegal";
    fill($("errors"), errors);
    fill($("warnings"), warnings);
    listAssumptions(report.assumptions);
    renderDeck(new Set(errors.flatMap((v) => v.cards.map((c) => c.number)).filter(Boolean)));
  } catch (err) {
    if (seq !== validateSeq) return;
    $("verdict").removeAttribute("aria-busy");
    show(_("Could not check the deck: {error}", { error: err.message }), "verdict");
  }
}

function listAssumptions(assumptions) {
  const list = $("assumptions");
  list.innerHTML = "";
  for (const a of assumptions) {
    const li = document.createElement("li");
    li.textContent = a;
    list.append(li);
  }
  $("assumptions-block").hidden = !assumptions.length;
  $("assumptions-summary").textContent = _("Assumptions ({n})", { n: assumptions.length });
}

// A list of violations; its heading (the element labelling it) shows only when it has any.
function fill(list, violations) {
  list.innerHTML = "";
  list.hidden = !violations.length;
  const heading = $(list.getAttribute("aria-labelledby"));
  if (heading) heading.hidden = !violations.length;
  for (const v of violations) {
    const li = document.createElement("li");
    li.className = "violation";
    li.innerHTML = `<code class="rule"></code> <span class="msg"></span>
      <div class="fix"></div><div class="source dim"></div>`;
    li.querySelector(".rule").textContent = v.rule;
    li.querySelector(".msg").textContent = v.message;
    li.querySelector(".fix").textContent = v.fix ? _("fix: {fix}", { fix: v.fix }) : "";
    li.querySelector(".source").textContent = v.source;
    list.append(li);
  }
}

// --- searching ------------------------------------------------------------------------------

let searchTimer = null;
let searchSeq = 0;
function scheduleSearch(keepPage) {
  if (!keepPage) state.offset = 0;
  clearTimeout(searchTimer);
  searchTimer = setTimeout(searchNow, 40); // short: a search answers in a few milliseconds
}

// The search's query: the name, the type and every game filter that has a value.
function searchParams() {
  const params = new URLSearchParams({ game: state.info.game, limit: String(PAGE),
    offset: String(state.offset), total: "true" });
  for (const [id, key] of [["q", "q"], ["type", "type"]]) {
    if ($(id).value.trim()) params.set(key, $(id).value.trim());
  }
  for (const input of $("game-filters").querySelectorAll("[data-param]")) {
    if (input.value.trim()) params.set(input.dataset.param, input.value.trim());
  }
  return params;
}

async function searchNow() {
  const seq = ++searchSeq;
  const params = searchParams();
  try {
    const response = await apiResponse("GET", "/cards?" + params);
    const cards = await response.json();
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
    $("prev").disabled = state.offset === 0;
    $("next").disabled = state.offset + cards.length >= total;
    updateMoreFilters();
  } catch (err) {
    if (seq === searchSeq) show(_("Search failed: {error}", { error: err.message }), "game-filters");
  }
}

// One result: name and number with its buttons on one line, its facts on a second (the facts
// the search filters on first, marked, so a narrow row never hides them).
function resultRow(card, set) {
  const item = document.createElement("li");
  item.tabIndex = 0;
  item.dataset.number = card.number;
  item.innerHTML = `<span class="name"></span> <span class="number dim"></span>
    <span class="meta dim"></span>`;
  item.querySelector(".name").textContent = card.name;
  item.querySelector(".number").textContent = card.number;
  const meta = item.querySelector(".meta");
  const shown = factList(card, set);
  shown.forEach(([text, hit], i) => {
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

// What tells printings of one name apart: type, kind, level, cost, keywords, then the game's own
// columns its spec marks for the summary (GET /games lists them), one line.
function facts(card) {
  return factList(card, new Set()).map(([text]) => text).join(" · ");
}

// [text, whether a set filter reads it] for each fact of a card; the facts of the fields the
// set filters (the /cards parameters the search sends) read come first, and always show: a game column
// the summary leaves out among them.
function factList(card, set) {
  const read = new Set(gameFilters.filter((f) => set.has(f.param)).map(filterField));
  if (set.has("type")) read.add("type");
  const out = [];
  const add = (field, text) => { if (text) out.push([text, read.has(field)]); };
  add("type", typeName(card.type));
  add("kind", card.kind);
  if (card.level != null) add("level", _("Lv{level}", { level: card.level }));
  if (card.cost != null) add("cost", _("cost {cost}", { cost: card.cost }));
  if (card.keywords && card.keywords.length) add("keywords", card.keywords.join(" / "));
  for (const column of gameColumns) {
    if (!column.summary && !read.has(column.name)) continue;
    const value = card[column.name];
    if (value == null || (Array.isArray(value) && !value.length)) continue;
    add(column.name, `${column.short} ${Array.isArray(value) ? value.join(", ") : value}`);
  }
  return [...out.filter(([, hit]) => hit), ...out.filter(([, hit]) => !hit)];
}

// The card field a filter reads: its column, or for a game's own search hook the column of
// the same name.
function filterField(f) {
  return f.field || f.param;
}

// The chosen game's filters and columns, as GET /games lists them (the type menu is always
// there).
let gameList = null;
let gameFilters = [];
let gameColumns = [];
let typeWords = {};

// A game's entry of GET /games (its filters, columns, curve…), the list asked once a page.
async function gameSpecOf(game) {
  if (!gameList) gameList = await api("GET", "/games");
  return gameList.find((g) => g.id === game) || { filters: [], columns: [], curve: [] };
}

// A card type as the page shows it: in Japanese, the game's own printed word (GET /games
// lists them); in English, its id.
function typeName(type) {
  const words = typeWords[type];
  return LANG === "ja" && words && words.length ? words[0] : type;
}

// The game's filters, compact: the common ones shown (the shared columns the game's spec
// chose, and those of the columns its spec puts in a card's summary), the rest behind "More
// filters".
function renderFilters(spec) {
  gameFilters = spec.filters.filter((f) => f.param !== "type");
  gameColumns = spec.columns || [];
  typeWords = spec.card_types || {};
  const summary = new Set(gameColumns.filter((c) => c.summary).map((c) => c.name));
  const own = new Set(gameColumns.map((c) => c.name));
  const common = (f) => !own.has(filterField(f)) || summary.has(filterField(f));
  const root = $("game-filters");
  root.innerHTML = "";
  const more = document.createElement("details");
  more.id = "more-filters";
  more.innerHTML = `<summary id="more-filters-summary"></summary><div class="filters"></div>`;
  for (const f of gameFilters) {
    (common(f) ? root : more.querySelector(".filters")).append(filterCell(f));
  }
  if (more.querySelector("input")) root.append(more);
  updateMoreFilters();
}

function filterCell(f) {
  const cell = document.createElement("div");
  cell.className = "filter";
  const label = document.createElement("label");
  label.htmlFor = "filter-" + f.param;
  label.textContent = f.label;
  const input = document.createElement("input");
  input.id = "filter-" + f.param;
  input.dataset.param = f.param;
  input.autocomplete = "off";
  if (f.mode === "max" || f.mode === "min") {
    input.type = "number";
    input.inputMode = "numeric";
  } else {
    input.type = "text";
  }
  input.addEventListener("input", () => scheduleSearch());
  cell.append(label, input);
  return cell;
}

// "More filters", with how many of them are set: a folded filter still narrows the search.
function updateMoreFilters() {
  const summary = $("more-filters-summary");
  if (!summary) return;
  const set = [...$("more-filters").querySelectorAll("input")].filter((i) => i.value.trim());
  summary.textContent = set.length ? _("More filters ({n} set)", { n: set.length })
    : _("More filters");
}

// --- format ---------------------------------------------------------------------------------

// Each choice of format is numbered: a choice made while an earlier one still loads (the
// page's first format, asked at start, and the user's pick a moment later) wins, and the
// earlier one stops at its next await instead of laying its game's filters over the later
// one's (a fresh-clone test run found the filters of the start-up format under the chosen
// one, issue 38).
let formatSeq = 0;

async function chooseFormat(id, keepEntries) {
  const seq = ++formatSeq;
  state.format = id;
  $("format").value = id;
  let info;
  try {
    info = await api("GET", `/formats/${encodeURIComponent(id)}`);
  } catch (err) {
    if (seq === formatSeq) show(_("Could not load the format: {error}", { error: err.message }), "format");
    return;
  }
  if (seq !== formatSeq) return;
  state.info = info;
  if (!keepEntries) { state.entries = []; state.savedId = null; state.savedVersion = null; }
  try {
    const spec = await gameSpecOf(info.game);
    if (seq !== formatSeq) return;
    renderFilters(spec);
  } catch (err) {
    if (seq !== formatSeq) return;
    show(_("Could not load the search filters: {error}", { error: err.message }), "format");
  }
  const types = $("type");
  types.innerHTML = "";
  types.append(new Option(_("any"), ""));
  for (const t of formatTypes()) types.append(new Option(typeName(t), t));
  const mulligan = (state.info.parameters.mulligan || {}).value || "none";
  $("mulligan").hidden = mulligan === "none";
  if (typeof playtestFormat === "function") playtestFormat(); // playtest.js
  save();
  renderDeck();
  restoreOdds();
  scheduleValidate();
  scheduleSearch();
}

// --- hands and odds ---------------------------------------------------------------------------

async function deal(mulliganOf) {
  await settled();
  // A mulligan replays the same shuffle with the conditions as the keep rule (the service
  // applies the game's mulligan when the hand misses); without conditions: a fresh hand.
  const want = $("want").value.split("\n").map((s) => s.trim()).filter(Boolean);
  if (!mulliganOf || !want.length) state.seed = Math.floor(Math.random() * 1e9);
  try {
    const result = await api("POST", "/hand", { deck: deckText(), count: 1, seed: state.seed,
      want: mulliganOf ? want : [] });
    show("", "deal");
    const hand = result.hands[0];
    const cards = mulliganOf && hand.mulligan ? hand.mulligan : hand.hand;
    // what the deal set aside, laid out or marked in the hand: the game's spec names each
    const marks = new Map();
    const notes = [];
    for (const aside of hand.aside || []) {
      if (aside.in_hand) aside.cards.forEach((c) => marks.set(c, aside.label));
      else notes.push(`${aside.label}: ${aside.cards.join(", ")}`);
    }
    $("hand").innerHTML = "";
    for (const c of cards) {
      const li = document.createElement("li");
      li.textContent = c + (marks.has(c) ? ` (${marks.get(c)})` : "");
      $("hand").append(li);
    }
    if (hand.redraws) {
      notes.push(_n("{n} forced redraw", "{n} forced redraws", hand.redraws, { n: hand.redraws }));
    }
    if (mulliganOf && hand.returned) {
      notes.push(_("returned: {cards}", { cards: hand.returned.join(", ") }));
    }
    $("hand-note").textContent = notes.join(" · ");
  } catch (err) {
    show(_("Could not deal a hand: {error}", { error: err.message }), "deal");
  }
}

// The format's card types, in its sections' order (an example in a message uses the first:
// the page names no game's words).
function formatTypes() {
  return new Set(state.info ? state.info.sections.flatMap((s) => s.types.allowed) : []);
}

async function plot() {
  await settled();
  const want = $("want").value.split("\n").map((s) => s.trim()).filter(Boolean);
  if (!want.length) {
    const example = "type:" + ([...formatTypes()][0] || "TYPE") + ">=1";
    show(_("Write at least one condition, e.g. {example}", { example }), "want");
    return;
  }
  const turns = Math.max(0, Math.min(15, Number($("turns").value) || 6));
  try {
    const body = { deck: deckText(), want, turns };
    const [play, draw] = await Promise.all([
      api("POST", "/odds", { ...body, on_play: true }),
      api("POST", "/odds", { ...body, on_play: false }),
    ]);
    show("", "plot");
    const odds = { deck: body.deck, want, turns, play: play.rows, draw: draw.rows,
      method: play.method, mulligan: play.mulligan };
    drawOdds(odds);
    try { sessionStorage.setItem(ODDS_KEY, JSON.stringify(odds)); } catch (err) { /* not kept */ }
  } catch (err) {
    show(_("Could not compute the odds: {error}", { error: err.message }), "plot");
  }
}

// The odds plotted last in this tab, kept over a reload or a language switch (issue 32): drawn
// again, in the page's language, while the deck is the one they were computed for.
const ODDS_KEY = "deckcheck.odds.v1";

function drawOdds(odds) {
  // when the first player draws too, the two curves are one: drawn once, labelled as one
  const same = odds.play.every((r, k) => r.probability === (odds.draw[k] || {}).probability);
  drawChart(same ? [{ label: _("play = draw"), rows: odds.play }]
    : [{ label: _("on the play"), rows: odds.play }, { label: _("on the draw"), rows: odds.draw }]);
  const method = odds.method === "exact" ? _("exact") : _("monte-carlo");
  $("chart-note").textContent = _("{method}; mulligan: {mulligan}",
    { method, mulligan: odds.mulligan });
}

function restoreOdds() {
  let odds = null;
  try { odds = JSON.parse(sessionStorage.getItem(ODDS_KEY) || "null"); } catch (err) { odds = null; }
  if (!odds || odds.deck !== deckText() || $("chart").childElementCount) return;
  $("want").value = odds.want.join("\n");
  $("turns").value = String(odds.turns);
  drawOdds(odds);
}

// --- charts -----------------------------------------------------------------------------------
// Colours (dark enough to read as text on white) and markers tell the series apart; the legend
// sits below the plot, one entry a row, so nothing covers a curve at any width.
const CHART_COLOURS = ["#1d4ed8", "#b91c1c", "#047857", "#b45309", "#7c3aed", "#0e7490"];
const MARKERS = ["circle", "square", "triangle", "diamond", "down", "cross"];

function marker(shape, cx, cy, colour) {
  const [x, y, r] = [cx.toFixed(1), cy.toFixed(1), 3.2];
  const at = (dx, dy) => `${(cx + dx).toFixed(1)},${(cy + dy).toFixed(1)}`;
  const paint = `fill="${colour}" stroke="${colour}" class="marker"`;
  if (shape === "circle") return `<circle cx="${x}" cy="${y}" r="${r}" ${paint}/>`;
  if (shape === "square") {
    return `<rect x="${(cx - r).toFixed(1)}" y="${(cy - r).toFixed(1)}" width="${2 * r}" ` +
      `height="${2 * r}" ${paint}/>`;
  }
  const shapes = {
    triangle: [[0, -r - 0.6], [r, r], [-r, r]],
    diamond: [[0, -r - 0.6], [r + 0.6, 0], [0, r + 0.6], [-r - 0.6, 0]],
    down: [[0, r + 0.6], [r, -r], [-r, -r]],
    cross: [[-r, -r], [r, r], [0, 0], [r, -r], [-r, r], [0, 0]],
  };
  const extra = shape === "cross" ? ' stroke-width="1.6"' : "";
  return `<polygon points="${shapes[shape].map(([dx, dy]) => at(dx, dy)).join(" ")}" ${paint}${extra}/>`;
}

function escapeText(text) {
  // no regular expression here: the catalogue's extractor misreads a quote inside one
  return String(text).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

function percent(p) {
  return `${(p * 100).toFixed(1)}%`;
}

// A part of the chart's figure below the chart (made the first time): the legend, then the
// readout.
function figurePart(svg, tag, className, attribute, value) {
  const figure = svg.parentNode;
  let part = figure.querySelector("." + className);
  if (!part) {
    part = document.createElement(tag);
    part.className = className;
    part.setAttribute(attribute, value);
    ((className === "readout" && figure.querySelector(".chart-legend")) || svg).after(part);
  }
  return part;
}

// The value under a pointer or a finger: beside the chart, for touch screens that have no hover.
function readout(svg, text) {
  figurePart(svg, "p", "readout", "aria-live", "polite").textContent = text;
}

// The legend: a list below the chart (text wraps at any width, so it never covers a curve),
// each entry a swatch of its line with its marker, and its label in the line's colour.
function legend(svg, lines) {
  const list = figurePart(svg, "ul", "chart-legend", "aria-label", _("Legend"));
  list.innerHTML = "";
  for (const s of lines) {
    const item = document.createElement("li");
    item.className = "legend-item";
    item.dataset.series = s.label;
    item.innerHTML = `<svg class="swatch-box" viewBox="0 0 22 10" width="22" height="10" ` +
      `aria-hidden="true"><line x1="1" y1="5" x2="21" y2="5" stroke="${s.colour}" ` +
      `stroke-width="2" class="swatch"/>${marker(s.marker, 11, 5, s.colour)}</svg>` +
      `<span class="legend"></span>`;
    const text = item.querySelector(".legend");
    text.textContent = s.label;
    text.style.setProperty("--series", s.colour); // builder.css paints the text with it
    list.append(item);
  }
}

function listenForPoints(svg) {
  if (svg.dataset.listening) return;
  svg.dataset.listening = "1";
  // every series' value at the turn under the pointer or finger: curves that meet hide no one
  const pick = (ev) => {
    const point = ev.target.closest && ev.target.closest(".point");
    if (!point) return;
    const turn = point.dataset.turn;
    readout(svg, _("turn {turn}: {values}",
      { turn, values: (svg.chartValues[turn] || []).join("; ") }));
  };
  svg.addEventListener("click", pick);
  svg.addEventListener("mouseover", pick);
}

// Series with the same values (and intervals) are one curve: drawn once, their labels joined.
function sameAsOne(series) {
  const seen = new Map();
  for (const s of series) {
    const key = JSON.stringify([s.rows.map((r) => r.probability), s.band || null]);
    const first = seen.get(key);
    if (first) first.label = `${first.label} = ${s.label}`;
    else seen.set(key, { ...s });
  }
  return [...seen.values()];
}

// series: {label, rows of {turn, probability}, colour?, band? rows of {turn, low, high}};
// titles: the axes' words. Also draws compare.js's curves.
function drawChart(series, svg = $("chart"), titles = {}) {
  const lines = sameAsOne(series)
    .map((s, i) => ({ ...s, colour: s.colour || CHART_COLOURS[i % CHART_COLOURS.length],
      marker: MARKERS[i % MARKERS.length] }));
  if (!lines.length) { // nothing to draw (e.g. no variant was legal)
    svg.innerHTML = "";
    legend(svg, []);
    readout(svg, "");
    return;
  }
  const xTitle = titles.x || _("turn");
  const yTitle = titles.y || _("probability");
  const [w, plotH, left, right, top] = [320, 150, 44, 10, 8];
  const h = plotH + 30;
  const turns = Math.max(...lines.map((s) => s.rows.length)) - 1 || 1;
  const x = (t) => left + (t / turns) * (w - left - right);
  const y = (p) => top + (1 - p) * (plotH - top - 18);
  const bottom = y(0);
  const values = {}; // turn → each series' value there, for the readout
  let out = "";
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    out += `<line x1="${left}" y1="${y(p)}" x2="${w - right}" y2="${y(p)}" class="grid"/>` +
      `<text x="${left - 4}" y="${y(p) + 3}" class="tick" text-anchor="end">${p * 100}%</text>`;
  }
  out += `<line x1="${left}" y1="${bottom}" x2="${w - right}" y2="${bottom}" class="axis"/>` +
    `<line x1="${left}" y1="${bottom}" x2="${left}" y2="${y(1)}" class="axis"/>`;
  for (let t = 0; t <= turns; t++) {
    out += `<text x="${x(t)}" y="${bottom + 11}" class="tick" text-anchor="middle">${t}</text>`;
  }
  out += `<text x="${(left + w - right) / 2}" y="${bottom + 23}" class="axis-title x-title" ` +
    `text-anchor="middle">${escapeText(xTitle)}</text>` +
    `<text x="10" y="${(top + bottom) / 2}" class="axis-title y-title" text-anchor="middle" ` +
    `transform="rotate(-90 10 ${(top + bottom) / 2})">${escapeText(yTitle)}</text>`;
  for (const s of lines.filter((l) => l.band)) {
    const upper = s.band.map((r) => `${x(r.turn).toFixed(1)},${y(r.high).toFixed(1)}`);
    const lower = s.band.map((r) => `${x(r.turn).toFixed(1)},${y(r.low).toFixed(1)}`).reverse();
    out += `<polygon class="band" data-series="${escapeText(s.label)}" fill="${s.colour}" ` +
      `fill-opacity="0.15" stroke="none" points="${[...upper, ...lower].join(" ")}"/>`;
  }
  lines.forEach((s) => {
    const points = s.rows.map((r) => `${x(r.turn).toFixed(1)},${y(r.probability).toFixed(1)}`);
    const label = escapeText(s.label);
    out += `<polyline class="series" data-series="${label}" fill="none" stroke="${s.colour}" ` +
      `stroke-width="2" points="${points.join(" ")}"/>`;
    for (const r of s.rows) {
      const band = s.band && s.band.find((b) => b.turn === r.turn);
      const range = band ? ` (${percent(band.low)}–${percent(band.high)})` : "";
      const value = percent(r.probability) + range;
      (values[r.turn] = values[r.turn] || []).push(`${s.label} ${value}`);
      const text = escapeText(_("{series}: turn {turn}, {value}",
        { series: s.label, turn: r.turn, value }));
      out += `<g class="point" data-turn="${r.turn}"><title>${text}</title>` +
        `<circle cx="${x(r.turn).toFixed(1)}" cy="${y(r.probability).toFixed(1)}" r="7" ` +
        `fill="transparent"/>${marker(s.marker, x(r.turn), y(r.probability), s.colour)}</g>`;
    }
  });
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.innerHTML = out;
  svg.chartValues = values;
  legend(svg, lines);
  readout(svg, "");
  listenForPoints(svg);
}

// --- import, export, saved decks ------------------------------------------------------------

function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

// A cell a spreadsheet would run as a formula gets a single quote in front (OWASP "CSV
// injection"), as deckcheck.csvsafe does; so does one that starts with a quote and one of
// those, so that reading our CSV back (which drops one such quote) gives what was written.
function safeCell(v) {
  return /^[=+\-@\t\r]/.test(v) || /^'[=+\-@\t\r']/.test(v) ? `'${v}` : v;
}

// A file name from the deck's name and format: letters, digits and - _ . kept, any other run
// of characters one "-" (a name no system refuses).
function fileName(extension) {
  const name = ($("deck-name").value.trim() || "deck").replace(/[^\p{L}\p{N}._-]+/gu, "-")
    .replace(/^[-.]+|-+$/g, "") || "deck";
  return `${name}-${state.format}.${extension}`;
}

function exportAs(fileType) {
  if (fileType === "text") return download(fileName("deck"), deckText(true), "text/plain");
  if (fileType === "json") {
    const data = { format: state.format };
    for (const s of sectionNames()) {
      const rows = state.entries.filter((e) => e.section === s);
      if (rows.length) data[s] = rows.map((e) => ({ count: e.count, card: e.number || e.ref }));
    }
    return download(fileName("json"), JSON.stringify(data, null, 2), "application/json");
  }
  const quote = (v) => /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
  const rows = [`# format: ${state.format}`, "section,count,number,name",
    ...state.entries.map((e) => [e.section, e.count, e.number || "", e.name || e.ref || ""]
      .map(String).map(safeCell).map(quote).join(","))];
  return download(fileName("csv"), rows.join("\n") + "\n", "text/csv");
}

// previous: the deck Undo gives back (deck.js), when the caller changed some of it first.
function loadText(text, previous = deckSnapshot()) {
  loading = readText(text, previous);
  return loading;
}

async function readText(text, previous) {
  checking();
  try {
    const resolved = await api("POST", "/resolve", { deck: text, format: null }).catch(
      () => api("POST", "/resolve", { deck: text, format: state.format }));
    if (resolved.format !== state.format) await chooseFormat(resolved.format, false);
    state.entries = resolved.entries.map(entryOf);
    save();
    renderDeck();
    scheduleValidate();
    settleLines(resolved.entries.map((e, i) => [state.entries[i], e]));
    unreadLines(resolved.problems);
    offerUndoReplace(previous);
    const unread = resolved.problems.length;
    show(unread ? _n("{n} line could not be read", "{n} lines could not be read", unread,
      { n: unread }) : "", "load");
  } catch (err) {
    show(_("Could not load the deck list: {error}", { error: err.message }), "load");
    scheduleValidate(); // the shown deck stays: its verdict comes back
  }
}

// a resolved line as a deck line; its card's facts come along (the statistics read them)
function entryOf(e) {
  return { section: e.section, count: e.count, number: e.number, ref: e.ref, name: e.name,
    type: e.type, facts: e.card || undefined };
}

// The pasted lines a player has to settle, below the Load button: a name whose printings differ
// in what legality depends on offers them (with what tells them apart) to pick one; an unknown
// name offers the names the CLI would suggest. A name whose printings legality treats alike
// took the lowest number, as the CLI does: its other printings wait, folded, for a player who
// meant one of them (they differ in play: cost, node…).
function settleLines(pairs) {
  $("paste-lines").innerHTML = "";
  $("paste-printings").innerHTML = "";
  certainTypos = [];
  for (const [entry, line] of pairs) {
    const item = settleLine(entry, line);
    if (item) $(line.number ? "paste-printings" : "paste-lines").append(item);
    if (item && !(line.printings || []).length && (line.suggestions || []).length === 1) {
      certainTypos.push([entry, line.suggestions[0], item]);
    }
  }
  tidyLines();
}

async function fixCertainTypos() {
  for (const [entry, name, item] of certainTypos.filter(([, , item]) => item.isConnected)) {
    await takeSuggestion(entry, name, item);
  }
  certainTypos = [];
  tidyLines();
}

// Each line the service could not read, first among the lines to settle: its number, what it
// says (the line as written) and what was expected, as the CLI prints them (one parser).
function unreadLines(problems) {
  const items = problems.map((p) => {
    const item = document.createElement("li");
    item.className = "settle unread";
    item.textContent = _("line {line}: {message}; {fix}",
      { line: p.line ?? "?", message: p.message, fix: p.fix || "" });
    return item;
  });
  $("paste-lines").prepend(...items);
  tidyLines();
}

function tidyLines() {
  $("paste-lines").hidden = !$("paste-lines").children.length;
  $("fix-typos").hidden = !certainTypos.some(([, , item]) => item.isConnected);
  const others = $("paste-printings").children.length;
  $("paste-others").hidden = !others;
  $("paste-others-summary").textContent = _n(
    "{n} name has other printings", "{n} names have other printings", others, { n: others });
}

function settleLine(entry, line) {
  const printings = line.printings || [];
  const suggestions = line.suggestions || [];
  if (!printings.length && !suggestions.length) return null;
  const item = document.createElement("li");
  item.className = "settle";
  const what = document.createElement("p");
  const ref = line.ref;
  what.textContent = printings.length && !line.number
    ? _("{ref} ×{count}: {n} printings differ in what legality depends on; pick one",
      { ref, count: line.count, n: printings.length })
    : printings.length
      ? _("{ref} ×{count}: {n} printings; {number} was taken, pick another if you meant it",
        { ref, count: line.count, n: printings.length, number: line.number })
      : _("{ref} ×{count}: no such card; did you mean", { ref, count: line.count });
  const choices = document.createElement("div");
  choices.className = "choices";
  for (const card of printings) {
    const b = button("", _("Use {number} for {ref}", { number: card.number, ref }),
      () => pickPrinting(entry, card, item));
    b.innerHTML = `<b></b> <span class="dim"></span>`;
    b.querySelector("b").textContent = card.number;
    b.querySelector("span").textContent = facts(card);
    b.setAttribute("aria-pressed", String(card.number === line.number));
    choices.append(b);
  }
  for (const name of suggestions) {
    choices.append(button(name, _("Use {name} for {ref}", { name, ref }),
      () => takeSuggestion(entry, name, item)));
  }
  item.append(what, choices);
  return item;
}

// The picked printing replaces the line's card (joining a line of that card in its section).
function pickPrinting(entry, card, item) {
  if (!state.entries.includes(entry)) { item.remove(); tidyLines(); return; } // cleared since
  const same = state.entries.find((e) => e !== entry && e.number === card.number
    && e.section === entry.section);
  if (same) {
    same.count += entry.count;
    state.entries = state.entries.filter((e) => e !== entry);
  } else {
    Object.assign(entry, { number: card.number, name: card.name, type: card.type, ref: null,
      facts: card }); // the picked printing's own facts (the statistics read them)
  }
  item.remove();
  tidyLines();
  save();
  renderDeck();
  scheduleValidate();
}

// A suggested name is read as the line would have been: one card, or its printings to pick.
async function takeSuggestion(entry, name, item) {
  const deck = `format: ${state.format}\n[${entry.section}]\n${entry.count} ${name}\n`;
  try {
    const resolved = await api("POST", "/resolve", { deck, format: state.format });
    const line = resolved.entries[0];
    show("", "load");
    if (!line || !line.number && !line.printings.length) return;
    Object.assign(entry, entryOf({ ...line, section: entry.section, count: entry.count }));
    const next = line.printings.length ? settleLine(entry, line) : null;
    if (next) $(line.number ? "paste-printings" : "paste-lines").append(next);
    item.remove();
    tidyLines();
    save();
    renderDeck();
    scheduleValidate();
  } catch (err) {
    show(_("Could not load the deck list: {error}", { error: err.message }), "load");
  }
}

async function saveToService() {
  const key = $("api-key").value.trim();
  if (!key) { show(_("Enter an API key to save to the service"), "save"); return; }
  const body = { name: $("deck-name").value.trim() || _("deck"), format: state.format,
    deck: deckText(), visibility: $("visibility").value };
  const auth = { Authorization: `Bearer ${key}` };
  try {
    // If-Match: the version this page loaded, so another writer's change is never overwritten
    const saved = state.savedId
      ? await api("PUT", `/decks/${state.savedId}`, body,
        { ...auth, "If-Match": `"${state.savedVersion || 0}"` })
      : await api("POST", "/decks", body, auth);
    state.savedId = saved.id;
    state.savedVersion = saved.version;
    save();
    show(_("Saved as {id}", { id: saved.id }), "save");
  } catch (err) {
    if (err.status === 412) {
      show(_("Someone else changed this deck since you loaded it: load it again from Saved decks, then reapply your change (your deck is kept here)"), "save");
    } else {
      show(_("Could not save: {error}", { error: err.message }), "save");
    }
  }
}

async function listSaved() {
  // with a key: its own decks and the public ones; without: the public ones
  const key = $("api-key").value.trim();
  const auth = key ? { Authorization: `Bearer ${key}` } : {};
  try {
    const decks = await api("GET", `/decks?format=${encodeURIComponent(state.format)}`,
      undefined, auth);
    $("saved").innerHTML = "";
    for (const d of decks) {
      const li = document.createElement("li");
      const label = d.yours ? d.name : _("{name} (another key's)", { name: d.name });
      li.append(button(label, _("Load saved deck {name}", { name: d.name }), async () => {
        const full = await api("GET", `/decks/${d.id}`, undefined, auth);
        const previous = deckSnapshot();
        // only the owner's key saves over it: a deck of another key is saved as a new one
        state.savedId = d.yours ? d.id : null;
        state.savedVersion = full.version;
        $("deck-name").value = d.name;
        $("visibility").value = full.visibility;
        await loadText(full.deck, previous);
      }));
      $("saved").append(li);
    }
    if (!decks.length) show(_("No saved decks for this format"), "list-saved");
  } catch (err) {
    show(_("Could not list saved decks: {error}", { error: err.message }), "list-saved");
  }
}

// --- start ----------------------------------------------------------------------------------

function start() {
  for (const b of document.querySelectorAll("#language button")) {
    b.addEventListener("click", () => switchLanguage(b.dataset.lang));
  }
  for (const id of ["q", "type"]) $(id).addEventListener("input", () => scheduleSearch());
  $("prev").addEventListener("click", () => {
    state.offset = Math.max(0, state.offset - PAGE);
    scheduleSearch(true);
  });
  $("next").addEventListener("click", () => { state.offset += PAGE; scheduleSearch(true); });
  $("q").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") { const first = $("results").querySelector("li"); if (first) first.focus(); }
  });
  $("format").addEventListener("change", (ev) => chooseFormat(ev.target.value, false));
  $("clear").addEventListener("click", clearDeck);
  $("export-text").addEventListener("click", () => exportAs("text"));
  $("export-json").addEventListener("click", () => exportAs("json"));
  $("export-csv").addEventListener("click", () => exportAs("csv"));
  $("load").addEventListener("click", () => loadText($("paste").value));
  $("fix-typos").addEventListener("click", fixCertainTypos);
  $("save").addEventListener("click", saveToService);
  $("list-saved").addEventListener("click", listSaved);
  $("deal").addEventListener("click", () => deal(false));
  $("mulligan").addEventListener("click", () => deal(true));
  $("plot").addEventListener("click", plot);
  startDeck();
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(STORE) || "null"); } catch (err) { kept = null; }
  const shared = sharedDeck(); // a link made with "Share": its deck wins over the kept one
  if (shared) {
    openShared(shared);
  } else if (kept && kept.format) {
    state.entries = kept.entries || [];
    state.savedId = kept.savedId || null;
    state.savedVersion = kept.savedVersion || null;
    chooseFormat(kept.format, true);
  } else {
    chooseFormat($("format").value, false);
  }
}

// after every script of the page has run (deck.js and the others define what start() calls)
if (settleLanguage()) document.addEventListener("DOMContentLoaded", start);
