// Card details (issue 32, item 3): the card a search row or a deck line holds, shown in full when
// that row is focused or tapped: every fact the pool holds (the shared fields and the game's own
// columns, labelled as GET /games labels them), its other printings and its source note. Deck
// lines also show the facts the game's curve reads. Loaded after builder.js, whose $, state, _,
// api(), typeName(), gameSpecOf() and gameColumns it uses.
"use strict";

const details = { number: null, seq: 0 };

// [label, value] for every fact of a card the pool holds, the shared fields first.
function allFacts(card) {
  const shared = [
    [_("Type"), typeName(card.type)], [_("The card's kind"), card.kind], [_("Level"), card.level],
    [_("Cost"), card.cost], [_("Keywords"), (card.keywords || []).join(" / ")],
    [_("Rarity"), card.rarity], [_("Also written"), (card.aliases || []).join(", ")],
  ];
  const own = gameColumns.map((c) => [c.label,
    Array.isArray(card[c.name]) ? card[c.name].join(", ") : card[c.name]]);
  return [...shared, ...own].filter(([, v]) => v !== null && v !== undefined && v !== "");
}

async function showDetails(number, game) {
  if (!number || number === details.number) return;
  details.number = number;
  const seq = ++details.seq;
  let card;
  let printings;
  try {
    card = await api("GET", `/cards/${encodeURIComponent(game)}/${encodeURIComponent(number)}`);
    const found = await api("GET", `/cards?game=${encodeURIComponent(game)}&q=${encodeURIComponent(card.name)}&limit=50`);
    printings = found.filter((c) => c.name === card.name && c.number !== card.number);
  } catch (err) {
    if (seq === details.seq) show(_("Could not load the card: {error}", { error: err.message }), "card-title");
    return;
  }
  if (seq !== details.seq) return; // another card was focused meanwhile
  show("", "card-title");
  $("card-title").textContent = _("{name} ({number})", { name: card.name, number: card.number });
  const list = $("card-facts");
  list.innerHTML = "";
  for (const [label, value] of allFacts(card)) {
    list.append(Object.assign(document.createElement("dt"), { textContent: label }),
      Object.assign(document.createElement("dd"), { className: "data", textContent: String(value) }));
  }
  const others = $("card-printings");
  others.innerHTML = "";
  for (const p of printings) {
    const li = document.createElement("li");
    li.textContent = `${p.number} · ${facts(p)}`;
    others.append(li);
  }
  $("card-printings-title").hidden = !printings.length;
  // the source note is the pool's data, in the words it was written in
  const source = $("card-source");
  source.textContent = "";
  if (card.source) {
    const [before, after] = _("Source: {source}").split("{source}");
    source.append(before, Object.assign(document.createElement("span"),
      { className: "data", textContent: card.source }), after || "");
  }
  $("card-empty").hidden = true;
}

// The facts the game's curve reads, for a deck line ("node 2 · cost 1").
function curveFacts(entry, curve) {
  const card = entry.facts || {};
  return curve.filter((f) => card[f.name] !== null && card[f.name] !== undefined)
    .map((f) => `${f.label} ${card[f.name]}`).join(" · ");
}

async function markCurves() {
  if (!state.info) return;
  const spec = await gameSpecOf(state.info.game);
  for (const li of document.querySelectorAll("#sections li[data-number]")) {
    if (li.querySelector(".curve-facts")) continue;
    const entry = state.entries.find((e) => (e.number || e.ref) === li.dataset.number &&
      e.section === li.dataset.section);
    const text = entry ? curveFacts(entry, spec.curve || []) : "";
    if (!text) continue;
    const span = Object.assign(document.createElement("span"), { className: "curve-facts dim", textContent: text });
    li.querySelector(".number").after(span);
  }
}

function startDetails() {
  for (const id of ["results", "sections"]) {
    $(id).addEventListener("focusin", (ev) => {
      const row = ev.target.closest("li[data-number]");
      if (row && state.info) showDetails(row.dataset.number, state.info.game);
    });
  }
  new MutationObserver(markCurves).observe($("sections"), { childList: true });
}

startDetails();
