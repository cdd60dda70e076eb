// "Compare copies": the odds and goldfish milestones of the current deck with each legal number
// of copies of one card (0 up to the most the format allows of it, from POST /resolve), from a sweep
// job (POST /sweeps, then GET /jobs/{id} until it ends, then the result at its result_url).
// The fill keeps the deck's size: a blank card that counts for nothing (the sweep's device,
// outside the rulebooks), a card of the deck, or any card of the pool. Loaded after
// builder.js, whose state, api(), apiResponse(), show(), deckText(), settled(), copiesOf() and drawChart()
// it uses.
"use strict";

const BLANK = "blank"; // the sweep's fill value for the blank card
const LEAST = ""; // the fill value for "the deck's least wanted card"
const compare = { result: null, asked: null };
const pool = new Map(); // fill cards found in the pool: number → {number, name}

function mainCards() {
  return state.entries.filter((e) => e.section === "main" && e.count > 0 && (e.number || e.ref));
}

function cardOption(e) {
  const value = e.number || e.ref;
  const count = e.count ? ` ×${e.count}` : "";
  return new Option(`${e.name || value} (${value})${count}`, value);
}

function refreshCards() {
  const cards = mainCards();
  const card = $("compare-card");
  const kept = card.value;
  card.innerHTML = "";
  for (const e of cards) card.append(cardOption(e));
  if ([...card.options].some((o) => o.value === kept)) card.value = kept;
  const fill = $("compare-fill");
  const keptFill = fill.value;
  fill.innerHTML = "";
  fill.append(new Option(_("a blank card (counts for nothing)"), BLANK),
    new Option(_("least wanted (fewest copies)"), LEAST));
  const deck = document.createElement("optgroup");
  deck.label = _("in the deck");
  for (const e of cards) deck.append(cardOption(e));
  const found = document.createElement("optgroup");
  found.label = _("from the pool");
  for (const c of pool.values()) found.append(cardOption({ ...c, count: 0 }));
  fill.append(deck);
  if (found.children.length) fill.append(found);
  fill.value = [...fill.options].some((o) => o.value === keptFill) ? keptFill : BLANK;
}

// Any card of the pool as the fill: a search as the card search does it, by name or number.
let fillTimer = null;
function scheduleFillSearch() {
  clearTimeout(fillTimer);
  fillTimer = setTimeout(searchFill, 150);
}

async function searchFill() {
  const q = $("compare-fill-q").value.trim();
  if (!q || !state.info) return;
  try {
    const params = new URLSearchParams({ game: state.info.game, q, limit: "10" });
    const cards = await api("GET", "/cards?" + params);
    pool.clear();
    for (const c of cards) pool.set(c.number, { number: c.number, name: c.name });
    refreshCards();
    if (cards.length) $("compare-fill").value = cards[0].number;
    $("compare-fill-note").textContent = cards.length ? ""
      : _("no cards found");
  } catch (err) {
    show(_("Search failed: {error}", { error: err.message }), "compare-fill-q");
  }
}

// The copies one card line of the main deck holds, and its name, by number.
function inMain(number) {
  const rows = mainCards().filter((e) => (e.number || e.ref) === number);
  return { count: copiesOf(rows), name: rows.length ? rows[0].name : null };
}

// The fill keeps the deck's size: the other main-deck card the list holds fewest copies of
// (the last such line), which the builder wanted least.
function leastWanted(card) {
  const others = mainCards().filter((e) => (e.number || e.ref) !== card);
  if (!others.length) return null;
  const fewest = Math.min(...others.map((e) => e.count));
  const found = others.filter((e) => e.count === fewest).pop();
  return found.number || found.ref;
}

// 0 up to the most copies the format allows of this card: its own limit where an override of
// the format gives one (POST /resolve answers it per line), else the format's limit; without
// either, up to one more than the deck holds now.
async function copyRange(card) {
  const general = state.info && state.info.copies ? state.info.copies.limit : null;
  let limit = general;
  try {
    const resolved = await api("POST", "/resolve", { deck: `format: ${state.format}\n1 ${card}\n` });
    const entry = resolved.entries[0];
    if (entry && entry.number) limit = entry.limit;
  } catch (err) { /* the format's limit, as before: the sweep still marks an illegal variant */ }
  return [0, limit != null ? limit : inMain(card).count + 1];
}

// A job's state; a poll with no answer in 15 s is asked again on a new request, so a lost
// connection delays the page instead of stalling it (a run under load stayed at "Starting…").
async function pollJob(location) {
  for (;;) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 15000);
    try {
      return await api("GET", location, undefined, undefined, abort.signal);
    } catch (err) {
      if (err.name !== "AbortError") throw err;
    } finally {
      clearTimeout(timer);
    }
  }
}

async function waitFor(location) {
  for (;;) {
    const job = await pollJob(location);
    if (job.status !== "queued" && job.status !== "running") return job;
    $("compare-status").textContent = _("Playing: {done} of {games} games",
      { done: job.games_done, games: job.games });
    await new Promise((done) => setTimeout(done, 400));
  }
}

