// The signed-in person's people: their status line (what friends and fellow members see, until it expires), their
// friends (with their status), friend requests to answer or withdraw, asking someone, and blocking: the people they
// blocked, each to unblock, and blocking someone by username (which also ends a friendship and pending asks).

import { api, aborted, Latest, instant } from "./api.js";
import { element, byId, button } from "./dom.js";

/** A person as a line: their username, display name, and status when they show one. */
function personLine(user) {
  const name = user.displayName ? `${user.username} (${user.displayName})` : user.username;
  return user.status && user.status.text ? `${name}: “${user.status.text}”` : name;
}

export class People {
  /** @param {import("./account.js").Session} session */
  constructor(session) {
    this.session = session;
    this.latest = new Latest();
    /** What the panel shows, as the server answered it. */
    this.state = { friends: [], incoming: [], sent: [], blocked: [], status: null };
    byId("people").addEventListener("toggle", () => {
      if (byId("people").open && session.signedIn) this.refresh();
    });
    byId("status-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.setStatus(new FormData(event.target));
    });
    byId("status-clear").addEventListener("click", () => this.act("DELETE", "/v1/me/status", "Your status is cleared."));
    byId("friend-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const username = new FormData(event.target).get("username").trim();
      this.act("POST", "/v1/friends/requests", `${username} is asked to be your friend.`, { username }, event.target);
    });
    byId("block-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const username = new FormData(event.target).get("username").trim();
      this.act("PUT", `/v1/users/${encodeURIComponent(username)}/block`, `${username} is blocked.`, undefined, event.target);
    });
    session.onChange(() => {
      byId("people").hidden = !session.signedIn;
      if (!session.signedIn) {
        this.latest.cancel();
        byId("people").open = false;
        this.state = { friends: [], incoming: [], sent: [], blocked: [], status: null };
        this.render();
      }
    });
  }

  /** Reads every list again; one the server does not answer is said, and the others are shown. */
  async refresh() {
    const list = (path, signal) => api.request(path, { signal }).then((page) => page.items);
    const answers = await this.latest.ask((signal) => Promise.allSettled([
      list("/v1/friends?limit=100", signal), list("/v1/friends/requests?direction=incoming&limit=100", signal),
      list("/v1/friends/requests?direction=sent&limit=100", signal), list("/v1/me/blocked?limit=100", signal),
      api.request("/v1/me", { signal })]));
    if (answers.some((answer) => answer.status === "rejected" && aborted(answer.reason))) return;
    const [friends, incoming, sent, blocked, me] = answers.map((answer) => (answer.status === "fulfilled" ? answer.value : null));
    this.state = { friends: friends || [], incoming: incoming || [], sent: sent || [], blocked: blocked || [], status: me && me.status };
    const failed = answers.find((answer) => answer.status === "rejected");
    if (failed) byId("people-status").textContent = `Could not list all of your people: ${failed.reason.message}`;
    this.render();
  }

  render() {
    const { friends, incoming, sent, blocked, status } = this.state;
    byId("status-now").textContent = status && status.text
      ? `Your status: “${status.text}”${status.expiresAt ? ` until ${new Date(status.expiresAt).toLocaleString()}` : ""}.`
      : "You show no status.";
    byId("status-clear").hidden = !(status && status.text);
    const people = (id, entries) => byId(id).replaceChildren(...(entries.length ? entries : [element("li", "Nobody.", "hint")]));
    people("friends", friends.map((friend) => {
      const name = friend.user.username;
      const item = element("li", `${personLine(friend.user)} `);
      item.dataset.username = name;
      item.append(button("Unfriend", () => this.act("DELETE", `/v1/friends/${encodeURIComponent(name)}`, `${name} is no longer your friend.`),
        { label: `Unfriend ${name}` }), " ", this.blockButton(name));
      return item;
    }));
    people("requests-incoming", incoming.map((request) => {
      const name = request.from.username;
      const item = element("li", `${personLine(request.from)} `);
      item.dataset.username = name;
      const path = `/v1/friends/requests/${encodeURIComponent(name)}`;
      item.append(button("Accept", () => this.act("POST", `${path}/accept`, `${name} is your friend.`), { label: `Accept ${name}` }), " ",
        button("Decline", () => this.act("POST", `${path}/decline`, `${name}'s request is declined.`), { label: `Decline ${name}` }), " ",
        this.blockButton(name));
      return item;
    }));
    people("requests-sent", sent.map((request) => {
      const name = request.to.username;
      const item = element("li", `${name} `);
      item.dataset.username = name;
      item.append(button("Withdraw", () => this.act("DELETE", `/v1/friends/${encodeURIComponent(name)}`, `Your request to ${name} is withdrawn.`),
        { label: `Withdraw your request to ${name}` }));
      return item;
    }));
    // A page of blocks is like a page of friends ({user, since}); a bare person is taken as well.
    people("blocked", blocked.map((entry) => {
      const user = entry.user || entry;
      const item = element("li", `${user.username} `);
      item.dataset.username = user.username;
      item.append(button("Unblock", () => this.act("DELETE", `/v1/users/${encodeURIComponent(user.username)}/block`, `${user.username} is unblocked.`),
        { label: `Unblock ${user.username}` }));
      return item;
    }));
  }

  blockButton(name) {
    return button("Block", () => this.act("PUT", `/v1/users/${encodeURIComponent(name)}/block`, `${name} is blocked.`), { label: `Block ${name}` });
  }

  async setStatus(form) {
    const body = { text: form.get("text") };
    if (form.get("until")) body.expiresAt = instant(new Date(form.get("until")));
    await this.act("PUT", "/v1/me/status", "Your status is set.", body, byId("status-form"));
  }

  /** Sends one change, says how it went, and reads the panel again. */
  async act(method, path, done, body, form) {
    const status = byId("people-status");
    try {
      await api.request(path, { method, body });
      if (form) form.reset();
      status.textContent = done;
      await this.refresh();
    } catch (error) {
      status.textContent = `Not done: ${error.message}`;
    }
  }
}
