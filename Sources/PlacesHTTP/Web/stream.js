// A Server-Sent Events stream read through the page's API client, so that it can send the bearer header (a
// browser's EventSource cannot). It parses `id:`, `event:` and `data:` lines, reconnects after the `retry:` the server asks for with
// `Last-Event-ID` (so nothing is missed and nothing comes twice), and stops for good on 204 (nothing more to
// stream), on 401 or 403 (no longer allowed), or when closed.

import { api } from "./api.js";

export class EventStream {
  /**
   * @param {string} path the stream's address (the client sends the bearer token it holds at each connection)
   * @param {(name: string, data: any) => void} onEvent called for each event, with its JSON data
   * @param {(state: string) => void} onState "live", "reconnecting", "ended" or "refused: …"
   */
  constructor(path, onEvent, onState = () => {}) {
    this.path = path;
    this.onEvent = onEvent;
    this.onState = onState;
    this.lastId = null;
    this.retry = 2000;
    this.controller = null;
    this.closed = false;
    this.run();
  }

  close() {
    this.closed = true;
    if (this.controller) this.controller.abort();
  }

  async run() {
    // After a failed attempt: the server's `retry:` at first, then twice as long each time up to a minute (or its
    // Retry-After, when longer), with some jitter so that tabs do not come back together.
    let failures = 0;
    while (!this.closed) {
      this.controller = new AbortController();
      let ended = false;
      let wait = 0;
      try {
        const response = await api.stream(this.path, { lastEventId: this.lastId, signal: this.controller.signal });
        if (response.status === 204) {
          ended = true;
        } else if (!response.ok) {
          const body = await response.json().catch(() => ({}));
          const message = body.error ? body.error.message : `${response.status}`;
          // Too many streams or a busy server: try again later. Anything else will not get better by retrying.
          if (response.status !== 429 && response.status !== 503) {
            this.closed = true;
            this.onState(`refused: ${message}`);
            return;
          }
          wait = Number(response.headers.get("Retry-After") || 0) * 1000;
          this.onState(`reconnecting: ${message}`);
        } else {
          failures = 0;
          this.onState("live");
          ended = await this.read(response.body.getReader());
        }
      } catch (error) {
        if (this.closed) return;
        if (!(error instanceof TypeError) && error.name !== "AbortError") console.warn("event stream:", error);
      } finally {
        // Whatever ended this attempt, its connection is let go: it would hold one of the account's streams.
        this.controller.abort();
      }
      if (ended) {
        this.closed = true;
        this.onState("ended");
        return;
      }
      if (this.closed) return;
      failures += 1;
      if (!wait) this.onState("reconnecting");
      const backoff = Math.min(60000, this.retry * 2 ** (failures - 1));
      await new Promise((resolve) => setTimeout(resolve, Math.max(wait, backoff) * (1 + Math.random() / 4)));
    }
  }

  /** Reads events until the stream closes; true when its last event was `ended`. */
  async read(reader) {
    const decoder = new TextDecoder();
    let buffer = "";
    let event = { id: null, name: "message", data: [] };
    let last = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return last === "ended";
      buffer += decoder.decode(value, { stream: true });
      let newline;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        // A CR at the end of what came may be the first half of a CRLF: wait for the rest.
        if (buffer[newline] === "\r" && newline === buffer.length - 1) break;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
        if (line === "") {
          if (event.data.length > 0) {
            if (event.id !== null) this.lastId = event.id;
            last = event.name;
            this.onEvent(event.name, JSON.parse(event.data.join("\n")));
          }
          event = { id: null, name: "message", data: [] };
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "id") event.id = text;
        else if (field === "event") event.name = text;
        else if (field === "data") event.data.push(text);
        else if (field === "retry" && /^\d+$/.test(text)) this.retry = Number(text);
      }
    }
  }
}
