// The signed-in person's notifications: one live stream for the page, a badge counting the unread ones, and each
// notification an action (open the decision, the group, or answer the invitation) that marks it read when it is seen.

import { api } from "./api.js";
import { element, byId, button } from "./dom.js";

export class Notifications {
  /**
   * @param {import("./account.js").Session} session
   * @param {{decision: (id: string) => void, group: (id: string) => void, changed: () => void,
   *          answer: (groupId: string, how: "accept" | "decline", status: HTMLElement) => void}} actions
   */
  constructor(session, actions) {
    this.session = session;
    this.actions = actions;
    this.section = byId("notifications");
    this.toggle = byId("notifications-toggle");
    /** The notifications shown, newest first, and which of them are unread. */
    this.state = { items: [], unread: 0 };
    this.toggle.addEventListener("click", () => {
      this.section.hidden = !this.section.hidden;
      this.toggle.setAttribute("aria-expanded", String(!this.section.hidden));
      if (!this.section.hidden) this.seen();
    });
    byId("notifications-read").addEventListener("click", () => this.readAll());
    session.onChange(() => {
      this.toggle.hidden = !session.signedIn;
      if (!session.signedIn) {
        this.section.hidden = true;
        this.toggle.setAttribute("aria-expanded", "false");
        this.state = { items: [], unread: 0 };
        this.render();
      }
      session.watchNotifications((name, data) => this.event(name, data), (state) => (this.toggle.dataset.stream = state));
    });
  }

  event(name, data) {
    if (name === "snapshot") {
      this.state = { items: data.items, unread: data.unreadCount };
    } else if (name === "notification") {
      this.state = { items: [data, ...this.state.items.filter((item) => item.id !== data.id)], unread: this.state.unread + 1 };
      if (data.kind === "decisionStarted" || data.kind === "decisionCompleted" || data.kind === "groupInvitation") this.actions.changed();
    } else {
      return;
    }
    this.render();
    if (!this.section.hidden) this.seen();
  }

  render() {
    byId("unread").textContent = this.state.unread ? String(this.state.unread) : "";
    this.toggle.setAttribute("aria-label", this.state.unread ? `Notifications, ${this.state.unread} unread` : "Notifications");
    const list = byId("notification-list");
    list.replaceChildren(...this.state.items.map((item) => {
      const entry = element("li", undefined, item.readAt ? "read" : "unread");
      entry.dataset.id = item.id;
      entry.append(element("span", item.message));
      const subject = item.subject || {};
      if (item.kind === "groupInvitation" && subject.groupId) {
        const answer = (how) => this.actions.answer(subject.groupId, how, byId("notifications-status"));
        entry.append(button("Join", () => answer("accept")), button("Decline", () => answer("decline")));
      } else if (subject.decisionId) {
        entry.append(button("Open the decision", () => this.actions.decision(subject.decisionId)));
      } else if (subject.groupId) {
        entry.append(button("Open the group", () => this.actions.group(subject.groupId)));
      }
      return entry;
    }));
    if (!this.state.items.length) list.append(element("li", "Nothing yet.", "hint"));
  }

  /** The list is open: what it shows unread is marked read, on the server too. The badge keeps counting those it
   * does not show (the stream's snapshot holds the newest only; the count is of them all). */
  async seen() {
    const unread = this.state.items.filter((item) => !item.readAt);
    if (!unread.length) return;
    const now = new Date().toISOString();
    this.state = {
      items: this.state.items.map((item) => (item.readAt ? item : { ...item, readAt: now })),
      unread: Math.max(0, this.state.unread - unread.length),
    };
    this.render();
    await Promise.all(unread.map((item) => api.request(`/v1/notifications/${encodeURIComponent(item.id)}/read`, { method: "POST" })
      .catch((error) => console.warn("could not mark a notification read:", error.message))));
  }

  async readAll() {
    await api.request("/v1/notifications/read-all", { method: "POST" }).catch(() => {});
    this.state = { items: this.state.items.map((item) => ({ ...item, readAt: item.readAt || new Date().toISOString() })), unread: 0 };
    this.render();
  }
}
