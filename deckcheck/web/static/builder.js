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

function show(message) {
  const box = $("message");
  box.textContent = message;
  box.hidden = !message;
}

async function api(method, path, body, headers) {
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
  if (response.status === 204) return null;
  const type = response.headers.get("content-type") || "";
  return type.includes("json") ? response.json() : response.text();
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
  const total = rows.reduce((n, e) => n + e.count, 0);
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
      heading.textContent = `${typeName(type) || _("(unknown)")} (${lines.reduce((n, e) => n + e.count, 0)})`;
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
function scheduleValidate() {
  clearTimeout(validateTimer);
  validateTimer = setTimeout(validateNow, 150);
}

async function validateNow() {
  if (!state.entries.length) {
    $("verdict").textContent = "—";
    $("verdict").className = "";
    $("errors").innerHTML = $("warnings").innerHTML = "";
    return;
  }
  try {
    const report = await api("POST", "/validate", { deck: deckText() });
    show("");
    const errors = report.violations.filter((v) => v.severity === "error");
    const warnings = report.violations.filter((v) => v.severity === "warning");
    $("verdict").textContent = report.legal ? _("LEGAL")
      : _n("ILLEGAL — {n} error", "ILLEGAL — {n} errors", errors.length, { n: errors.length });
    $("verdict").className = report.legal ? "legal" : "illegal";
    fill($("errors"), errors);
    fill($("warnings"), warnings);
    $("assumptions").innerHTML = "";
    for (const a of report.assumptions) {
      const li = document.createElement("li");
      li.textContent = _("assumption: {text}", { text: a });
      $("assumptions").append(li);
    }
    renderDeck(new Set(errors.flatMap((v) => v.cards.map((c) => c.number)).filter(Boolean)));
  } catch (err) {
    show(_("Could not check the deck: {error}", { error: err.message }));
  }
}

function fill(list, violations) {
  list.innerHTML = "";
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

async function searchNow() {
  const seq = ++searchSeq;
  // one more than a page: whether there is a next page
  const params = new URLSearchParams({ game: state.info.game, limit: String(PAGE + 1),
    offset: String(state.offset) });
  for (const [id, key] of [["q", "q"], ["type", "type"]]) {
    if ($(id).value.trim()) params.set(key, $(id).value.trim());
  }
  for (const input of $("game-filters").querySelectorAll("[data-param]")) {
    if (input.value.trim()) params.set(input.dataset.param, input.value.trim());
  }
  try {
    const found = await api("GET", "/cards?" + params);
    if (seq !== searchSeq) return; // a newer search is under way: its answer wins
    show("");
    const cards = found.slice(0, PAGE);
    const list = $("results");
    list.innerHTML = "";
    for (const card of cards) {
      const item = document.createElement("li");
      item.tabIndex = 0;
      item.dataset.number = card.number;
      item.innerHTML = `<span class="name"></span> <span class="number dim"></span>
        <span class="meta dim"></span>`;
      item.querySelector(".name").textContent = card.name;
      item.querySelector(".number").textContent = card.number;
      item.querySelector(".meta").textContent = facts(card);
      item.append(button("+", _("Add {number}", { number: card.number }), () => change(card, +1)),
        button("−", _("Remove {number}", { number: card.number }), () => change(card, -1)));
      item.addEventListener("keydown", (ev) => keyEdit(ev, card));
      list.append(item);
    }
    $("page-info").textContent = cards.length
      ? `${state.offset + 1}–${state.offset + cards.length}` : _("no cards found");
    $("prev").disabled = state.offset === 0;
    $("next").disabled = found.length <= PAGE;
  } catch (err) {
    if (seq === searchSeq) show(_("Search failed: {error}", { error: err.message }));
  }
}

// What tells printings of one name apart: type, kind, level, cost, keywords, then the game's own
// columns its spec marks for the summary (GET /games lists them).
function facts(card) {
  const out = [typeName(card.type), card.kind];
  if (card.level != null) out.push(_("Lv{level}", { level: card.level }));
  if (card.cost != null) out.push(_("cost {cost}", { cost: card.cost }));
  if (card.keywords && card.keywords.length) out.push(card.keywords.join(" / "));
  for (const column of summaryColumns) {
    const value = card[column.name];
    if (value == null || (Array.isArray(value) && !value.length)) continue;
    out.push(`${column.short} ${Array.isArray(value) ? value.join(", ") : value}`);
  }
  return out.filter(Boolean).join(" · ");
}

// The chosen game's filters, as GET /games lists them (the type menu is always there).
let gameList = null;
let summaryColumns = [];
let typeWords = {};

// A card type as the page shows it: in Japanese, the game's own printed word (GET /games
// lists them); in English, its id.
function typeName(type) {
  const words = typeWords[type];
  return LANG === "ja" && words && words.length ? words[0] : type;
}

async function renderFilters(game) {
  if (!gameList) gameList = await api("GET", "/games");
  const spec = gameList.find((g) => g.id === game) || { filters: [], columns: [] };
  summaryColumns = (spec.columns || []).filter((c) => c.summary);
  typeWords = spec.card_types || {};
  const root = $("game-filters");
  root.innerHTML = "";
  for (const f of spec.filters) {
    if (f.param === "type") continue;
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
    root.append(label, input);
  }
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

async function loadText(text) {
  try {
    const resolved = await api("POST", "/resolve", { deck: text, format: null }).catch(
      () => api("POST", "/resolve", { deck: text, format: state.format }));
    if (resolved.format !== state.format) await chooseFormat(resolved.format, false);
    state.entries = resolved.entries.map((e) => ({ section: e.section, count: e.count,
      number: e.number, ref: e.ref, name: e.name, type: e.type }));
    save();
    renderDeck();
    scheduleValidate();
    const unread = resolved.problems.length;
    show(unread ? _n("{n} line could not be read", "{n} lines could not be read", unread,
      { n: unread }) : "");
  } catch (err) {
    show(_("Could not load the deck list: {error}", { error: err.message }));
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
  $("clear").addEventListener("click", clearDeck);
  $("export-text").addEventListener("click", () => exportAs("text"));
  $("export-json").addEventListener("click", () => exportAs("json"));
  $("export-csv").addEventListener("click", () => exportAs("csv"));
  $("load").addEventListener("click", () => loadText($("paste").value));
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
