// The playtester (issue 32): the deck dealt onto the game's zones, played by hand. The zones and
// the turn's steps come from the game (GET /games/{game}/playtest); the page applies what they
// declare (the deal, each turn's draw, readying, a card to the stock) and shows the rest as
// reminders. Its model (the cards on the table, the shuffle, the steps) is playstate.js.
import { $, buttonOf, errorText, input, select, show } from "./dom.js";
import { typeName } from "./games.js";
import { _, _n } from "./i18n.js";
import {
  applyStep, copiesIn, draw, fillStep, forcedType, pt, remember, shuffle, snapshot, tableOf, zoneOf,
} from "./playstate.js";
import { on, param, settled, state } from "./store.js";

/** @typedef {import("./playstate.js").Table} Table */
/** @typedef {import("./playstate.js").Zone} Zone */
/** @typedef {import("./playstate.js").PlayCard} PlayCard */

const PT_KEY = "deckcheck.playtest.v1"; // this tab's playtest, kept over a reload or a language switch

function undoMove() {
  const last = pt.history.pop();
  if (!last) return;
  Object.assign(pt, JSON.parse(last));
  pt.selected = [];
  renderPlaytest();
}

/** @param {boolean} sameShuffle */
async function dealPlaytest(sameShuffle) {
  await settled();
  let table;
  try {
    table = await tableOf(state.info ? state.info.game : "");
  } catch (err) {
    show(_("Could not load the playtester: {error}", { error: errorText(err) }), "pt-deal");
    return;
  }
  const deckZone = table.zones.find((z) => z.name === table.deck);
  const pile = copiesIn(deckZone ? deckZone.sections : []);
  const size = Number(param("opening_hand")) || 5;
  if (pile.length < size) {
    show(_("The deck has {n} cards; a hand needs {hand}", { n: pile.length, hand: size }), "pt-deal");
    return;
  }
  show("", "pt-deal");
  const typed = Number.parseInt(input("pt-seed").value, 10);
  if (!sameShuffle) pt.seed = Number.isInteger(typed) ? typed : Math.floor(Math.random() * 1e9);
  input("pt-seed").value = String(pt.seed);
  pt.rng = pt.seed;
  pt.onPlay = select("pt-side").value === "play";
  pt.format = state.format;
  pt.zones = Object.fromEntries(table.zones.map((z) => [z.name, []]));
  pt.history = [];
  pt.selected = [];
  pt.turn = 0;
  pt.mulliganed = false;
  const notes = [];
  for (const z of table.zones.filter((x) => x.types.length)) { // set aside before the shuffle
    const at = pile.findIndex((c) => z.types.includes(c.type));
    if (at >= 0) pt.zones[z.name].push(...pile.splice(at, 1));
  }
  pt.zones[table.deck] = shuffle(pile);
  for (const z of table.zones.filter((x) => x.name !== table.deck && x.sections.length)) {
    const cards = copiesIn(z.sections);
    if (z.take === null || z.take === undefined) { pt.zones[z.name].push(...cards); continue; }
    shuffle(cards);
    pt.zones[z.name].push(...cards.slice(0, z.take));
    pt.zones[z.rest || z.name].push(...cards.slice(z.take));
  }
  draw(size);
  const type = forcedType();
  if (type && pt.zones[table.deck].concat(pt.zones[table.hand]).some((c) => c.type === type)) {
    let redraws = 0;
    while (!pt.zones[table.hand].some((c) => c.type === type)) {
      pt.zones[table.deck] = shuffle(pt.zones[table.deck].concat(pt.zones[table.hand]));
      pt.zones[table.hand] = [];
      draw(size);
      redraws++;
    }
    if (redraws) notes.push(_n("{n} forced redraw", "{n} forced redraws", redraws, { n: redraws }));
  }
  pt.steps = [];
  pt.note = notes.join(" · ");
  renderPlaytest();
}

// The format's mulligan, once, before the first turn: "return-all-once" shuffles the whole hand
// back and deals again; "bottom-once" puts the chosen cards at the bottom and draws as many.
function mulliganPlaytest() {
  const rule = param("mulligan");
  const table = /** @type {Table} */ (pt.table);
  const hand = pt.zones[table.hand];
  const deck = pt.zones[table.deck];
  if (rule === "bottom-once") {
    const chosen = hand.filter((c) => pt.selected.includes(c.id));
    if (!chosen.length) { show(_("Choose the cards to put at the bottom of the deck"), "pt-mulligan"); return; }
    remember();
    pt.zones[table.hand] = hand.filter((c) => !pt.selected.includes(c.id));
    deck.push(...chosen);
    draw(chosen.length);
  } else {
    remember();
    pt.zones[table.deck] = shuffle(deck.concat(hand));
    pt.zones[table.hand] = [];
    draw(hand.length);
  }
  show("", "pt-mulligan");
  pt.mulliganed = true;
  pt.selected = [];
  renderPlaytest();
}

