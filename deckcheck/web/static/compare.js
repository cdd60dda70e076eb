// "Compare copies": the odds and goldfish milestones of the current deck with 1-4 copies of
// one card, from a sweep job (POST /sweeps, then GET /jobs/{id} until it ends, then the
// result at its result_url). Loaded after builder.js, whose state, api(), deckText() and
// drawChart() it uses.
"use strict";

const COPIES = [1, 2, 3, 4];
const COLOURS = ["#16a34a", "#2563eb", "#d97706", "#dc2626"];
const compare = { result: null, card: null };

function mainCards() {
  return state.entries.filter((e) => e.section === "main" && e.count > 0 && (e.number || e.ref));
}

function fillOptions(select, cards, keep, first) {
  select.innerHTML = "";
  if (first) select.append(new Option(first, ""));
  for (const e of cards) {
    const option = document.createElement("option");
    option.value = e.number || e.ref;
    option.textContent = `${e.name || option.value} (${option.value}) ×${e.count}`;
    select.append(option);
  }
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
}

function refreshCards() {
  const cards = mainCards();
  const auto = _("least wanted (fewest copies)");
  fillOptions($("compare-card"), cards, $("compare-card").value);
  fillOptions($("compare-fill"), cards, $("compare-fill").value, auto);
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

async function waitFor(location) {
  for (;;) {
    const job = await api("GET", location);
    if (job.status !== "queued" && job.status !== "running") return job;
    $("compare-status").textContent = _("Playing: {done} of {games} games",
      { done: job.games_done, games: job.games });
    await new Promise((done) => setTimeout(done, 400));
  }
}

async function runCompare() {
  const card = $("compare-card").value;
  if (!card) {
    const main = state.info && state.info.sections.find((s) => s.name === "main");
    show(_("Add cards to the {section}, then pick one to compare",
      { section: main ? main.label || main.name : "main" }));
    return;
  }
  const fill = $("compare-fill").value || leastWanted(card);
  const turns = Math.max(1, Math.min(15, Number($("turns").value) || 6));
  const games = Math.max(100, Math.min(20000, Number($("compare-games").value) || 2000));
  const body = { deck: deckText(), vary: [`name:${card}=1..4`], want: [`number:${card}>=1`],
    turns, games, seed: 1 };
  if (fill) body.fill = fill;
  $("compare-status").textContent = _("Starting…");
  $("compare").disabled = true;
  try {
    const response = await fetch("/sweeps", { method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": LANG },
      body: JSON.stringify(body) });
    const started = await response.json();
    if (response.status !== 202) throw new Error(`${response.status}: ${started.detail}`);
    const job = await waitFor(response.headers.get("Location"));
    if (job.status === "cancelled") throw new Error(_("the sweep was cancelled"));
    if (job.status !== "done") {
      throw new Error(_("the sweep failed: {error}", { error: job.error || "" }));
    }
    show("");
    compare.result = await api("GET", job.result_url);
    compare.card = card;
    drawCompare(fill);
  } catch (err) {
    $("compare-status").textContent = "";
    show(_("Could not compare copies: {error}", { error: err.message }));
  } finally {
    $("compare").disabled = false;
  }
}

function series(pick) {
  const out = [];
  compare.result.variants.forEach((v, i) => {
    const rows = v.legal ? pick(v) : null;
    const label = _n("{n} copy", "{n} copies", COPIES[i], { n: COPIES[i] });
    if (rows) out.push([label, rows, COLOURS[i]]);
  });
  return out;
}

function plotOrClear(lines, svg) {
  if (lines.length) drawChart(lines, svg);
  else svg.innerHTML = ""; // no variant was legal: nothing was played
}

function drawCompare(fill) {
  const result = compare.result;
  const want = `number:${compare.card}>=1`;
  const illegal = $("compare-illegal");
  illegal.innerHTML = "";
  for (const v of result.variants.filter((v) => !v.legal)) {
    const li = document.createElement("li");
    li.textContent = `${v.label}: ` + v.violations.map((x) => x.message).join("; ");
    illegal.append(li);
  }
  const odds = series((v) => v.odds[want].map((p, turn) => ({ turn, probability: p })));
  plotOrClear(odds, $("compare-odds"));
  $("compare-odds-note").textContent = fill
    ? _("Odds of {card} in hand by turn; fill: {fill}", { card: compare.card, fill })
    : _("Odds of {card} in hand by turn", { card: compare.card });
  const names = Object.keys((result.variants.find((v) => v.legal) || { milestones: {} }).milestones);
  fillOptions($("compare-milestone"), names.map((n) => ({ number: n, name: n, count: 0 })),
    $("compare-milestone").value);
  for (const o of $("compare-milestone").options) o.textContent = o.value;
  drawMilestone();
  const legal = result.variants.filter((v) => v.legal).length;
  $("compare-status").textContent = _("Done: {legal} of {variants} variants played, {games} games each",
    { legal, variants: result.variants.length, games: result.games });
}

function drawMilestone() {
  const name = $("compare-milestone").value;
  if (!compare.result || !name) return;
  const lines = series((v) => v.milestones[name] &&
    [{ turn: 0, probability: 0 }, ...v.milestones[name].by_turn.map((p, i) => (
      { turn: i + 1, probability: p }))]);
  plotOrClear(lines, $("compare-milestones"));
  const means = compare.result.variants.map((v, i) => v.legal && v.milestones[name]
    ? `${COPIES[i]}: ${(v.milestones[name].rate * 100).toFixed(1)}%` : null).filter(Boolean);
  $("compare-milestone-note").textContent = _("{milestone} reached by turn (share of games); {means}",
    { milestone: name, means: means.join(", ") });
}

$("compare").addEventListener("click", runCompare);
$("compare-milestone").addEventListener("change", drawMilestone);
new MutationObserver(refreshCards).observe($("sections"), { childList: true, subtree: true });
refreshCards();
