// The pasted lines a player has to settle, below the Load button: a name whose printings differ
// in what legality depends on offers them (with what tells them apart) to pick one; an unknown
// name offers the names the CLI would suggest. A name whose printings legality treats alike
// took the lowest number, as the CLI does: its other printings wait, folded, for a player who
// meant one of them (they differ in play: cost, node…).
import { api } from "./api.js";
import { $, button, errorText, show } from "./dom.js";
import { facts } from "./games.js";
import { _, _n } from "./i18n.js";
import { commit, entryOf, state } from "./store.js";

/** @typedef {import("./store.js").Card} Card */
/** @typedef {import("./store.js").Entry} Entry */
/** @typedef {import("./store.js").ResolvedLine} ResolvedLine */
/** @typedef {{ line?: number | null, message: string, fix?: string | null }} Problem */

// The unknown names with one suggestion: certain typos, which "Fix all certain typos" takes
// (as deckcheck fix does; a name found only without its spaces or quotes is already its card).
/** @type {[Entry, string, HTMLElement][]} */
let certainTypos = [];

/**
 * The lines to settle of a list just read: each deck line with the resolved line it came from.
 * @param {[Entry, ResolvedLine][]} pairs
 */
export function settleLines(pairs) {
  $("paste-lines").innerHTML = "";
  $("paste-printings").innerHTML = "";
  certainTypos = [];
  for (const [entry, line] of pairs) {
    const item = settleLine(entry, line);
    if (item) $(line.number ? "paste-printings" : "paste-lines").append(item);
    const suggestions = line.suggestions || [];
    if (item && !(line.printings || []).length && suggestions.length === 1) {
      certainTypos.push([entry, suggestions[0], item]);
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

/**
 * Each line the service could not read, first among the lines to settle: its number, what it
 * says (the line as written) and what was expected, as the CLI prints them (one parser).
 * @param {Problem[]} problems
 */
export function unreadLines(problems) {
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

/** @param {Entry} entry @param {ResolvedLine} line */
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
    const number = document.createElement("b");
    number.textContent = card.number;
    const told = document.createElement("span");
    told.className = "dim";
    told.textContent = facts(card);
    b.append(number, " ", told);
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

/**
 * The picked printing replaces the line's card (joining a line of that card in its section).
 * @param {Entry} entry
 * @param {Card} card
 * @param {HTMLElement} item
 */
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
  commit();
}

/**
 * A suggested name is read as the line would have been: one card, or its printings to pick.
 * @param {Entry} entry
 * @param {string} name
 * @param {HTMLElement} item
 */
async function takeSuggestion(entry, name, item) {
  const deck = `format: ${state.format}\n[${entry.section}]\n${entry.count} ${name}\n`;
  try {
    const resolved = await api("resolve", { body: { deck, format: state.format } });
    /** @type {ResolvedLine | undefined} */
    const line = resolved.entries[0];
    show("", "load");
    if (!line || !line.number && !line.printings.length) return;
    Object.assign(entry, entryOf({ ...line, section: entry.section, count: entry.count }));
    const next = line.printings.length ? settleLine(entry, line) : null;
    if (next) $(line.number ? "paste-printings" : "paste-lines").append(next);
    item.remove();
    tidyLines();
    commit();
  } catch (err) {
    show(_("Could not load the deck list: {error}", { error: errorText(err) }), "load");
  }
}

/** Sets this part of the page going, once, when the page starts (builder.js). */
export function startPaste() {
  $("fix-typos").addEventListener("click", fixCertainTypos);
}
