// Choosing a format: its rules (GET /formats/{id}), its game's filters and types, then the deck
// drawn, checked and searched again under them.
import { api } from "./api.js";
import { $, errorText, select, show } from "./dom.js";
import { gameSpecOf, typeName } from "./games.js";
import { _ } from "./i18n.js";
import { renderDeck } from "./deckview.js";
import { restoreOdds } from "./odds.js";
import { renderFilters, scheduleSearch } from "./search.js";
import { emit, formatTypes, param, save, state } from "./store.js";
import { scheduleValidate } from "./verdict.js";

// Each choice of format is numbered: a choice made while an earlier one still loads (the
// page's first format, asked at start, and the user's pick a moment later) wins, and the
// earlier one stops at its next await instead of laying its game's filters over the later
// one's (a fresh-clone test run found the filters of the start-up format under the chosen
// one, issue 38).
let formatSeq = 0;

/**
 * @param {string} id the format's id
 * @param {boolean} keepEntries the deck's lines stay (else the deck starts empty)
 */
export async function chooseFormat(id, keepEntries) {
  const seq = ++formatSeq;
  state.format = id;
  select("format").value = id;
  // a new format's deck starts empty now, not once its format is in: a card added meanwhile
  // (the search already answers for the new game) was wiped when the format came back
  if (!keepEntries) { state.entries = []; state.savedId = null; state.savedVersion = null; }
  let info;
  try {
    info = await api("format", { params: { format_id: id } });
  } catch (err) {
    if (seq === formatSeq) show(_("Could not load the format: {error}", { error: errorText(err) }), "format");
    return;
  }
  if (seq !== formatSeq) return;
  state.info = info;
  try {
    const spec = await gameSpecOf(info.game);
    if (seq !== formatSeq) return;
    renderFilters(spec);
  } catch (err) {
    if (seq !== formatSeq) return;
    show(_("Could not load the search filters: {error}", { error: errorText(err) }), "format");
  }
  const types = select("type");
  types.innerHTML = "";
  types.append(new Option(_("any"), ""));
  for (const t of formatTypes()) types.append(new Option(typeName(t), t));
  $("mulligan").hidden = (param("mulligan") || "none") === "none";
  emit("format"); // the playtester puts away another format's game
  save();
  renderDeck();
  restoreOdds();
  scheduleValidate();
  scheduleSearch();
}

