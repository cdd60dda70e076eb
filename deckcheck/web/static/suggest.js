// "Suggest changes": the legal changes of the main deck that raise the odds of the page's
// conditions by its turn (POST /tunes, an exact search: then GET /jobs/{id} until it ends, then
// the result at its result_url), best first. Apply puts one in the deck; Undo (deck.js) takes
// it back. Loaded after builder.js (state, api(), apiResponse(), show(), deckText(), settled(),
// button(), percent(), formatTypes()), compare.js (pollJob()) and deck.js (deckSnapshot(),
// offerUndo()).
"use strict";

const suggestion = { result: null };

async function waitForTune(location) {
  for (;;) {
    const job = await pollJob(location);
    if (job.status !== "queued" && job.status !== "running") return job;
    $("suggest-status").textContent = _("Searching…");
    await new Promise((done) => setTimeout(done, 300));
  }
}

async function runSuggest() {
  $("suggest-status").textContent = _("Starting…");
  $("suggest-list").innerHTML = "";
  $("suggest-never").innerHTML = "";
  await settled(); // a deck being pasted is the deck tuned
  const want = $("want").value.split("\n").map((s) => s.trim()).filter(Boolean);
  if (!want.length) {
    $("suggest-status").textContent = "";
    const example = "type:" + ([...formatTypes()][0] || "TYPE") + ">=1";
    show(_("Write at least one condition, e.g. {example}", { example }), "want");
    return;
  }
  const turn = Math.max(0, Math.min(15, Number($("turns").value) || 0));
  const body = { deck: deckText(), want, turn, top: 5, games: 0,
    max_changes: Number($("suggest-max").value) || 2 };
  $("suggest").disabled = true;
  try {
    const response = await apiResponse("POST", "/tunes", body); // 202: the job's Location
    const job = await waitForTune(response.headers.get("Location"));
    if (job.status === "cancelled") throw new Error(_("the search was cancelled"));
    if (job.status !== "done") {
      throw new Error(_("the search failed: {error}", { error: job.error || "" }));
    }
    show("", "suggest");
    suggestion.result = await api("GET", job.result_url);
    drawSuggestions();
  } catch (err) {
    $("suggest-status").textContent = "";
    show(_("Could not suggest changes: {error}", { error: err.message }), "suggest");
  } finally {
    $("suggest").disabled = false;
  }
}

function drawSuggestions() {
  const result = suggestion.result;
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

// The variant's changes on a copy of the deck's lines: Undo gives back the lines as they were.
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
  save();
  renderDeck();
  scheduleValidate();
  offerUndo(previous, _("Changed: {changes}", { changes: v.words }));
  suggestion.result = null;
  $("suggest-list").innerHTML = "";
  $("suggest-never").innerHTML = "";
  $("suggest-status").textContent = _("Applied. Suggest again for the changed deck.");
}

$("suggest").addEventListener("click", runSuggest);
