// The deck panel's tools: statistics (counts by type and card kind, the game's curve), Clear with
// Undo, a link that carries the deck (Share) and Copy. Loaded after builder.js, whose state,
// $, _, _n, api, show, save, renderDeck, deckText, typeName, gameSpecOf, copiesOf and loadText
// it uses.
// Which facts make the curve is the game's (GET /games "curve"); no game is named here.
"use strict";

const UNDO_MS = 10000; // how long Clear can be undone
const SHARE_KEY = "deck="; // the URL fragment a shared link carries
const deckTools = { undo: null, undoTimer: null, asking: new Set() };

// --- statistics ------------------------------------------------------------------------------

// A line's card facts: kept on the line when it came from a search or a pasted list (POST
// /resolve gives them); else (a deck kept by an older page, a suggestion taken) asked of the
// service once, then kept.
async function fetchFacts() {
  const game = state.info && state.info.game;
  const missing = state.entries.filter((e) => !e.facts && e.number && !deckTools.asking.has(e.number));
  if (!game || !missing.length) return false;
  const numbers = [...new Set(missing.map((e) => e.number))];
  numbers.forEach((n) => deckTools.asking.add(n));
  const found = await Promise.all(numbers.map((n) => api("GET",
    `/cards/${encodeURIComponent(game)}/${encodeURIComponent(n)}`).catch(() => null)));
  numbers.forEach((n) => deckTools.asking.delete(n));
  const byNumber = new Map(found.filter(Boolean).map((c) => [c.number, c]));
  for (const e of state.entries) if (!e.facts && byNumber.has(e.number)) e.facts = byNumber.get(e.number);
  save();
  return byNumber.size > 0;
}

function deckChanged() {
  renderStats();
  fetchFacts().then((more) => { if (more) renderStats(); }).catch(() => { /* shown as unknown */ });
}

// value → copies, over lines; a line without the value counts under null
function tally(lines, valueOf) {
  const out = new Map();
  for (const e of lines) {
    const v = valueOf(e);
    out.set(v, (out.get(v) || 0) + e.count);
  }
  return out;
}

async function renderStats() {
  let spec = { curve: [] };
  try { if (state.info) spec = await gameSpecOf(state.info.game); } catch (err) { show(err.message, "stats-panel"); }
  const select = $("stats-section");
  const names = sectionNames();
  const chosen = names.includes(select.value) ? select.value : names[0];
  select.innerHTML = "";
  for (const n of names) select.append(new Option(sectionLabel(n), n));
  select.value = chosen;
  const lines = state.entries.filter((e) => e.section === chosen && e.count > 0);
  const total = copiesOf(lines);
  $("stats-total").textContent = _n("{n} card", "{n} cards", total, { n: total });
  countTable($("stats-types"), tally(lines, (e) => e.type || null), (t) => typeName(t),
    _("(unknown)"));
  // each card's kind, where the game's cards have one
  const subs = tally(lines, (e) => (e.facts ? e.facts["kind"] || null : undefined));
  $("stats-sub-box").hidden = ![...subs.keys()].some((k) => k);
  countTable($("stats-sub"), subs, (k) => k, _("(none)"));
  const box = $("stats-curves");
  box.innerHTML = "";
  for (const fact of spec.curve) box.append(curveFigure(fact, lines));
}

// rows "name  count", most first; null: no such fact (named by ``none``); undefined: facts
// not known yet
function countTable(list, counts, nameOf, none) {
  list.innerHTML = "";
  const rows = [...counts].sort((a, b) => b[1] - a[1]);
  for (const [key, n] of rows) {
    const li = document.createElement("li");
    li.dataset.key = key == null ? "" : key;
    li.innerHTML = `<span class="name"></span> <span class="count"></span>`;
    li.querySelector(".name").textContent = key === undefined ? _("(not known yet)")
      : key === null ? none : nameOf(key);
    li.querySelector(".count").textContent = String(n);
    list.append(li);
  }
}

// A small bar chart: copies by value of one fact (whole numbers, every value from the least to
// the most shown, so gaps show), and how many copies lack the fact.
function curveFigure(fact, lines) {
  const figure = document.createElement("figure");
  figure.className = "curve";
  figure.dataset.fact = fact.name;
  const valueOf = (e) => {
    if (!e.facts) return undefined;
    const v = e.facts[fact.name];
    return typeof v === "number" ? v : null;
  };
  const counts = tally(lines, valueOf);
  const values = [...counts.keys()].filter((v) => typeof v === "number");
  const low = values.length ? Math.min(...values) : 0;
  const high = values.length ? Math.max(...values) : 0;
  const bars = [];
  for (let v = low; v <= high && values.length; v++) bars.push([v, counts.get(v) || 0]);
  const [w, h, foot, head] = [240, 120, 16, 14];
  const most = Math.max(1, ...bars.map(([, n]) => n));
  const step = (w - 8) / Math.max(1, bars.length);
  let out = `<line x1="4" y1="${h - foot}" x2="${w - 4}" y2="${h - foot}" class="axis"/>`;
  bars.forEach(([v, n], i) => {
    const height = (n / most) * (h - foot - head);
    const x = 4 + i * step + step * 0.15;
    const y = h - foot - height;
    out += `<rect class="bar" data-value="${v}" data-count="${n}" x="${x.toFixed(1)}" ` +
      `y="${y.toFixed(1)}" width="${(step * 0.7).toFixed(1)}" height="${height.toFixed(1)}" ` +
      `fill="#2563eb"><title>${v}: ${n}</title></rect>` +
      `<text class="tick" x="${(x + step * 0.35).toFixed(1)}" y="${h - 4}" text-anchor="middle">${v}</text>` +
      (n ? `<text class="tick" x="${(x + step * 0.35).toFixed(1)}" y="${(y - 3).toFixed(1)}" ` +
        `text-anchor="middle">${n}</text>` : "");
  });
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("role", "img");
  svg.classList.add("chart");
  svg.setAttribute("aria-label", _("Copies by {fact}", { fact: fact.label }));
  svg.innerHTML = out;
  const caption = document.createElement("figcaption");
  caption.className = "dim";
  const without = counts.get(null) || 0;
  const unknown = counts.get(undefined) || 0;
  caption.textContent = [_("Copies by {fact}", { fact: fact.label }),
    without ? _n("{n} copy without it", "{n} copies without it", without, { n: without }) : "",
    unknown ? _n("{n} copy not known yet", "{n} copies not known yet", unknown, { n: unknown }) : "",
  ].filter(Boolean).join(" · ");
  figure.append(svg, caption);
  return figure;
}

