// A decision's conversation, for its participants and its starter: the messages under the decision (read newest
// first from the API, shown oldest first, as a conversation reads), earlier ones on demand, new ones live from the
// decision's stream, and a box to post. Messages are kept by id, so one that comes both as the answer to the post and
// as the stream's event is shown once.

import { api, aborted, Latest } from "./api.js";
import { element, byId } from "./dom.js";

const PAGE = 20;

export class Conversation {
  /** @param {() => string | null} me the signed-in person's username */
  constructor(me) {
    this.me = me;
    this.section = byId("conversation");
    this.reads = new Latest();
    /** The decision whose messages these are, the messages by id (oldest first), and the cursor to earlier ones. */
    this.state = { decisionId: null, open: false, messages: new Map(), order: [], earlier: null };
    byId("message-new").addEventListener("submit", (event) => {
      event.preventDefault();
      this.post();
    });
    byId("messages-earlier").addEventListener("click", () => this.load(this.state.earlier));
  }

  /** Shows the conversation of `decision` (read again when it is another one), or hides it from anyone else. */
  show(decision, user) {
    const allowed = Boolean(user) && (decision.createdBy === user.id || decision.participants.some((p) => p.user.username === user.username));
    if (!allowed) {
      this.hide();
      return;
    }
    const open = decision.status === "active";
    if (this.state.decisionId === decision.id) {
      this.state = { ...this.state, open };
      this.render();
      return;
    }
    this.state = { decisionId: decision.id, open, messages: new Map(), order: [], earlier: null };
    byId("message-status").textContent = "";
    byId("message-text").value = "";
    this.section.hidden = false;
    this.render();
    this.load(null);
  }

  hide() {
    this.reads.cancel();
    this.state = { decisionId: null, open: false, messages: new Map(), order: [], earlier: null };
    this.section.hidden = true;
    byId("messages").replaceChildren();
  }

  /** Reads a page of messages: the newest (no cursor), or those before the ones shown. */
  async load(cursor) {
    const decisionId = this.state.decisionId;
    const query = `limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    try {
      const page = await this.reads.ask((signal) =>
        api.request(`/v1/decisions/${encodeURIComponent(decisionId)}/messages?${query}`, { signal }));
      if (this.state.decisionId !== decisionId) return;
      // The API's order is the conversation's (messages of the same second included), oldest first here: an earlier
      // page goes above what is shown, and what the stream brought before the newest page came stays after it.
      const ids = page.items.map((message) => message.id).reverse();
      for (const message of page.items) this.state.messages.set(message.id, message);
      const order = ids.concat(this.state.order.filter((id) => !ids.includes(id)));
      this.state = { ...this.state, order, earlier: page.nextCursor || null };
      this.render();
      if (cursor) {
        byId("message-status").textContent = page.items.length ? "Earlier messages shown above." : "";
        // Its button is gone once nothing is earlier: the keyboard goes to the messages rather than nowhere.
        if (!this.state.earlier && document.activeElement === document.body) byId("messages-log").focus();
      }
    } catch (error) {
      if (!aborted(error) && this.state.decisionId === decisionId) byId("message-status").textContent = `Could not read the messages: ${error.message}`;
    }
  }

  /** A message of the decision's stream. */
  arrive(message) {
    if (message && message.decisionId === this.state.decisionId) this.add(message);
  }

  /** A new message (posted here, or from the stream), last, unless it is shown already. */
  add(message) {
    if (this.state.messages.has(message.id)) return;
    this.state.messages.set(message.id, message);
    this.state = { ...this.state, order: [...this.state.order, message.id] };
    this.render();
  }

  render() {
    const list = byId("messages");
    list.replaceChildren(...this.state.order.map((id) => {
      const message = this.state.messages.get(id);
      const mine = message.author.username === this.me();
      const item = element("li", undefined, mine ? "own" : undefined);
      item.dataset.id = message.id;
      // The time of day for today's, with the day for older ones.
      const at = new Date(message.createdAt);
      const today = at.toDateString() === new Date().toDateString();
      const when = element("time", at.toLocaleString([], today ? { hour: "2-digit", minute: "2-digit" } : { dateStyle: "medium", timeStyle: "short" }));
      when.dateTime = message.createdAt;
      item.append(element("span", mine ? "You" : message.author.username, "author"), " ", when, element("p", message.text));
      return item;
    }));
    byId("messages-empty").hidden = this.state.order.length > 0;
    byId("messages-earlier").hidden = !this.state.earlier;
    byId("message-new").hidden = !this.state.open;
    byId("messages-closed").hidden = this.state.open;
  }

  /** Posts the box's text; the message is shown from the answer (or from the stream, whichever comes first). */
  async post() {
    const field = byId("message-text");
    const text = field.value.trim();
    const status = byId("message-status");
    if (!text) {
      status.textContent = "Write something first.";
      return;
    }
    const decisionId = this.state.decisionId;
    status.textContent = "";
    try {
      const message = await api.request(`/v1/decisions/${encodeURIComponent(decisionId)}/messages`, { method: "POST", body: { text } });
      if (this.state.decisionId !== decisionId) return;
      status.textContent = "";
      if (field.value.trim() === text) field.value = "";
      this.add(message);
    } catch (error) {
      if (this.state.decisionId !== decisionId) return;
      // Too many at once: the server says when to try again. Anything else (the decision has ended) as it says it.
      status.textContent = error.status === 429
        ? `Not sent: too many messages at once. Try again in ${error.retryAfter ? `${error.retryAfter} s` : "a minute"}.`
        : `Not sent: ${error.message}`;
    }
  }
}
