// A deck in and out of the page: exported as text, JSON or CSV, and read from a pasted list,
// a shared link or a saved deck (POST /resolve, which reads any of them as the CLI does).
import { api } from "./api.js";
import { $, download, errorText, input, show, textarea } from "./dom.js";
import { _, _n } from "./i18n.js";
import { chooseFormat } from "./format.js";
import { settleLines, unreadLines } from "./paste.js";
import { commit, deckText, entryOf, replacing, sectionNames, state } from "./store.js";
import { deckSnapshot, offerUndoReplace } from "./undo.js";
import { checking, scheduleValidate } from "./verdict.js";

/** @typedef {import("./undo.js").Snapshot} Snapshot */

/**
 * A cell a spreadsheet would run as a formula gets a single quote in front (OWASP "CSV
 * injection"), as deckcheck.csvsafe does; so does one that starts with a quote and one of
 * those, so that reading our CSV back (which drops one such quote) gives what was written.
 * @param {string} v
 */
function safeCell(v) {
  return /^[=+\-@\t\r]/.test(v) || /^'[=+\-@\t\r']/.test(v) ? `'${v}` : v;
}

/**
 * A file name from the deck's name and format: letters, digits and - _ . kept, any other run
 * of characters one "-" (a name no system refuses).
 * @param {string} extension
 */
function fileName(extension) {
  const name = (input("deck-name").value.trim() || "deck").replace(/[^\p{L}\p{N}._-]+/gu, "-")
    .replace(/^[-.]+|-+$/g, "") || "deck";
  return `${name}-${state.format}.${extension}`;
}

/** @param {"text" | "json" | "csv"} fileType */
function exportAs(fileType) {
  if (fileType === "text") return download(fileName("deck"), deckText(true), "text/plain");
  if (fileType === "json") {
    /** @type {Record<string, unknown>} */
    const data = { format: state.format };
    for (const s of sectionNames()) {
      const rows = state.entries.filter((e) => e.section === s);
      if (rows.length) data[s] = rows.map((e) => ({ count: e.count, card: e.number || e.ref }));
    }
    return download(fileName("json"), JSON.stringify(data, null, 2), "application/json");
  }
  /** @param {string} v */
  const quote = (v) => /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
  const rows = [`# format: ${state.format}`, "section,count,number,name",
    ...state.entries.map((e) => [e.section, e.count, e.number || "", e.name || e.ref || ""]
      .map(String).map(safeCell).map(quote).join(","))];
  return download(fileName("csv"), rows.join("\n") + "\n", "text/csv");
}

/**
 * A deck list (text or JSON) in place of the shown deck; every step that reads the deck waits
 * for it (store.settled).
 * @param {string} text
 * @param {Snapshot} [previous] the deck Undo gives back, when the caller changed some of it first
 */
export function loadText(text, previous = deckSnapshot()) {
  return replacing(readText(text, previous));
}

/** @param {string} text @param {Snapshot} previous */
async function readText(text, previous) {
  checking();
  try {
    const resolved = await api("resolve", { body: { deck: text, format: null } }).catch(
      () => api("resolve", { body: { deck: text, format: state.format } }));
    if (resolved.format !== state.format) await chooseFormat(resolved.format, false);
    /** @type {import("./store.js").ResolvedLine[]} */
    const lines = resolved.entries;
    state.entries = lines.map(entryOf);
    commit();
    settleLines(lines.map((e, i) => [state.entries[i], e]));
    unreadLines(resolved.problems);
    offerUndoReplace(previous);
    const unread = resolved.problems.length;
    show(unread ? _n("{n} line could not be read", "{n} lines could not be read", unread,
      { n: unread }) : "", "load");
  } catch (err) {
    show(_("Could not load the deck list: {error}", { error: errorText(err) }), "load");
    scheduleValidate(); // the shown deck stays: its verdict comes back
  }
}

/** Sets this part of the page going, once, when the page starts (builder.js). */
export function startExchange() {
  for (const [id, fileType] of /** @type {const} */ ([["export-text", "text"],
    ["export-json", "json"], ["export-csv", "csv"]])) {
    $(id).addEventListener("click", () => exportAs(fileType));
  }
  $("load").addEventListener("click", () => loadText(textarea("paste").value));
}
