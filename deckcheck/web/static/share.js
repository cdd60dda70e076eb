// Share (a link that carries the deck in its fragment: nothing is stored) and Copy (the deck
// list to the clipboard).
import { $, input, select, show } from "./dom.js";
import { _ } from "./i18n.js";
import { chooseFormat } from "./format.js";
import { loadText } from "./exchange.js";
import { deckText, state } from "./store.js";
import { deckSnapshot } from "./undo.js";

const SHARE_KEY = "deck="; // the URL fragment a shared link carries

/** UTF-8 text → base64url (the fragment stays one opaque word). @param {string} text */
function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** base64url → UTF-8 text. @param {string} word */
function fromBase64Url(word) {
  const binary = atob(word.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** @typedef {{ text: string, name: string }} SharedDeck */

/** The deck a shared link carries, or null. @returns {SharedDeck | null} */
export function sharedDeck() {
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

/**
 * Open a shared deck: its format, its cards; the fragment is then dropped from the address,
 * so a reload keeps the edits made since (the page keeps the deck itself).
 * @param {SharedDeck} shared
 */
export async function openShared(shared) {
  const previous = deckSnapshot();
  if (shared.name) input("deck-name").value = shared.name;
  await loadText(shared.text, previous);
  if (!state.info) await chooseFormat(select("format").value, false);
  history.replaceState(null, "", location.pathname + location.search);
}

function shareLink() {
  const name = input("deck-name").value.trim();
  const fragment = SHARE_KEY + toBase64Url(deckText()) + (name ? "&name=" + encodeURIComponent(name) : "");
  return `${location.origin}${location.pathname}#${fragment}`;
}

/** Whether the text went to the clipboard. @param {string} text */
async function toClipboard(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (err) {
    return false; // refused (no permission, an insecure page): not copied
  }
}

async function share() {
  if (!state.entries.length) { show(_("Add cards first: an empty deck has nothing to share"), "share"); return; }
  const link = shareLink();
  history.replaceState(null, "", link);
  input("share-link").value = link;
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

/** Sets this part of the page going, once, when the page starts (builder.js). */
export function startShare() {
  $("share").addEventListener("click", share);
  $("copy").addEventListener("click", copyText);
  input("share-link").addEventListener("focus", () => input("share-link").select());
}
