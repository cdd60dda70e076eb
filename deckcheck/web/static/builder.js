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
async function api(method, path, body, headers) {
  const response = await apiResponse(method, path, body, headers);
  if (response.status === 204) return null;
  const type = response.headers.get("content-type") || "";
  return type.includes("json") ? response.json() : response.text();
}

// The service's response, for a caller that reads its headers too; an Error when it fails.
async function apiResponse(method, path, body, headers) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: { "Content-Type": "application/json", "Accept-Language": LANG,
        ...(headers || {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
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

function deckText() {
  const lines = [`format: ${state.format}`];
  for (const section of sectionNames()) {
    const rows = state.entries.filter((e) => e.section === section && e.count > 0);
    if (!rows.length) continue;
    lines.push(`[${section}]`);
    for (const e of rows) lines.push(`${e.count} ${e.number || e.ref}`);
  }
  return lines.join("\n") + "\n";
}

function sectionNames() {
  return state.info ? state.info.sections.map((s) => s.name) : ["main"];
}

function sectionFor(type) {
  const found = state.info && state.info.sections.find((s) => s.types.allowed.includes(type));
  return found ? found.name : "main";
}

function save() {
  localStorage.setItem(STORE, JSON.stringify({ format: state.format, entries: state.entries,
    savedId: state.savedId, savedVersion: state.savedVersion }));
}

function change(card, delta, section) {
  const where = section || sectionFor(card.type);
  let entry = state.entries.find((e) => e.number === card.number && e.section === where);
  if (!entry) {
    if (delta <= 0) return;
    entry = { section: where, count: 0, number: card.number, name: card.name, type: card.type };
    state.entries.push(entry);
  }
  entry.count = Math.max(0, entry.count + delta);
  state.entries = state.entries.filter((e) => e.count > 0);
  save();
  renderDeck();
  scheduleValidate();
}

function renderDeck(offending = new Set()) {
  const root = $("sections");
  root.innerHTML = "";
  for (const section of state.info ? state.info.sections : [{ name: "main", size: {} }]) {
    const rows = state.entries.filter((e) => e.section === section.name);
    const total = rows.reduce((n, e) => n + e.count, 0);
    const bound = section.size.max === section.size.min ? `/${section.size.min}`
      : section.size.max != null ? ` (${section.size.min}–${section.size.max})` : "";
    const box = document.createElement("div");
    box.className = "section";
    const label = section.label || section.name;
    box.innerHTML = `<h3><span class="label"></span> <span class="total" ` +
      `data-section="${section.name}">${total}${bound}</span></h3>`;
    box.querySelector(".label").textContent = label;
    const list = document.createElement("ul");
    list.setAttribute("aria-label", _("{section} cards", { section: label }));
    for (const e of rows) {
      const item = document.createElement("li");
      item.tabIndex = 0;
      item.dataset.number = e.number || e.ref;
      if (offending.has(e.number)) item.classList.add("offending");
      item.innerHTML = `<span class="count">${e.count}</span> <span class="name"></span>
        <span class="number dim"></span>`;
      item.querySelector(".name").textContent = e.name;
      item.querySelector(".number").textContent = e.number || _("(unknown)");
      const minus = button("−", _("Remove one {number}", { number: e.number }),
        () => change(e, -1, e.section));
      const plus = button("+", _("Add one more {number}", { number: e.number }),
        () => change(e, +1, e.section));
      item.append(minus, plus);
      item.addEventListener("keydown", (ev) => keyEdit(ev, e, e.section));
      list.append(item);
    }
    box.append(list);
    root.append(box);
  }
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
}

// --- the service's verdict ------------------------------------------------------------------

let validateTimer = null;
function scheduleValidate() {
  clearTimeout(validateTimer);
  validateTimer = setTimeout(validateNow, 150);
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
  try {
    const report = await api("POST", "/validate", { deck: deckText() });
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

// A card type as the page shows it: in Japanese, the game's own printed word (GET /games
// lists them); in English, its id.
function typeName(type) {
  const words = typeWords[type];
  return LANG === "ja" && words && words.length ? words[0] : type;
}

// The game's filters, compact: the common ones shown (the shared columns the game's spec
// chose, and those of the columns its spec puts in a card's summary), the rest behind "More
// filters".
async function renderFilters(game) {
  if (!gameList) gameList = await api("GET", "/games");
  const spec = gameList.find((g) => g.id === game) || { filters: [], columns: [] };
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

async function chooseFormat(id, keepEntries) {
  state.format = id;
  $("format").value = id;
  try {
    state.info = await api("GET", `/formats/${encodeURIComponent(id)}`);
  } catch (err) {
    show(_("Could not load the format: {error}", { error: err.message }));
    return;
  }
  if (!keepEntries) { state.entries = []; state.savedId = null; state.savedVersion = null; }
  try {
    await renderFilters(state.info.game);
  } catch (err) {
    show(_("Could not load the search filters: {error}", { error: err.message }));
  }
  const types = $("type");
  types.innerHTML = "";
  types.append(new Option(_("any"), ""));
  for (const t of formatTypes()) types.append(new Option(typeName(t), t));
  const mulligan = (state.info.parameters.mulligan || {}).value || "none";
  $("mulligan").hidden = mulligan === "none";
  save();
  renderDeck();
  scheduleValidate();
  scheduleSearch();
}

// --- hands and odds ---------------------------------------------------------------------------

async function deal(mulliganOf) {
  // A mulligan replays the same shuffle with the conditions as the keep rule (the service
  // applies the game's mulligan when the hand misses); without conditions: a fresh hand.
  const want = $("want").value.split("\n").map((s) => s.trim()).filter(Boolean);
  if (!mulliganOf || !want.length) state.seed = Math.floor(Math.random() * 1e9);
  try {
    const result = await api("POST", "/hand", { deck: deckText(), count: 1, seed: state.seed,
      want: mulliganOf ? want : [] });
    show("");
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
    show(_("Could not deal a hand: {error}", { error: err.message }));
  }
}

// The format's card types, in its sections' order (an example in a message uses the first:
// the page names no game's words).
function formatTypes() {
  return new Set(state.info ? state.info.sections.flatMap((s) => s.types.allowed) : []);
}

async function plot() {
  const want = $("want").value.split("\n").map((s) => s.trim()).filter(Boolean);
  if (!want.length) {
    const example = "type:" + ([...formatTypes()][0] || "TYPE") + ">=1";
    show(_("Write at least one condition, e.g. {example}", { example }));
    return;
  }
  const turns = Math.max(0, Math.min(15, Number($("turns").value) || 6));
  try {
    const body = { deck: deckText(), want, turns };
    const [play, draw] = await Promise.all([
      api("POST", "/odds", { ...body, on_play: true }),
      api("POST", "/odds", { ...body, on_play: false }),
    ]);
    show("");
    drawChart([[_("on the play"), play.rows, "#2563eb"], [_("on the draw"), draw.rows, "#dc2626"]]);
    const method = play.method === "exact" ? _("exact") : _("monte-carlo");
    $("chart-note").textContent = _("{method}; mulligan: {mulligan}",
      { method, mulligan: play.mulligan });
  } catch (err) {
    show(_("Could not compute the odds: {error}", { error: err.message }));
  }
}

// series: [label, rows of {turn, probability}, colour]; also draws compare.js's curves
function drawChart(series, svg = $("chart")) {
  const [w, h, left, bottom] = [320, 180, 34, 20];
  const turns = Math.max(...series.map(([, rows]) => rows.length)) - 1 || 1;
  const x = (t) => left + (t / turns) * (w - left - 8);
  const y = (p) => 8 + (1 - p) * (h - bottom - 8);
  let out = `<line x1="${left}" y1="${y(0)}" x2="${w - 8}" y2="${y(0)}" class="axis"/>` +
    `<line x1="${left}" y1="${y(0)}" x2="${left}" y2="${y(1)}" class="axis"/>`;
  for (const p of [0, 0.5, 1]) out += `<text x="2" y="${y(p) + 4}" class="tick">${p * 100}%</text>`;
  for (let t = 0; t <= turns; t++) out += `<text x="${x(t) - 3}" y="${h - 4}" class="tick">${t}</text>`;
  series.forEach(([label, rows, colour], i) => {
    const points = rows.map((r) => `${x(r.turn).toFixed(1)},${y(r.probability).toFixed(1)}`);
    out += `<polyline class="series" data-series="${label}" fill="none" stroke="${colour}" ` +
      `stroke-width="2" points="${points.join(" ")}"/>` +
      `<text x="${left + 6}" y="${16 + i * 14}" fill="${colour}" class="tick">${label}</text>`;
  });
  svg.innerHTML = out;
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

function exportAs(fileType) {
  if (fileType === "text") return download("deck.deck", deckText(), "text/plain");
  if (fileType === "json") {
    const data = { format: state.format };
    for (const s of sectionNames()) {
      const rows = state.entries.filter((e) => e.section === s);
      if (rows.length) data[s] = rows.map((e) => ({ count: e.count, card: e.number || e.ref }));
    }
    return download("deck.json", JSON.stringify(data, null, 2), "application/json");
  }
  const quote = (v) => /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
  const rows = [`# format: ${state.format}`, "section,count,number,name",
    ...state.entries.map((e) => [e.section, e.count, e.number || "", e.name || e.ref || ""]
      .map(String).map(safeCell).map(quote).join(","))];
  return download("deck.csv", rows.join("\n") + "\n", "text/csv");
}

async function loadText(text) {
  try {
    const resolved = await api("POST", "/resolve", { deck: text, format: null }).catch(
      () => api("POST", "/resolve", { deck: text, format: state.format }));
    if (resolved.format !== state.format) await chooseFormat(resolved.format, false);
    state.entries = resolved.entries.map(entryOf);
    save();
    renderDeck();
    scheduleValidate();
    settleLines(resolved.entries.map((e, i) => [state.entries[i], e]));
    const unread = resolved.problems.length;
    show(unread ? _n("{n} line could not be read", "{n} lines could not be read", unread,
      { n: unread }) : "", "load");
  } catch (err) {
    show(_("Could not load the deck list: {error}", { error: err.message }), "load");
  }
}

function entryOf(e) {
  return { section: e.section, count: e.count, number: e.number, ref: e.ref, name: e.name,
    type: e.type };
}

// The pasted lines a player has to settle, below the Load button: a name whose printings differ
// in what legality depends on offers them (with what tells them apart) to pick one; an unknown
// name offers the names the CLI would suggest. A name whose printings legality treats alike
// took the lowest number, as the CLI does: its other printings wait, folded, for a player who
// meant one of them (they differ in play: cost, node…).
function settleLines(pairs) {
  $("paste-lines").innerHTML = "";
  $("paste-printings").innerHTML = "";
  for (const [entry, line] of pairs) {
    const item = settleLine(entry, line);
    if (item) $(line.number ? "paste-printings" : "paste-lines").append(item);
  }
  tidyLines();
}

function tidyLines() {
  $("paste-lines").hidden = !$("paste-lines").children.length;
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
    Object.assign(entry, { number: card.number, name: card.name, type: card.type, ref: null });
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
  if (!key) { show(_("Enter an API key to save to the service")); return; }
  const body = { name: $("deck-name").value.trim() || _("deck"), format: state.format,
    deck: deckText() };
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
    show(_("Saved as {id}", { id: saved.id }));
  } catch (err) {
    if (err.status === 412) {
      show(_("Someone else changed this deck since you loaded it: load it again from Saved decks, then reapply your change (your deck is kept here)"));
    } else {
      show(_("Could not save: {error}", { error: err.message }));
    }
  }
}

async function listSaved() {
  try {
    const decks = await api("GET", `/decks?format=${encodeURIComponent(state.format)}`);
    $("saved").innerHTML = "";
    for (const d of decks) {
      const li = document.createElement("li");
      li.append(button(d.name, _("Load saved deck {name}", { name: d.name }), async () => {
        const full = await api("GET", `/decks/${d.id}`);
        state.savedId = d.id;
        state.savedVersion = full.version;
        $("deck-name").value = d.name;
        await loadText(full.deck);
      }));
      $("saved").append(li);
    }
    if (!decks.length) show(_("No saved decks for this format"));
  } catch (err) {
    show(_("Could not list saved decks: {error}", { error: err.message }));
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
  $("clear").addEventListener("click", () => { state.entries = []; save(); renderDeck(); validateNow(); });
  $("export-text").addEventListener("click", () => exportAs("text"));
  $("export-json").addEventListener("click", () => exportAs("json"));
  $("export-csv").addEventListener("click", () => exportAs("csv"));
  $("load").addEventListener("click", () => loadText($("paste").value));
  $("save").addEventListener("click", saveToService);
  $("list-saved").addEventListener("click", listSaved);
  $("deal").addEventListener("click", () => deal(false));
  $("mulligan").addEventListener("click", () => deal(true));
  $("plot").addEventListener("click", plot);
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(STORE) || "null"); } catch (err) { kept = null; }
  if (kept && kept.format) {
    state.entries = kept.entries || [];
    state.savedId = kept.savedId || null;
    state.savedVersion = kept.savedVersion || null;
    chooseFormat(kept.format, true);
  } else {
    chooseFormat($("format").value, false);
  }
}

if (settleLanguage()) start();