// --- Clear, and Undo for a while -------------------------------------------------------------

// The deck as it stands: what Undo gives back after a Clear, or after a pasted list, a shared
// link or a saved deck replaced it.
function deckSnapshot() {
  return { entries: state.entries, format: state.format, savedId: state.savedId,
    savedVersion: state.savedVersion, name: $("deck-name").value };
}

// Undo for UNDO_MS. An edit after it ends the offer: Undo would throw the new cards away.
function offerUndo(previous, message) {
  deckTools.undo = previous;
  $("undo-text").textContent = message;
  $("undo-bar").hidden = false;
  clearTimeout(deckTools.undoTimer);
  deckTools.undoTimer = setTimeout(endUndo, UNDO_MS);
}

function clearDeck() {
  if (!state.entries.length) return;
  const copies = copiesOf(state.entries);
  const previous = deckSnapshot();
  state.entries = [];
  settleLines([]); // a pasted line's picker would pick for a line no longer in the deck
  save();
  renderDeck(new Set());
  validateNow();
  offerUndo(previous, _n("Deck cleared ({n} card).", "Deck cleared ({n} cards).",
    copies, { n: copies }));
}

// Another deck replaced one that had cards: the old deck can be had back.
function offerUndoReplace(previous) {
  if (!previous.entries.length) return;
  const copies = copiesOf(previous.entries);
  offerUndo(previous, _n("Deck replaced (the old one had {n} card).",
    "Deck replaced (the old one had {n} cards).", copies, { n: copies }));
}

function endUndo() {
  clearTimeout(deckTools.undoTimer);
  deckTools.undo = null;
  $("undo-bar").hidden = true;
}

// The deck a Clear emptied or another deck replaced, back with its format and name.
async function undoDeck() {
  const previous = deckTools.undo;
  if (!previous) return;
  endUndo();
  if (previous.format !== state.format) await chooseFormat(previous.format, false);
  const { name, ...deck } = previous;
  Object.assign(state, deck);
  $("deck-name").value = name;
  settleLines([]); // the pasted lines' pickers belong to the deck undone
  save();
  renderDeck();
  validateNow();
}

// --- Share and Copy --------------------------------------------------------------------------

// UTF-8 text ↔ base64url (the fragment stays one opaque word)
function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(word) {
  const binary = atob(word.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

// The deck a shared link carries ({text, name}), or null.
function sharedDeck() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const word = fragment.get(SHARE_KEY.slice(0, -1));
  if (!word) return null;
  try {
    return { text: fromBase64Url(word), name: fragment.get("name") || "" };
  } catch (err) {
    show(_("This link's deck cannot be read"), "deck-panel");
    return null;
  }
}

// Open a shared deck: its format, its cards; the fragment is then dropped from the address,
// so a reload keeps the edits made since (the page keeps the deck itself).
async function openShared(shared) {
  const previous = deckSnapshot();
  if (shared.name) $("deck-name").value = shared.name;
  await loadText(shared.text, previous);
  if (!state.info) await chooseFormat($("format").value, false);
  history.replaceState(null, "", location.pathname + location.search);
}

function shareLink() {
  const name = $("deck-name").value.trim();
  const fragment = SHARE_KEY + toBase64Url(deckText()) + (name ? "&name=" + encodeURIComponent(name) : "");
  return `${location.origin}${location.pathname}#${fragment}`;
}

async function toClipboard(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (err) {
    return false;
  }
}

async function share() {
  if (!state.entries.length) { show(_("Add cards first: an empty deck has nothing to share"), "share"); return; }
  const link = shareLink();
  history.replaceState(null, "", link);
  $("share-link").value = link;
  $("share-box").hidden = false;
  $("share-note").textContent = (await toClipboard(link)) ? _("Link copied to the clipboard.")
    : _("Copy the link above.");
}

async function copyText() {
  const copied = await toClipboard(deckText(true));
  $("share-box").hidden = true;
  if (copied) show("", "copy");
  else show(_("The clipboard is not available here: use Export text"), "copy");
  $("copy-note").textContent = copied ? _("Deck list copied to the clipboard.") : "";
}

function startDeck() {
  $("undo").addEventListener("click", undoDeck);
  $("share").addEventListener("click", share);
  $("copy").addEventListener("click", copyText);
  $("share-link").addEventListener("focus", (ev) => ev.target.select());
  $("stats-section").addEventListener("change", renderStats);
  const group = $("group-by-type");
  try { group.checked = localStorage.getItem("deckcheck.builder.group") === "1"; } catch (err) { /* private mode */ }
  group.addEventListener("change", () => {
    try { localStorage.setItem("deckcheck.builder.group", group.checked ? "1" : "0"); } catch (err) { /* private mode */ }
    renderDeck();
  });
}
