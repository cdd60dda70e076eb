// "Watch a game": one goldfish game of the current deck, turn by turn (POST /goldfish/replay:
// game N of the run of that seed, played by the reference engine, as `deckcheck goldfish DECK
// --replay N` prints it).
import { api } from "./api.js";
import { $, buttonOf, errorText, input, select, show } from "./dom.js";
import { _ } from "./i18n.js";
import { deckText, settled, state } from "./store.js";

/**
 * @typedef {object} Replay POST /goldfish/replay's answer
 * @property {{ turn: number, steps: { text: string, action: string }[], state?: string }[]} log
 * @property {string} final the state the game ended in
 */

/** @type {{ replay: Replay | null, at: number }} the game shown, and its turn shown */
const watch = { replay: null, at: 0 };

/** The field's whole number within [low, high], else null. @param {string} id @param {number} low @param {number} high */
function whole(id, low, high) {
  const value = Number(input(id).value);
  return Number.isInteger(value) && value >= low && value <= high ? value : null;
}

async function runWatch() {
  await settled();
  const game = whole("watch-game", 1, 1000000);
  const seed = whole("watch-seed", 0, Number.MAX_SAFE_INTEGER);
  const turns = whole("watch-turns", 1, 30);
  if (game === null || seed === null || turns === null) {
    show(_("Game number from 1, seed from 0 and 1–30 turns, as whole numbers"), "watch");
    return;
  }
  if (!state.entries.some((e) => e.count > 0)) {
    show(_("Add cards to the deck, then watch a game"), "watch");
    return;
  }
  show("", "watch");
  $("watch-status").textContent = _("Playing game {n}…", { n: game });
  buttonOf("watch").disabled = true;
  try {
    watch.replay = await api("replay", { body:
      { deck: deckText(), game, seed, turns, on_play: select("watch-side").value === "play" } });
    watch.at = 0;
    $("watch-status").textContent = _("Game {n} of seed {seed}", { n: game, seed });
  } catch (err) {
    watch.replay = null;
    $("watch-status").textContent = "";
    show(errorText(err), "watch");
  } finally {
    buttonOf("watch").disabled = false;
  }
  renderWatch();
}

function renderWatch() {
  const replay = watch.replay;
  $("watch-nav").hidden = !replay;
  $("watch-steps").innerHTML = "";
  $("watch-state").textContent = "";
  $("watch-final").textContent = "";
  if (!replay) return;
  const turn = replay.log[watch.at];
  $("watch-turn").textContent = turn.turn === 0 ? _("Set-up") : _("Turn {n}", { n: turn.turn });
  for (const step of turn.steps) {
    const li = document.createElement("li");
    li.textContent = step.text;
    li.dataset.action = step.action;
    $("watch-steps").append(li);
  }
  if (turn.state) $("watch-state").textContent = _("End of the turn: {state}", { state: turn.state });
  buttonOf("watch-prev").disabled = watch.at === 0;
  buttonOf("watch-next").disabled = watch.at === replay.log.length - 1;
  if (watch.at === replay.log.length - 1) {
    $("watch-final").textContent = _("Final state: {state}", { state: replay.final });
  }
}

/** @param {number} delta */
function stepTurn(delta) {
  if (!watch.replay) return;
  watch.at = Math.max(0, Math.min(watch.replay.log.length - 1, watch.at + delta));
  renderWatch();
}

/** Sets this part of the page going, once, when the page starts (builder.js). */
export function startWatch() {
  $("watch").addEventListener("click", runWatch);
  $("watch-prev").addEventListener("click", () => stepTurn(-1));
  $("watch-next").addEventListener("click", () => stepTurn(1));
}
