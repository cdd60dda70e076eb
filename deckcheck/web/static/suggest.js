// "Suggest changes": the legal changes of the main deck that raise the odds of the page's
// conditions by its turn (POST /tunes, an exact search, followed until it ends, then its
// result), best first. Apply puts one in the deck; Undo (undo.js) takes it back.
import { runJob } from "./api.js";
import { percent } from "./charts.js";
import { $, button, input, select, show, whileRunning } from "./dom.js";
import { _ } from "./i18n.js";
import { askConditions } from "./odds.js";
import { commit, deckText, settled, state } from "./store.js";
import { deckSnapshot, offerUndo } from "./undo.js";

/**
 * @typedef {object} Change a card's copies up or down
 * @property {string} number
 * @property {string} [name]
 * @property {number} delta
 */

/**
 * @typedef {object} Tuned a variant of a tune's result
 * @property {string} words the changes as a player says them
 * @property {Change[]} changes
 * @property {number} value
 * @property {number} alike how many variants reach the same value
 */

/** @typedef {{ variants: Tuned[], never_tried: string[], goal: string[], base: { value: number } }} Tune */

async function runSuggest() {
  $("suggest-status").textContent = _("Starting…");
  $("suggest-list").innerHTML = "";
  $("suggest-never").innerHTML = "";
  await settled(); // a deck being pasted is the deck tuned
  const want = askConditions();
  if (!want) {
    $("suggest-status").textContent = "";
    return;
  }
  const turn = Math.max(0, Math.min(15, Number(input("turns").value) || 0));
  const body = { deck: deckText(), want, turn, top: 5, games: 0,
    max_changes: Number(select("suggest-max").value) || 2 };
  await whileRunning("suggest", "suggest-status",
    (error) => _("Could not suggest changes: {error}", { error }), () => tune(body));
}

/** The tune job of the deck, its suggestions drawn when it is done. @param {unknown} body */
async function tune(body) {
  /** @type {Tune} */
  const result = await runJob("tune", body, {
    every: 300,
    progress: () => { $("suggest-status").textContent = _("Searching…"); },
    cancelled: _("the search was cancelled"),
    failed: (error) => _("the search failed: {error}", { error }),
  });
  show("", "suggest");
  drawSuggestions(result);
}

/** @param {Tune} result */
function drawSuggestions(result) {
  const list = $("suggest-list");
  list.innerHTML = "";
  for (const v of result.variants) {
    const li = document.createElement("li");
    const text = document.createElement("span");
    const alike = v.alike > 1 ? " " + _("(and {n} alike)", { n: v.alike - 1 }) : "";
    text.textContent = _("{changes}: {value}", { changes: v.words, value: percent(v.value) }) + alike;
    li.append(text, button(_("Apply"), _("Apply {changes}", { changes: v.words }),
      () => applySuggestion(v)));
    list.append(li);
  }
  for (const why of result.never_tried) {
    const li = document.createElement("li");
    li.textContent = _("never tried: {why}", { why });
    $("suggest-never").append(li);
  }
  $("suggest-status").textContent = result.variants.length
    ? _("{goal}: the deck as it is {value} (exact, under the format's assumptions)",
      { goal: result.goal.join(" + "), value: percent(result.base.value) })
    : _("No legal change within the limit raises it");
}

/**
 * The variant's changes on a copy of the deck's lines: Undo gives back the lines as they were.
 * @param {Tuned} v
 */
function applySuggestion(v) {
  const previous = deckSnapshot();
  state.entries = state.entries.map((e) => ({ ...e }));
  for (const c of v.changes) {
    const lines = state.entries.filter((e) => e.section === "main" && (e.number || e.ref) === c.number);
    if (c.delta > 0 && lines.length) lines[0].count += c.delta;
    else if (c.delta > 0) state.entries.push({ section: "main", count: c.delta, number: c.number, name: c.name });
    let cut = Math.max(0, -c.delta);
    for (const e of lines.reverse()) {
      const take = Math.min(cut, e.count);
      e.count -= take;
      cut -= take;
    }
  }
  state.entries = state.entries.filter((e) => e.count > 0);
  commit();
  offerUndo(previous, _("Changed: {changes}", { changes: v.words }));
  $("suggest-list").innerHTML = "";
  $("suggest-never").innerHTML = "";
  $("suggest-status").textContent = _("Applied. Suggest again for the changed deck.");
}

/** Sets this part of the page going, once, when the page starts (builder.js). */
export function startSuggest() {
  $("suggest").addEventListener("click", runSuggest);
}
