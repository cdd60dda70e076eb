// Clear, and Undo for a while: after a Clear, or after a pasted list, a shared link, a saved
// deck or a suggestion replaced the deck, the old deck can be had back.
import { $, input } from "./dom.js";
import { _n } from "./i18n.js";
import { chooseFormat } from "./format.js";
import { forgetOffending } from "./deckview.js";
import { settleLines } from "./paste.js";
import { commit, copiesOf, on, state } from "./store.js";

const UNDO_MS = 10000; // how long Clear can be undone

/**
 * @typedef {object} Snapshot the deck as it stood
 * @property {import("./store.js").Entry[]} entries
 * @property {string | null} format
 * @property {string | null} savedId
 * @property {number | null} savedVersion
 * @property {string} name the deck's name
 */

/** @type {{ undo: Snapshot | null, timer: ReturnType<typeof setTimeout> | undefined }} */
const pending = { undo: null, timer: undefined };

/**
 * The deck as it stands: what Undo gives back after a Clear, or after a pasted list, a shared
 * link or a saved deck replaced it.
 * @returns {Snapshot}
 */
export function deckSnapshot() {
  return { entries: state.entries, format: state.format, savedId: state.savedId,
    savedVersion: state.savedVersion, name: input("deck-name").value };
}

/**
 * Undo for UNDO_MS. An edit after it ends the offer: Undo would throw the new cards away.
 * @param {Snapshot} previous
 * @param {string} message
 */
export function offerUndo(previous, message) {
  pending.undo = previous;
  $("undo-text").textContent = message;
  $("undo-bar").hidden = false;
  clearTimeout(pending.timer);
  pending.timer = setTimeout(endUndo, UNDO_MS);
}

function clearDeck() {
  if (!state.entries.length) return;
  const copies = copiesOf(state.entries);
  const previous = deckSnapshot();
  state.entries = [];
  settleLines([]); // a pasted line's picker would pick for a line no longer in the deck
  forgetOffending(); // no card of the cleared deck is marked any more
  commit(true);
  offerUndo(previous, _n("Deck cleared ({n} card).", "Deck cleared ({n} cards).",
    copies, { n: copies }));
}

/** Another deck replaced one that had cards: the old deck can be had back. @param {Snapshot} previous */
export function offerUndoReplace(previous) {
  if (!previous.entries.length) return;
  const copies = copiesOf(previous.entries);
  offerUndo(previous, _n("Deck replaced (the old one had {n} card).",
    "Deck replaced (the old one had {n} cards).", copies, { n: copies }));
}

function endUndo() {
  clearTimeout(pending.timer);
  pending.undo = null;
  $("undo-bar").hidden = true;
}

/** The deck a Clear emptied or another deck replaced, back with its format and name. */
async function undoDeck() {
  const previous = pending.undo;
  if (!previous) return;
  endUndo();
  if (previous.format !== state.format && previous.format) await chooseFormat(previous.format, false);
  const { name, ...deck } = previous;
  Object.assign(state, deck);
  input("deck-name").value = name;
  settleLines([]); // the pasted lines' pickers belong to the deck undone
  commit(true);
}

/** Sets this part of the page going, once, when the page starts (builder.js). */
export function startUndo() {
  $("clear").addEventListener("click", clearDeck);
  $("undo").addEventListener("click", undoDeck);
  on("edit", endUndo); // a Clear is no longer undone once edited
}
