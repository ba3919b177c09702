// Groups for the signed-in person: theirs with their members, a new one, an invitation sent by username (the people
// found as the name is typed), an admin's alert to the group opened, and the invitations waiting for them, each
// joined or declined in place.

import { api, aborted, Latest } from "./api.js";
import { element, byId, button, counted, listed, afterPause } from "./dom.js";

export class Groups {
  /** @param {import("./account.js").Session} session */
  constructor(session) {
    this.session = session;
    this.latest = new Latest();
    this.people = new Latest();
    this.listeners = [];
    /** The groups, the invitations waiting, and the group opened (its members shown). */
    this.state = { groups: [], invitations: [], open: null };
    byId("group-new").addEventListener("submit", (event) => {
      event.preventDefault();
      this.create(new FormData(event.target).get("name"), event.target);
    });
    const invitee = byId("invite-username");
    invitee.addEventListener("input", afterPause(() => this.findPeople(invitee.value)));
    byId("group-invite").addEventListener("submit", (event) => {
      event.preventDefault();
      this.invite(invitee.value.trim(), event.target);
    });
    byId("group-alert").addEventListener("submit", (event) => {
      event.preventDefault();
      this.alert(new FormData(event.target).get("message"), event.target);
    });
    session.onChange(() => {
      if (session.signedIn) {
        this.refresh();
      } else {
        this.latest.cancel();
        this.state = { groups: [], invitations: [], open: null };
        this.render();
      }
    });
  }

  /** Calls `listener(groups)` whenever the list of groups changes. */
  onChange(listener) {
    this.listeners.push(listener);
  }

  async refresh() {
    try {
      const [groups, invitations] = await this.latest.ask((signal) => Promise.all([
        api.request("/v1/groups?limit=50", { signal }), api.request("/v1/me/invitations?limit=50", { signal })]));
      this.state = { ...this.state, groups: groups.items, invitations: invitations.items };
      this.render();
      for (const listener of this.listeners) listener(this.state.groups);
    } catch (error) {
      if (!aborted(error)) byId("groups-status").textContent = `Could not list your groups: ${error.message}`;
    }
  }

  /** Opens a group: its members, and the form to invite someone. */
  show(id) {
    this.state = { ...this.state, open: id };
    this.render();
    const opened = byId("groups").querySelector(`[data-id="${CSS.escape(id)}"] button`);
    if (opened) opened.focus();
  }

  render() {
    const { groups, invitations, open } = this.state;
    byId("groups").replaceChildren(...groups.map((group) => {
      const item = element("li");
      item.dataset.id = group.id;
      const toggle = button(`${group.name} · ${counted(group.members.length, "member")}`, () => {
        this.state = { ...this.state, open: open === group.id ? null : group.id };
        this.render();
      });
      toggle.setAttribute("aria-expanded", String(open === group.id));
      item.append(toggle);
      if (open === group.id) {
        const names = group.members.map((member) => member.user.username + (member.role === "admin" ? " (admin)" : ""));
        item.append(element("p", `Members: ${listed(names)}.`, "hint"));
      }
      return item;
    }));
    const opened = groups.find((group) => group.id === open);
    const form = byId("group-invite");
    form.hidden = !opened;
    if (opened) byId("group-invite-title").textContent = `Invite someone to ${opened.name}`;
    // Only an admin alerts the group (the server says so too).
    const me = this.session.user && this.session.user.id;
    const admin = Boolean(opened && opened.members.some((member) => member.user.id === me && member.role === "admin"));
    byId("group-alert").hidden = !admin;
    if (admin) byId("group-alert-title").textContent = `Alert everyone in ${opened.name}`;
    byId("invitations").replaceChildren(...invitations.map((invitation) => {
      const item = element("li", `${invitation.invitedBy.username} invites you to ${invitation.groupName}. `);
      const answer = (how) => this.answer(invitation.groupId, how, byId("groups-status"));
      item.append(button("Join", () => answer("accept"), { label: `Join ${invitation.groupName}` }),
        button("Decline", () => answer("decline"), { label: `Decline ${invitation.groupName}` }));
      return item;
    }));
    byId("invitations-title").hidden = invitations.length === 0;
  }

  async create(name, form) {
    const status = byId("groups-status");
    try {
      const group = await api.request("/v1/groups", { method: "POST", body: { name } });
      form.reset();
      status.textContent = `${group.name} is made; invite people to it below.`;
      await this.refresh();
      this.show(group.id);
    } catch (error) {
      status.textContent = `The group was not made: ${error.message}`;
    }
  }

  /** The people whose names begin as typed, offered as the invitation's choices. */
  async findPeople(text) {
    const query = text.trim();
    const choices = byId("invite-people");
    if (query.length < 1) return choices.replaceChildren();
    try {
      const found = await this.people.ask((signal) => api.request(`/v1/users/search?q=${encodeURIComponent(query)}&limit=8`, { signal }));
      choices.replaceChildren(...found.items.map((user) => {
        const option = element("option");
        option.value = user.username;
        if (user.displayName) option.label = user.displayName;
        return option;
      }));
    } catch (error) {
      if (!aborted(error)) choices.replaceChildren();
    }
  }

  async invite(username, form) {
    const status = byId("groups-status");
    const group = this.state.groups.find((g) => g.id === this.state.open);
    if (!group || !username) return;
    try {
      await api.request(`/v1/groups/${encodeURIComponent(group.id)}/invitations`, { method: "POST", body: { username } });
      form.reset();
      status.textContent = `${username} is invited to ${group.name}.`;
    } catch (error) {
      status.textContent = `${username} was not invited: ${error.message}`;
    }
  }

  /** Sends the group opened an admin's alert: every other member who wants alerts is notified. */
  async alert(message, form) {
    const status = byId("groups-status");
    const group = this.state.groups.find((g) => g.id === this.state.open);
    if (!group) return;
    try {
      await api.request(`/v1/groups/${encodeURIComponent(group.id)}/alerts`, { method: "POST", body: { message } });
      form.reset();
      status.textContent = `Your alert went to ${group.name}.`;
    } catch (error) {
      const wait = error.retryAfter ? ` Try again in ${counted(Number(error.retryAfter), "second")}.` : "";
      status.textContent = `The alert was not sent: ${error.message}.${wait}`;
    }
  }

  /** Joins (`accept`) or declines a group's invitation, says so in `status`, and shows the group joined. */
  async answer(groupId, how, status) {
    try {
      await api.request(`/v1/me/invitations/${encodeURIComponent(groupId)}/${how}`, { method: "POST" });
      status.textContent = how === "accept" ? "You joined the group." : "Invitation declined.";
      await this.refresh();
      if (how === "accept") this.show(groupId);
    } catch (error) {
      status.textContent = `Not done: ${error.message}`;
    }
  }
}
