// The page's one API client: every request goes through it, with the bearer header when signed in, one error shape
// (ApiError: the status, the stable code and the message), and an AbortSignal for an answer that is no longer wanted
// (a search typed further, a decision closed).

/** An error answer: its HTTP status, its stable code and its message (and when to try again, for 429 and 503). */
export class ApiError extends Error {
  constructor(status, body, retryAfter = null) {
    super(body && body.error ? body.error.message : `the server answered ${status}`);
    this.status = status;
    this.code = body && body.error ? body.error.code : undefined;
    this.field = body && body.error ? body.error.field : undefined;
    /** Seconds, from the answer's Retry-After. */
    this.retryAfter = retryAfter;
  }
}

/** An instant as the API's query strings and bodies take it: ISO-8601 in UTC, to the second. */
export function instant(date = new Date()) {
  return date.toISOString().replace(/\.\d+Z$/, "Z");
}

/** True for the error an aborted request throws: nobody wants its answer, so nobody reports it. */
export function aborted(error) {
  return error && error.name === "AbortError";
}

export class Api {
  constructor() {
    /** The bearer token, or null. */
    this.token = null;
    /** Called when the server refuses the token (it expired or was revoked elsewhere). */
    this.onUnauthorized = () => {};
  }

  /**
   * Calls the API: JSON in and out (`accept` for another media type), or a `file` (a File or Blob) sent as the body
   * itself with its own type, as a photo's upload is. An error answer throws an ApiError; a request aborted through
   * `signal` throws an AbortError.
   */
  async request(path, { method = "GET", body, file, signal, accept = "application/json" } = {}) {
    const headers = { Accept: accept };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (file) headers["Content-Type"] = file.type || "application/octet-stream";
    else if (body !== undefined) headers["Content-Type"] = "application/json";
    const sent = file || (body === undefined ? undefined : JSON.stringify(body));
    const response = await fetch(path, { method, headers, signal, body: sent });
    const answer = response.status === 204 ? null : await response.json().catch(() => null);
    if (!response.ok) {
      if (response.status === 401 && this.token) this.onUnauthorized();
      throw new ApiError(response.status, answer, response.headers.get("Retry-After"));
    }
    return answer;
  }

  /** Opens an event stream (the raw response, to be read as it comes), with the bearer header. */
  stream(path, { lastEventId, signal } = {}) {
    const headers = { Accept: "text/event-stream" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (lastEventId) headers["Last-Event-ID"] = lastEventId;
    return fetch(path, { headers, signal, cache: "no-store" });
  }
}

/** The page's client, shared by every view. */
export const api = new Api();

/**
 * A question asked again and again (search as you type, the map's places): each new ask aborts the one before, so
 * only the latest answer arrives. `run(signal)` does the asking.
 */
export class Latest {
  constructor() {
    this.controller = null;
  }

  async ask(run) {
    if (this.controller) this.controller.abort();
    const controller = (this.controller = new AbortController());
    return run(controller.signal);
  }

  cancel() {
    if (this.controller) this.controller.abort();
    this.controller = null;
  }
}
