// deckcheck deck builder: edits a list of cards and shows what the service says about it.
// No rules live here: legality, hands and odds come from /validate, /hand and /odds.
// The page's one entry module: it starts each part (each in its own module, all following the
// deck store, store.js) and brings back the deck this browser kept or a shared link carries.
import { startCompare } from "./compare.js";
import { startDetails } from "./details.js";
import { select } from "./dom.js";
import { startDeckView } from "./deckview.js";
import { startExchange } from "./exchange.js";
import { chooseFormat } from "./format.js";
import { settleLanguage, switchLanguage } from "./i18n.js";
import { startLibrary } from "./library.js";
import { startOdds } from "./odds.js";
import { startPaste } from "./paste.js";
import { startSummary } from "./phone.js";
import { startPlaytest } from "./playtest.js";
import { startSaved } from "./saved.js";
import { startSearch } from "./search.js";
import { openShared, sharedDeck, startShare } from "./share.js";
import { startStats } from "./stats.js";
import { kept, state } from "./store.js";
import { startSuggest } from "./suggest.js";
import { startUndo } from "./undo.js";
import { startVerdict } from "./verdict.js";
import { startWatch } from "./watch.js";

function start() {
  for (const b of document.querySelectorAll("#language button")) {
    if (!(b instanceof HTMLElement)) continue;
    b.addEventListener("click", () => switchLanguage(b.dataset.lang || "en"));
  }
  // each change of the deck's lines: drawn, then checked (store.commit)
  startDeckView();
  startVerdict();
  for (const part of [startSearch, startExchange, startPaste, startSaved, startOdds, startUndo,
    startShare, startStats, startCompare, startWatch, startPlaytest, startLibrary, startSummary,
    startDetails, startSuggest]) part();
  select("format").addEventListener("change", () => chooseFormat(select("format").value, false));
  const deck = kept();
  const shared = sharedDeck(); // a link made with "Share": its deck wins over the kept one
  if (shared) {
    openShared(shared);
  } else if (deck && deck.format) {
    state.entries = deck.entries || [];
    state.savedId = deck.savedId || null;
    state.savedVersion = deck.savedVersion || null;
    chooseFormat(deck.format, true);
  } else {
    chooseFormat(select("format").value, false);
  }
}

// A module runs once the page is parsed: its elements are there.
if (settleLanguage()) start();