async function runCompare() {
  // the status changes at once, before any wait: the last run's "Done" must not stand for
  // this one
  $("compare-status").textContent = _("Starting…");
  await settled(); // a deck being pasted is the deck compared
  const card = $("compare-card").value;
  if (!card) {
    $("compare-status").textContent = "";
    const main = state.info && state.info.sections.find((s) => s.name === "main");
    show(_("Add cards to the {section}, then pick one to compare",
      { section: main ? main.label || main.name : "main" }), "compare-card");
    return;
  }
  const chosen = $("compare-fill").value;
  const fill = chosen === LEAST ? leastWanted(card) : chosen;
  const onPlay = $("compare-side").value !== "draw";
  const turns = Math.max(1, Math.min(15, Number($("turns").value) || 6));
  const games = Math.max(100, Math.min(20000, Number($("compare-games").value) || 2000));
  const deck = deckText();
  $("compare").disabled = true;
  try {
    const [low, high] = await copyRange(card);
    const body = { deck, vary: [`name:${card}=${low}..${high}`],
      want: [`number:${card}>=1`], sides: [onPlay], turns, games, seed: 1 };
    if (fill) body.fill = fill;
    const response = await apiResponse("POST", "/sweeps", body); // 202: the job's Location
    const job = await waitFor(response.headers.get("Location"));
    if (job.status === "cancelled") throw new Error(_("the sweep was cancelled"));
    if (job.status !== "done") {
      throw new Error(_("the sweep failed: {error}", { error: job.error || "" }));
    }
    show("", "compare");
    compare.result = await api("GET", job.result_url);
    compare.asked = { card, fill, onPlay, cardName: inMain(card).name || card,
      cardCount: inMain(card).count, fillName: fillName(fill), fillCount: fillCount(fill) };
    drawCompare();
  } catch (err) {
    $("compare-status").textContent = "";
    show(_("Could not compare copies: {error}", { error: err.message }), "compare");
  } finally {
    $("compare").disabled = false;
  }
}

function fillName(fill) {
  if (!fill) return null;
  if (fill === BLANK) return _("blank");
  const found = pool.get(fill);
  return inMain(fill).name || (found && found.name) || fill;
}

function fillCount(fill) {
  return fill && fill !== BLANK ? inMain(fill).count : 0;
}

// A variant as a player says it: "3 × NAME + 0 × blank, on the play".
function variantLabel(v) {
  const a = compare.asked;
  const n = v.keys[`name:${a.card}`];
  const side = a.onPlay ? _("on the play") : _("on the draw");
  if (!a.fill) return _("{n} × {card}, {side}", { n, card: a.cardName, side });
  const m = a.fillCount + a.cardCount - n; // the fill keeps the main deck's size
  return _("{n} × {card} + {m} × {fill}, {side}",
    { n, card: a.cardName, m: Math.max(m, 0), fill: a.fillName, side });
}

function series(pick) {
  const out = [];
  compare.result.variants.forEach((v, i) => {
    const found = v.legal ? pick(v) : null;
    if (found) out.push({ label: variantLabel(v), colour: CHART_COLOURS[i % CHART_COLOURS.length], ...found });
  });
  return out;
}


function drawCompare() {
  const result = compare.result;
  const a = compare.asked;
  const want = `number:${a.card}>=1`;
  const illegal = $("compare-illegal");
  illegal.innerHTML = "";
  for (const v of result.variants.filter((v) => !v.legal)) {
    const li = document.createElement("li");
    li.textContent = `${variantLabel(v)}: ` + v.violations.map((x) => x.message).join("; ");
    illegal.append(li);
  }
  const odds = series((v) => ({ rows: v.odds[want].map((p, turn) => ({ turn, probability: p })) }));
  drawChart(odds, $("compare-odds"), { x: _("turn"), y: _("probability") });
  $("compare-odds-note").textContent = _("Odds of {card} in hand by turn (exact: no interval)",
    { card: a.cardName });
  const names = Object.keys((result.variants.find((v) => v.legal) || { milestones: {} }).milestones);
  const select = $("compare-milestone");
  const kept = select.value;
  select.innerHTML = "";
  for (const n of names) select.append(new Option((result.words || {})[n] || n, n));
  if (names.includes(kept)) select.value = kept;
  drawMilestone();
  const legal = result.variants.filter((v) => v.legal).length;
  $("compare-status").textContent = _("Done: {legal} of {variants} variants played, {games} games each",
    { legal, variants: result.variants.length, games: result.games });
}

function drawMilestone() {
  const name = $("compare-milestone").value;
  if (!compare.result || !name) return;
  const lines = series((v) => {
    const m = v.milestones[name];
    if (!m) return null;
    const rows = [{ turn: 0, probability: 0 },
      ...m.by_turn.map((p, i) => ({ turn: i + 1, probability: p }))];
    const band = [{ turn: 0, low: 0, high: 0 },
      ...m.by_turn.map((p, i) => ({ turn: i + 1, low: m.low[i], high: m.high[i] }))];
    return { rows, band };
  });
  const word = (compare.result.words || {})[name] || name;
  drawChart(lines, $("compare-milestones"), { x: _("turn"), y: _("share of games") });
  const rates = compare.result.variants.filter((v) => v.legal && v.milestones[name]).map((v) => {
    const m = v.milestones[name];
    const [low, high] = m.rate_interval;
    return _("{variant}: {rate} ({low}–{high})", { variant: variantLabel(v),
      rate: percent(m.rate), low: percent(low), high: percent(high) });
  });
  $("compare-milestone-note").textContent = _(
    "{milestone} reached by turn: share of games, shaded: its {level} interval (Wilson); by the last turn: {rates}",
    { milestone: word, level: "95%", rates: rates.join("; ") });
}

$("compare").addEventListener("click", runCompare);
$("compare-milestone").addEventListener("change", drawMilestone);
$("compare-fill-q").addEventListener("input", scheduleFillSearch);
new MutationObserver(refreshCards).observe($("sections"), { childList: true, subtree: true });
refreshCards();
