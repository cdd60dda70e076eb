// The service's verdict on the deck (POST /validate): errors, then warnings, then the format's
// assumptions folded away (they are not warnings: facts only fan sources give, which the player
// may want to read). Asked a moment after each change; the latest change's answer wins.
import { api } from "./api.js";
import { $, errorText, find, show } from "./dom.js";
import { _, _n } from "./i18n.js";
import { renderDeck } from "./deckview.js";
import { deckText, on, state } from "./store.js";

/**
 * @typedef {object} Violation
 * @property {string} rule
 * @property {string} severity "error" or "warning"
 * @property {string} message
 * @property {string} [fix]
 * @property {string} source the rulebook it cites
 * @property {{ number?: string | null }[]} cards
 */

/** @typedef {{ legal: boolean, violations: Violation[], assumptions: string[] }} Report */

/** @type {ReturnType<typeof setTimeout> | undefined} */
let validateTimer;
let validateSeq = 0;

/** The deck checked a moment after the last of a run of changes. */
export function scheduleValidate() {
  clearTimeout(validateTimer);
  checking();
  validateTimer = setTimeout(validateNow, 150);
}

/**
 * Between a change and its verdict the old verdict stands greyed and busy, never as the new
 * deck's: a reader (or a test) waiting for "legal" waits for this deck's check.
 */
export function checking() {
  if (!state.entries.length) return;
  $("verdict").className = "checking";
  $("verdict").setAttribute("aria-busy", "true");
}

/** The deck as it stands, checked by the service. */
export async function validateNow() {
  if (!state.entries.length) {
    $("verdict").textContent = "—";
    $("verdict").className = "";
    fill($("errors"), []);
    fill($("warnings"), []);
    listAssumptions([]);
    show("", "verdict");
    return;
  }
  const seq = ++validateSeq;
  try {
    const report = /** @type {Report} */ (await api("validate", { body: { deck: deckText() } }));
    if (seq !== validateSeq) return; // a later change's check is on its way: it answers
    $("verdict").removeAttribute("aria-busy");
    show("", "verdict");
    const errors = report.violations.filter((v) => v.severity === "error");
    const warnings = report.violations.filter((v) => v.severity === "warning");
    $("verdict").textContent = report.legal ? _("LEGAL")
      : _n("ILLEGAL — {n} error", "ILLEGAL — {n} errors", errors.length, { n: errors.length });
    $("verdict").className = report.legal ? "legal" : "illegal";
    fill($("errors"), errors);
    fill($("warnings"), warnings);
    listAssumptions(report.assumptions);
    /** @type {Set<string>} */
    const offending = new Set();
    for (const v of errors) for (const c of v.cards) if (c.number) offending.add(c.number);
    renderDeck(offending);
  } catch (err) {
    if (seq !== validateSeq) return;
    $("verdict").removeAttribute("aria-busy");
    show(_("Could not check the deck: {error}", { error: errorText(err) }), "verdict");
  }
}

/** @param {string[]} assumptions */
function listAssumptions(assumptions) {
  const list = $("assumptions");
  list.innerHTML = "";
  for (const a of assumptions) {
    const li = document.createElement("li");
    li.textContent = a;
    list.append(li);
  }
  $("assumptions-block").hidden = !assumptions.length;
  $("assumptions-summary").textContent = _("Assumptions ({n})", { n: assumptions.length });
}

/**
 * A list of violations; its heading (the element labelling it) shows only when it has any.
 * @param {HTMLElement} list
 * @param {Violation[]} violations
 */
function fill(list, violations) {
  list.innerHTML = "";
  list.hidden = !violations.length;
  const heading = find(list.getAttribute("aria-labelledby") || "");
  if (heading) heading.hidden = !violations.length;
  for (const v of violations) {
    const li = document.createElement("li");
    li.className = "violation";
    li.innerHTML = `<code class="rule"></code> <span class="msg"></span>
      <div class="fix"></div><div class="source dim"></div>`;
    /** @param {string} selector @param {string} text */
    const put = (selector, text) => {
      /** @type {HTMLElement} */ (li.querySelector(selector)).textContent = text;
    };
    put(".rule", v.rule);
    put(".msg", v.message);
    put(".fix", v.fix ? _("fix: {fix}", { fix: v.fix }) : "");
    put(".source", v.source);
    list.append(li);
  }
}

/** Sets this part of the page going, once, when the page starts (builder.js). */
export function startVerdict() {
  on("changed", (now) => (now ? validateNow() : scheduleValidate()));
}
