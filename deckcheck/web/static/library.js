// My decks (issue 32, item 2): any number of decks kept in this browser (IndexedDB), no key
// needed; each save is a version, two versions show what changed as `deckcheck diff` prints
// it. Export and import all as one JSON file.
import { api } from "./api.js";
import { $, button, download, errorText, input, select, show } from "./dom.js";
import { LANG, _, _n } from "./i18n.js";
import { chooseFormat } from "./format.js";
import { deckText, settled, state } from "./store.js";
import { checking } from "./verdict.js";

/** @typedef {import("./store.js").Entry} Entry */
/** @typedef {{ legal: boolean, errors: number }} Verdict */
/**
 * @typedef {object} Version a saved version of a library deck
 * @property {string} at when, as ISO 8601
 * @property {string} format
 * @property {string} name
 * @property {string} text
 * @property {Entry[]} entries
 * @property {Verdict} verdict
 */
/**
 * @typedef {object} LibraryDeck
 * @property {string} id
 * @property {Version[]} versions
 * @property {string} [name]
 * @property {string} [format]
 * @property {Verdict} [verdict]
 * @property {string} [updated]
 */

const LIB_DB = "deckcheck-library";
const LIB_FILE = "deckcheck-library"; // what an exported file says it is
/** @type {{ db: Promise<IDBDatabase> | null, open: string | null }} open: the library deck the page's deck came from */
const library = { db: null, open: null };

