// The page's client of the service: every route it calls, by name, with its method and path
// (tests/test_web_api_client.py checks each against the service's /openapi.json, so a renamed
// route fails the suite), and the jobs it starts and polls.
import { LANG, _ } from "./i18n.js";

// name → [method, path]; a {field} in a path is filled from the call's params
export const ROUTES = {
  validate: ["POST", "/validate"],
  resolve: ["POST", "/resolve"],
  hand: ["POST", "/hand"],
  odds: ["POST", "/odds"],
  replay: ["POST", "/goldfish/replay"],
  cards: ["GET", "/cards"],
  card: ["GET", "/cards/{game}/{number}"],
  games: ["GET", "/games"],
  playtest: ["GET", "/games/{game}/playtest"],
  format: ["GET", "/formats/{format_id}"],
  sweep: ["POST", "/sweeps"],
  tune: ["POST", "/tunes"],
  job: ["GET", "/jobs/{job_id}"],
  jobResult: ["GET", "/jobs/{job_id}/result"],
  decks: ["GET", "/decks"],
  newDeck: ["POST", "/decks"],
  deck: ["GET", "/decks/{deck_id}"],
  saveDeck: ["PUT", "/decks/{deck_id}"],
};

/** @typedef {keyof typeof ROUTES} Route */

/**
 * @typedef {object} Call
 * @property {Record<string, string>} [params] the path's {fields}
 * @property {Record<string, string> | URLSearchParams} [query]
 * @property {unknown} [body] sent as JSON
 * @property {Record<string, string>} [headers]
 * @property {AbortSignal} [signal]
 */

/**
 * @typedef {object} Job a job's state (GET /jobs/{job_id})
 * @property {string} status queued, running, done, failed or cancelled
 * @property {string} [error]
 * @property {string} result_url
 * @property {number} [games_done]
 * @property {number} [games]
 */

/** A failed answer, with its HTTP status. */
export class ApiError extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** The path of a route, its fields filled. @param {Route} route @param {Call} call */
function urlOf(route, call) {
  const path = ROUTES[route][1].replace(/\{(\w+)\}/g, (_whole, k) => {
    const value = call.params ? call.params[k] : undefined;
    if (value === undefined) throw new Error(_("the page asked for {route} without its {field}", { route, field: k }));
    return encodeURIComponent(value);
  });
  const query = call.query ? new URLSearchParams(call.query).toString() : "";
  return query ? `${path}?${query}` : path;
}

/**
 * The service's answer, its body read as JSON or text (null for 204).
 * @param {Route} route
 * @param {Call} [call]
 * @returns {Promise<any>}
 */
export async function api(route, call = {}) {
  return bodyOf(await apiResponse(route, call));
}

/** @param {Response} response @returns {Promise<any>} */
async function bodyOf(response) {
  if (response.status === 204) return null;
  const type = response.headers.get("content-type") || "";
  return type.includes("json") ? response.json() : response.text();
}

/**
 * The service's response, for a caller that reads its headers too; an Error when it fails.
 * @param {Route} route
 * @param {Call} [call]
 */
export function apiResponse(route, call = {}) {
  return send(ROUTES[route][0], urlOf(route, call), call);
}

/**
 * A URL the service gave (a job's Location, its result_url), asked as the route it is one of.
 * @param {Route} route
 * @param {string} url
 * @param {Call} [call]
 * @returns {Promise<any>}
 */
export async function fetchAt(route, url, call = {}) {
  const pattern = ROUTES[route][1].replace(/\{\w+\}/g, "[^/?#]+");
  if (!new RegExp(`^${pattern}$`).test(url)) {
    throw new Error(_("the service gave {url} where the page expected {route}", { url, route }));
  }
  return bodyOf(await send(ROUTES[route][0], url, call));
}

/** @param {string} method @param {string} url @param {Call} call */
async function send(method, url, call) {
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: { "Content-Type": "application/json", "Accept-Language": LANG,
        ...(call.headers || {}) },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: call.signal,
    });
  } catch (err) {
    if (err instanceof Error && err.name === "AbortError") throw err; // the caller's own timeout: it decides
    throw new Error(_("the service cannot be reached ({error}); your deck is kept",
      { error: err instanceof Error ? err.message : String(err) }));
  }
  if (!response.ok) {
    let detail = response.statusText;
    try { detail = (await response.json()).detail || detail; } catch (err) { /* not JSON */ }
    throw new ApiError(response.status, `${response.status}: ${detail}`);
  }
  return response;
}

/**
 * A job's state; a poll with no answer in 15 s is asked again on a new request, so a lost
 * connection delays the page instead of stalling it (a run under load stayed at "Starting…").
 * @param {string} location the job's URL (the Location of the POST that started it)
 * @returns {Promise<Job>}
 */
async function pollJob(location) {
  for (;;) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 15000);
    try {
      return await fetchAt("job", location, { signal: abort.signal });
    } catch (err) {
      if (!(err instanceof Error) || err.name !== "AbortError") throw err;
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * @typedef {object} JobWords how a job's caller follows it
 * @property {(job: Job) => void} progress told each time the job is still queued or running
 * @property {number} every how often it is asked, in ms
 * @property {string} cancelled the error when it was cancelled
 * @property {(error: string) => string} failed the error when it failed
 */

/**
 * Starts a job (POST: 202 with its Location), follows it until it ends and returns its result.
 * @param {"sweep" | "tune"} route
 * @param {unknown} body
 * @param {JobWords} how
 * @returns {Promise<any>}
 */
export async function runJob(route, body, how) {
  const response = await apiResponse(route, { body });
  const location = response.headers.get("Location") || "";
  for (;;) {
    const job = await pollJob(location);
    if (job.status === "cancelled") throw new Error(how.cancelled);
    if (job.status === "done") return fetchAt("jobResult", job.result_url);
    if (job.status !== "queued" && job.status !== "running") throw new Error(how.failed(job.error || ""));
    how.progress(job);
    await new Promise((done) => setTimeout(done, how.every));
  }
}
