// The summary bar (issue 32, item 4): the deck's section counts and the verdict, kept on screen
// on a phone while cards are added (the CSS shows it on narrow screens only), and the search
// opened as a sheet over the page. It mirrors the deck store and what verdict.js draws.
import { $, input } from "./dom.js";
import { copiesOf, on, sectionLabel, state } from "./store.js";

function renderSummary() {
  const sections = state.info ? state.info.sections : [];
  const counts = sections.map((s) => {
    const n = copiesOf(state.entries.filter((e) => e.section === s.name));
    const bound = s.size.max === s.size.min ? `/${s.size.min}` : "";
    return `${sectionLabel(s.name)} ${n}${bound}`;
  });
  $("summary-counts").textContent = counts.join(" · ");
  const verdict = $("verdict");
  $("summary-verdict").textContent = verdict.textContent;
  $("summary-verdict").className = verdict.className;
}

/** @param {boolean} open */
function openSearch(open) {
  document.body.classList.toggle("searching", open);
  // the sheet starts below the bar (fixed on top while it is open), whose height depends on
  // the words in it
  const bar = $("summary-bar").getBoundingClientRect().height;
  document.documentElement.style.setProperty("--summary-bar", `${Math.ceil(bar)}px`);
  $("open-search").setAttribute("aria-expanded", open ? "true" : "false");
  $("close-search").hidden = !open;
  if (open) input("q").focus(); else $("open-search").focus();
}

/** Sets this part of the page going, once, when the page starts (builder.js). */
export function startSummary() {
  on("drawn", renderSummary);
  new MutationObserver(renderSummary).observe($("verdict"), { childList: true,
    characterData: true, subtree: true, attributes: true }); // its class says legal, illegal or checking
  $("open-search").addEventListener("click", () => openSearch(true));
  $("close-search").addEventListener("click", () => openSearch(false));
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && document.body.classList.contains("searching")) openSearch(false);
  });
  renderSummary();
}