/** @returns {Promise<IDBDatabase>} */
function libraryDb() {
  if (library.db) return library.db;
  library.db = new Promise((resolve, reject) => {
    const request = indexedDB.open(LIB_DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore("decks", { keyPath: "id" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return library.db;
}

/**
 * One transaction on the decks: fn(store) asks; resolves with the last request's result.
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest | undefined} fn
 * @returns {Promise<any>}
 */
async function withDecks(mode, fn) {
  const db = await libraryDb();
  return new Promise((resolve, reject) => {
    const tx = db.transaction("decks", mode);
    const request = fn(tx.objectStore("decks"));
    tx.oncomplete = () => resolve(request ? request.result : undefined);
    tx.onerror = () => reject(tx.error);
  });
}

/** @returns {Promise<LibraryDeck[]>} */
const allDecks = () => withDecks("readonly", (s) => s.getAll());
/** @param {LibraryDeck} deck */
const putDeck = (deck) => withDecks("readwrite", (s) => s.put(deck));

// The verdict of the deck as it stands, asked of the service for the version being saved.
/** @returns {Promise<Verdict>} */
async function verdictNow() {
  /** @type {import("./verdict.js").Report} */
  const report = await api("validate", { body: { deck: deckText() } });
  const errors = report.violations.filter((v) => v.severity === "error").length;
  return { legal: report.legal, errors };
}

/** @param {Verdict | undefined} v */
function verdictText(v) {
  if (!v) return "";
  return v.legal ? _("LEGAL")
    : _n("ILLEGAL — {n} error", "ILLEGAL — {n} errors", v.errors, { n: v.errors });
}

/** @param {Entry[]} entries */
function sectionCounts(entries) {
  /** @type {Record<string, number>} */
  const counts = {};
  for (const e of entries) counts[e.section] = (counts[e.section] || 0) + e.count;
  return counts;
}

/**
 * Saves the page's deck as a new version of the library deck it came from (or of a new one).
 * @param {boolean} asNew
 */
async function saveVersion(asNew) {
  await settled();
  if (!state.entries.length) { show(_("Add cards first: an empty deck is not saved"), "lib-save"); return; }
  let verdict;
  try { verdict = await verdictNow(); } catch (err) {
    show(_("Could not check the deck: {error}", { error: errorText(err) }), "lib-save");
    return;
  }
  const decks = await allDecks();
  let deck = !asNew && library.open ? decks.find((d) => d.id === library.open) : undefined;
  const name = input("deck-name").value.trim() || _("deck");
  if (!deck) deck = { id: crypto.randomUUID(), versions: [] };
  const at = new Date().toISOString();
  deck.versions.push({ at, format: state.format || "", name, text: deckText(true),
    entries: state.entries.map((e) => ({ ...e })), verdict });
  Object.assign(deck, { name, format: state.format || "", verdict, updated: at });
  await putDeck(deck);
  library.open = deck.id;
  show(_("Saved version {n} of {name} in this browser", { n: deck.versions.length, name }), "lib-save");
  await renderLibrary();
}

/** @param {string} id @param {number} [version] the latest if none */
async function openDeck(id, version) {
  const deck = (await allDecks()).find((d) => d.id === id);
  if (!deck) return;
  const v = deck.versions[version === undefined ? deck.versions.length - 1 : version];
  state.entries = v.entries.map((e) => ({ ...e }));
  state.savedId = null;
  state.savedVersion = null;
  checking(); // the shown deck and its verdict are the last one's until the format is in
  input("deck-name").value = v.name;
  library.open = id;
  await chooseFormat(v.format, true);
}

// --- the list, the versions and their difference ------------------------------------------------

async function renderLibrary() {
  let decks;
  try { decks = await allDecks(); } catch (err) {
    show(_("This browser keeps no local decks: {error}", { error: String(err) }), "lib-save");
    return;
  }
  decks.sort((a, b) => ((a.updated || "") < (b.updated || "") ? 1 : -1));
  const list = $("lib-list");
  list.innerHTML = "";
  for (const d of decks) {
    const li = document.createElement("li");
    li.dataset.id = d.id;
    const text = document.createElement("span");
    text.className = "name";
    text.textContent = _("{name} · {format_id} · {verdict} · {when}", { name: d.name,
      format_id: d.format, verdict: verdictText(d.verdict), when: new Date(d.updated || 0).toLocaleString(LANG) });
    li.append(text,
      button(_("Open"), _("Open {name}", { name: d.name }), () => openDeck(d.id)),
      button(_("Versions"), _("Versions of {name}", { name: d.name }), () => showVersions(d.id)));
    list.append(li);
  }
  $("lib-empty").hidden = decks.length > 0;
}

/** @param {string} id */
async function showVersions(id) {
  const deck = (await allDecks()).find((d) => d.id === id);
  if (!deck) return;
  $("lib-versions").hidden = false;
  $("lib-versions").dataset.id = id;
  $("lib-versions-title").textContent = _("Versions of {name}", { name: deck.name });
  for (const [id, pick] of /** @type {const} */ ([["lib-a", deck.versions.length - 2], ["lib-b", deck.versions.length - 1]])) {
    const menu = select(id);
    menu.innerHTML = "";
    deck.versions.forEach((v, k) => menu.append(new Option(
      _("Version {n} · {when} · {verdict}", { n: k + 1, when: new Date(v.at).toLocaleString(LANG),
        verdict: verdictText(v.verdict) }), String(k))));
    menu.value = String(Math.max(0, pick));
  }
  $("lib-diff-out").textContent = "";
}

/**
 * What changed between two versions, per section, in the lines `deckcheck diff` prints: the
 * cards whose count changed ("+2 name (number)  0 → 2"), then each version's verdict.
 * @param {Version} a
 * @param {Version} b
 */
function diffLines(a, b) {
  /** @param {Entry} e */
  const key = (e) => e.number || e.ref || e.name || "";
  const lines = [];
  const sections = [...new Set([...a.entries, ...b.entries].map((e) => e.section))];
  for (const section of sections) {
    /** @type {Map<string, number>} */
    const before = new Map();
    /** @type {Map<string, number>} */
    const after = new Map();
    /** @type {Map<string, Entry>} */
    const names = new Map();
    for (const [side, rows] of /** @type {[Map<string, number>, Entry[]][]} */ ([[before, a.entries], [after, b.entries]])) {
      for (const e of rows.filter((x) => x.section === section)) {
        side.set(key(e), (side.get(key(e)) || 0) + e.count);
        names.set(key(e), e);
      }
    }
    const changed = [...new Set([...before.keys(), ...after.keys()])]
      .filter((k) => (before.get(k) || 0) !== (after.get(k) || 0));
    if (!changed.length) continue;
    lines.push(`[${section}]`);
    for (const k of changed) {
      const was = before.get(k) || 0;
      const now = after.get(k) || 0;
      const e = /** @type {Entry} */ (names.get(k));
      const number = e.number && e.number !== e.name ? ` (${e.number})` : "";
      lines.push(`  ${now > was ? "+" : "-"}${Math.abs(now - was)} ${e.name || k}${number}  ${was} → ${now}`);
    }
  }
  if (!lines.length) lines.push(_("no card changes"));
  for (const [mark, v] of /** @type {[string, Version][]} */ ([["A", a], ["B", b]])) {
    const counts = Object.entries(sectionCounts(v.entries)).map(([s, n]) => `${s} ${n}`).join(", ");
    const line = _("{format_id} {verdict} ({counts})",
      { format_id: v.format, verdict: verdictText(v.verdict), counts });
    lines.push(`${mark}: ${line}`);
  }
  return lines;
}

async function showDiff() {
  const deck = (await allDecks()).find((d) => d.id === $("lib-versions").dataset.id);
  if (!deck) return;
  const a = deck.versions[Number(select("lib-a").value)];
  const b = deck.versions[Number(select("lib-b").value)];
  $("lib-diff-out").textContent = diffLines(a, b).join("\n");
}

// --- one file for all of them ----------------------------------------------------------------------

async function exportLibrary() {
  const decks = await allDecks();
  download("deckcheck-decks.json", JSON.stringify({ library: LIB_FILE, version: 1, decks }, null, 2),
    "application/json");
}

/** @param {File} file */
async function importLibrary(file) {
  /** @type {any} */
  let data;
  try { data = JSON.parse(await file.text()); } catch (err) { data = null; }
  const good = data && data.library === LIB_FILE && Array.isArray(data.decks) &&
    data.decks.every((/** @type {any} */ d) => d && typeof d.id === "string" && Array.isArray(d.versions) &&
      d.versions.length && d.versions.every((/** @type {any} */ v) => Array.isArray(v.entries) && v.format));
  if (!good) {
    show(_("{file} is not a deckcheck deck library file", { file: file.name }), "lib-import");
    return;
  }
  await withDecks("readwrite", (s) => {
    /** @type {IDBRequest | undefined} */
    let last;
    for (const d of data.decks) last = s.put(d);
    return last;
  });
  show(_n("{n} deck imported", "{n} decks imported", data.decks.length, { n: data.decks.length }), "lib-import");
  await renderLibrary();
}

/** Sets this part of the page going, once, when the page starts (builder.js). */
export function startLibrary() {
  $("lib-save").addEventListener("click", () => saveVersion(false));
  $("lib-save-new").addEventListener("click", () => saveVersion(true));
  $("lib-diff").addEventListener("click", showDiff);
  $("lib-export").addEventListener("click", exportLibrary);
  const chooser = input("lib-import");
  chooser.addEventListener("change", () => {
    const file = chooser.files ? chooser.files[0] : undefined;
    if (file) importLibrary(file).finally(() => { chooser.value = ""; });
  });
  renderLibrary();
}