/** @param {string} target a zone */
function moveSelected(target) {
  if (!pt.selected.length || !pt.table) return;
  remember();
  for (const id of pt.selected) {
    const from = zoneOf(id);
    const at = pt.zones[from].findIndex((c) => c.id === id);
    const [card] = pt.zones[from].splice(at, 1);
    card.asleep = false;
    if (target === pt.table.deck) pt.zones[target].unshift(card); // on top
    else pt.zones[target].push(card);
  }
  const keep = pt.selected[0];
  pt.selected = [];
  renderPlaytest(keep);
}

function sleepSelected() {
  /** @type {PlayCard[]} */
  const cards = [];
  for (const id of pt.selected) {
    const card = (pt.zones[zoneOf(id)] || []).find((c) => c.id === id);
    if (card) cards.push(card);
  }
  if (!cards.length) return;
  remember();
  const wake = cards.every((c) => c.asleep);
  for (const c of cards) c.asleep = !wake;
  const keep = pt.selected[0];
  pt.selected = [];
  renderPlaytest(keep);
}

function drawOne() {
  remember();
  if (!draw(1).length) pt.note = _("The deck is empty");
  renderPlaytest();
}

// The next turn, its steps in the game's order: applied when the page can, else shown.
function passTurn() {
  if (!pt.table) return;
  remember();
  pt.turn += 1;
  pt.selected = [];
  const firstTurn = pt.turn === 1 && pt.onPlay;
  pt.steps = pt.table.steps.map((s) => ({ label: fillStep(s), rule: s.rule, done: applyStep(s, firstTurn) }));
  pt.note = "";
  renderPlaytest();
}

// --- the table on the page -------------------------------------------------------------------------

/** @param {PlayCard} card @param {Zone} zone */
function cardButton(card, zone) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "pt-card" + (card.asleep ? " asleep" : "");
  b.dataset.id = card.id;
  b.dataset.type = card.type;
  const face = zone.hidden ? _("face-down card") : `${card.name} · ${typeName(card.type)}`;
  b.textContent = card.asleep ? _("{card} (asleep)", { card: face }) : face;
  b.setAttribute("aria-pressed", pt.selected.includes(card.id) ? "true" : "false");
  return b;
}

/** @param {Table} table @param {string} [keep] the card to focus */
function renderZones(table, keep) {
  const root = $("pt-zones");
  root.innerHTML = "";
  table.zones.forEach((zone, k) => {
    const cards = pt.zones[zone.name] || [];
    const box = document.createElement("div");
    box.className = "pt-zone";
    box.dataset.zone = zone.name;
    const title = document.createElement("h3");
    title.id = `pt-zone-${zone.name}`;
    title.textContent = _("{zone} ({n})", { zone: zone.label, n: cards.length });
    if (k < 9) title.append(" ", Object.assign(document.createElement("kbd"), { textContent: String(k + 1) }));
    box.append(title);
    if (zone.name !== table.deck) {
      const list = document.createElement("ul");
      list.setAttribute("aria-labelledby", title.id);
      for (const card of cards) {
        const li = document.createElement("li");
        li.append(cardButton(card, zone));
        list.append(li);
      }
      box.append(list);
    }
    root.append(box);
  });
  const again = keep && root.querySelector(`.pt-card[data-id="${CSS.escape(keep)}"]`);
  if (again instanceof HTMLElement) again.focus();
}

/** @param {Table} table */
function renderActions(table) {
  const root = $("pt-actions");
  root.innerHTML = "";
  const none = !pt.selected.length;
  for (const zone of table.zones) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.zone = zone.name;
    b.textContent = zone.name === table.deck ? _("To the top of {zone}", { zone: zone.label })
      : _("To {zone}", { zone: zone.label });
    b.disabled = none;
    b.addEventListener("click", () => moveSelected(zone.name));
    root.append(b);
  }
  const sleep = document.createElement("button");
  sleep.type = "button";
  sleep.id = "pt-sleep";
  sleep.textContent = _("Sleep / wake");
  sleep.disabled = none;
  sleep.addEventListener("click", sleepSelected);
  root.append(sleep);
}

