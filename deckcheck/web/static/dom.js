// The page's small DOM helpers: elements by id (typed, so tsc checks what is read of them), a
// message beside a control, a button, a download.
import { _ } from "./i18n.js";

/**
 * The element with this id, of this class; a missing or other element is the page's own bug,
 * thrown at once rather than read as null later.
 * @template {Element} T
 * @param {string} id
 * @param {{ new (): T }} type
 * @returns {T}
 */
export function el(id, type) {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(_("the page lacks the element #{id} it expects", { id }));
  return found;
}

/** @param {string} id @returns {HTMLElement} */
export const $ = (id) => el(id, HTMLElement);

/** The element with this id if the page has it now (some are drawn later). @param {string} id */
export const find = (id) => document.getElementById(id);

/** @param {string} id */
export const input = (id) => el(id, HTMLInputElement);

/** @param {string} id */
export const select = (id) => el(id, HTMLSelectElement);

/** @param {string} id */
export const textarea = (id) => el(id, HTMLTextAreaElement);

/** @param {string} id */
export const buttonOf = (id) => el(id, HTMLButtonElement);

/** What went wrong, as words: an Error's message, else the value. @param {unknown} err */
export function errorText(err) {
  return err instanceof Error ? err.message : String(err);
}

/**
 * A message beside the control or panel it belongs to (near: that element's id), else at the
 * top of the page; an empty message clears it, as a control does when it next succeeds.
 * @param {string} message
 * @param {string} [near]
 */
export function show(message, near) {
  const anchor = near ? find(near) : null;
  if (!anchor) {
    const box = $("message");
    box.textContent = message;
    box.hidden = !message;
    return;
  }
  const id = `${near}-message`;
  let note = find(id);
  if (!message) {
    if (note) note.remove();
    anchor.removeAttribute("aria-describedby");
    return;
  }
  if (!note) {
    note = document.createElement("p");
    note.id = id;
    note.className = "near-message";
    note.setAttribute("role", "alert");
    anchor.after(note);
  }
  note.textContent = message;
  anchor.setAttribute("aria-describedby", id);
}

/**
 * @param {string} text
 * @param {string} label its accessible name
 * @param {(ev: MouseEvent) => unknown} onClick
 */
export function button(text, label, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.setAttribute("aria-label", label);
  b.addEventListener("click", onClick);
  return b;
}

/** A file the browser saves. @param {string} name @param {string} text @param {string} type */
export function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

/** The conditions written in the odds panel, one a line. */
export function conditions() {
  return textarea("want").value.split("\n").map((s) => s.trim()).filter(Boolean);
}

/**
 * A long task started from a button: the button disabled until it ends; a failure clears the
 * task's status line and shows its message (failed(the error's words)) beside the button.
 * @param {string} id the button
 * @param {string} status the status line
 * @param {(error: string) => string} failed
 * @param {() => Promise<void>} task
 */
export async function whileRunning(id, status, failed, task) {
  buttonOf(id).disabled = true;
  try {
    await task();
  } catch (err) {
    $(status).textContent = "";
    show(failed(errorText(err)), id);
  } finally {
    buttonOf(id).disabled = false;
  }
}
