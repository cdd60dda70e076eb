// The page's words and language. The page comes in the language the server chose (?lang=, else
// Accept-Language, which the browser derives from navigator.languages). A choice made with the
// switch is remembered and wins; the words of the scripts are the page's "messages" (the
// catalogue's entries for them).

const LANG_KEY = "deckcheck.lang";
const LANGUAGES = ["en", "ja"];

/** The page's language. */
export const LANG = document.documentElement.lang || "en";

/** @type {Record<string, string>} message id → its words in the page's language */
const MESSAGES = JSON.parse(document.getElementById("messages")?.textContent || "{}");

/** @typedef {Record<string, string | number | null | undefined>} Values */

/** @param {string} text @param {Values} [values] */
export function fields(text, values) {
  return values ? text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m)) : text;
}

/**
 * A message in the page's language, its {fields} filled in.
 * @param {string} text
 * @param {Values} [values]
 */
export function _(text, values) {
  return fields(MESSAGES[text] || text, values);
}

/**
 * The same with a plural: English picks by n; Japanese has one form.
 * @param {string} one
 * @param {string} many
 * @param {number} n
 * @param {Values} [values]
 */
export function _n(one, many, n, values) {
  return fields(MESSAGES[one] || (n === 1 ? one : many), values);
}

function storedLanguage() {
  try { return localStorage.getItem(LANG_KEY); } catch (err) { return null; }
}

function browserLanguage() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const lang = tag.toLowerCase().split(/[-_]/)[0];
    if (LANGUAGES.includes(lang)) return lang;
  }
  return "en";
}

/** Returns false when the page is being reloaded in another language. */
export function settleLanguage() {
  const url = new URL(location.href);
  const asked = url.searchParams.get("lang");
  if (asked && LANGUAGES.includes(asked)) {
    try { localStorage.setItem(LANG_KEY, asked); } catch (err) { /* private mode: not kept */ }
    return true;
  }
  const wanted = storedLanguage() || browserLanguage();
  if (LANGUAGES.includes(wanted) && wanted !== LANG) {
    url.searchParams.set("lang", wanted);
    location.replace(url.toString());
    return false;
  }
  return true;
}

/** @param {string} lang */
export function switchLanguage(lang) {
  try { localStorage.setItem(LANG_KEY, lang); } catch (err) { /* private mode: not kept */ }
  const url = new URL(location.href);
  url.searchParams.set("lang", lang);
  location.assign(url.toString());
}