/** @param {string} [keep] the card to focus */
function renderPlaytest(keep) {
  const table = pt.table;
  const dealt = Boolean(table && Object.keys(pt.zones).length);
  $("pt-board").hidden = !dealt;
  for (const id of ["pt-draw", "pt-pass", "pt-undo", "pt-restart", "pt-new"]) buttonOf(id).disabled = !dealt;
  if (!table || !dealt) return;
  const rule = param("mulligan");
  $("pt-mulligan").hidden = !(["return-all-once", "bottom-once"].includes(String(rule)) &&
    pt.turn === 0 && !pt.mulliganed);
  buttonOf("pt-undo").disabled = !pt.history.length;
  $("pt-turn").textContent = pt.turn === 0 ? _("Set-up") : _("Turn {n}", { n: pt.turn });
  $("pt-deck-count").textContent = _n("{n} card in the deck", "{n} cards in the deck",
    pt.zones[table.deck].length, { n: pt.zones[table.deck].length });
  const steps = $("pt-steps");
  steps.innerHTML = "";
  for (const s of pt.steps) {
    const li = document.createElement("li");
    li.className = s.done ? "applied" : "reminder";
    li.append(s.done ? _("{step}: {done}", { step: s.label, done: s.done })
      : _("{step} (yours to follow)", { step: s.label }));
    li.append(Object.assign(document.createElement("span"), { className: "dim rule", textContent: s.rule }));
    steps.append(li);
  }
  $("pt-note").textContent = [pt.note, ...table.notes].filter(Boolean).join(" · ");
  renderZones(table, keep);
  renderActions(table);
  keepPlaytest();
}

function keepPlaytest() {
  try {
    sessionStorage.setItem(PT_KEY, JSON.stringify({ format: state.format, seed: pt.seed,
      onPlay: pt.onPlay, now: snapshot(), history: pt.history }));
  } catch (err) { /* storage full or off: the playtest is not kept */ }
}

// Called when a format is chosen (format.js's event): a playtest of another format is put away; one of
// this format kept in this tab (a reload, another language) comes back.
async function playtestFormat() {
  if (pt.format === state.format) return;
  pt.zones = {};
  pt.format = null;
  renderPlaytest();
  let kept = null;
  try { kept = JSON.parse(sessionStorage.getItem(PT_KEY) || "null"); } catch (err) { kept = null; }
  if (!kept || kept.format !== state.format || !state.info) return;
  try { await tableOf(state.info.game); } catch (err) { return; }
  Object.assign(pt, JSON.parse(kept.now), { seed: kept.seed, onPlay: kept.onPlay,
    format: kept.format, history: kept.history || [], selected: [] });
  input("pt-seed").value = String(pt.seed);
  select("pt-side").value = pt.onPlay ? "play" : "draw";
  renderPlaytest();
}

// Click or tap a card to choose it (again to let it go); on a card, 1–9 moves it (with the
// other chosen cards) to that zone and S sleeps or wakes it.
/** @param {KeyboardEvent} ev */
function onCardKey(ev) {
  const card = ev.target instanceof Element ? ev.target.closest(".pt-card") : null;
  if (!(card instanceof HTMLElement) || !pt.table || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = Number.parseInt(ev.key, 10);
  const zone = Number.isInteger(k) && k >= 1 ? pt.table.zones[k - 1] : null;
  if (!zone && ev.key.toLowerCase() !== "s") return;
  ev.preventDefault();
  const id = card.dataset.id || "";
  if (!pt.selected.includes(id)) pt.selected.push(id);
  if (zone) moveSelected(zone.name); else sleepSelected();
}

/** @param {MouseEvent} ev */
function onCardClick(ev) {
  const card = ev.target instanceof Element ? ev.target.closest(".pt-card") : null;
  if (!(card instanceof HTMLElement)) return;
  const id = card.dataset.id || "";
  pt.selected = pt.selected.includes(id) ? pt.selected.filter((x) => x !== id) : [...pt.selected, id];
  renderPlaytest(id);
}

/** Sets this part of the page going, once, when the page starts (builder.js). */
export function startPlaytest() {
  $("pt-deal").addEventListener("click", () => dealPlaytest(false));
  $("pt-restart").addEventListener("click", () => dealPlaytest(true));
  $("pt-new").addEventListener("click", () => { input("pt-seed").value = ""; dealPlaytest(false); });
  $("pt-mulligan").addEventListener("click", mulliganPlaytest);
  $("pt-draw").addEventListener("click", drawOne);
  $("pt-pass").addEventListener("click", passTurn);
  $("pt-undo").addEventListener("click", undoMove);
  $("pt-zones").addEventListener("click", onCardClick);
  $("pt-zones").addEventListener("keydown", onCardKey);
  on("format", playtestFormat);
  renderPlaytest();
}
