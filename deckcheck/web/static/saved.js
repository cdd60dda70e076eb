// Decks saved in the service (POST/PUT/GET /decks), under an API key.
import { ApiError, api } from "./api.js";
import { $, button, errorText, input, select, show } from "./dom.js";
import { _ } from "./i18n.js";
import { loadText } from "./exchange.js";
import { deckText, save, state } from "./store.js";
import { deckSnapshot } from "./undo.js";

/** @typedef {{ id: string, name: string, yours: boolean }} SavedDeck a deck of GET /decks */

async function saveToService() {
  const key = input("api-key").value.trim();
  if (!key) { show(_("Enter an API key to save to the service"), "save"); return; }
  const body = { name: input("deck-name").value.trim() || _("deck"), format: state.format,
    deck: deckText(), visibility: select("visibility").value };
  const auth = { Authorization: `Bearer ${key}` };
  try {
    // If-Match: the version this page loaded, so another writer's change is never overwritten
    const saved = state.savedId
      ? await api("saveDeck", { params: { deck_id: state.savedId }, body,
        headers: { ...auth, "If-Match": `"${state.savedVersion || 0}"` } })
      : await api("newDeck", { body, headers: auth });
    state.savedId = saved.id;
    state.savedVersion = saved.version;
    save();
    show(_("Saved as {id}", { id: saved.id }), "save");
  } catch (err) {
    if (err instanceof ApiError && err.status === 412) {
      show(_("Someone else changed this deck since you loaded it: load it again from Saved decks, then reapply your change (your deck is kept here)"), "save");
    } else {
      show(_("Could not save: {error}", { error: errorText(err) }), "save");
    }
  }
}

async function listSaved() {
  // with a key: its own decks and the public ones; without: the public ones
  const key = input("api-key").value.trim();
  /** @type {Record<string, string>} */
  const auth = key ? { Authorization: `Bearer ${key}` } : {};
  try {
    /** @type {SavedDeck[]} */
    const decks = await api("decks", { query: { format: state.format || "" }, headers: auth });
    $("saved").innerHTML = "";
    for (const d of decks) {
      const li = document.createElement("li");
      const label = d.yours ? d.name : _("{name} (another key's)", { name: d.name });
      li.append(button(label, _("Load saved deck {name}", { name: d.name }), async () => {
        const full = await api("deck", { params: { deck_id: d.id }, headers: auth });
        const previous = deckSnapshot();
        // only the owner's key saves over it: a deck of another key is saved as a new one
        state.savedId = d.yours ? d.id : null;
        state.savedVersion = full.version;
        input("deck-name").value = d.name;
        select("visibility").value = full.visibility;
        await loadText(full.deck, previous);
      }));
      $("saved").append(li);
    }
    if (!decks.length) show(_("No saved decks for this format"), "list-saved");
  } catch (err) {
    show(_("Could not list saved decks: {error}", { error: errorText(err) }), "list-saved");
  }
}

/** Sets this part of the page going, once, when the page starts (builder.js). */
export function startSaved() {
  $("save").addEventListener("click", saveToService);
  $("list-saved").addEventListener("click", listSaved);
}
