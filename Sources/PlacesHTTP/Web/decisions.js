// Groups and decisions for the signed-in person: the list, one decision shown at a time, live over its event stream
// (opened only while it is shown, so a person stays within the 5 streams an account may hold and the browser's six
// connections to a host), and a ballot ranked by dragging or from the keyboard.

import { EventStream } from "./stream.js";
import { element } from "./place.js";

export class Decisions {
  /** @param {import("./account.js").Session} session */
  constructor(session) {
    this.session = session;
    this.section = document.getElementById("decision");
    this.stream = null;
    this.decision = null;
    this.ranking = [];
    // Only the latest list and the latest decision asked for are shown: an older answer that arrives late is dropped.
    this.listed = 0;
    this.asked = 0;
    this.dragged = null;
    document.getElementById("decision-close").addEventListener("click", () => {
      const id = this.decision && this.decision.id;
      this.hide();
      // The keyboard goes back to the decision in the list.
      const button = id && document.querySelector(`#decisions button[data-id="${CSS.escape(id)}"]`);
      if (button) button.focus();
    });
    document.getElementById("ballot-submit").addEventListener("click", () => this.castBallot());
    session.onChange(() => {
      document.getElementById("together").hidden = !session.signedIn;
      if (session.signedIn) {
        this.refresh();
      } else {
        // Nothing of the last person's stays for the next one.
        this.listed += 1;
        this.hide();
        document.getElementById("groups").replaceChildren();
        document.getElementById("decisions").replaceChildren();
      }
    });
  }

  /** Lists the person's groups and decisions (newest first). */
  async refresh() {
    const mine = ++this.listed;
    try {
      const [groups, decisions] = await Promise.all([this.session.api("/v1/groups?limit=50"), this.session.api("/v1/decisions?limit=20")]);
      if (mine !== this.listed) return;
      document.getElementById("groups").replaceChildren(
        ...groups.items.map((group) => element("li", `${group.name} · ${(group.members || []).length} members`)),
      );
      document.getElementById("decisions").replaceChildren(...decisions.items.map((decision) => {
        const item = element("li");
        const button = element("button");
        button.type = "button";
        button.dataset.id = decision.id;
        button.append(element("span", decision.title || "A decision"), element("span", ` · ${decision.method} · ${decision.status}`, "kind"));
        button.addEventListener("click", () => this.show(decision.id));
        item.append(button);
        return item;
      }));
    } catch (error) {
      if (mine === this.listed) {
        document.getElementById("decisions").replaceChildren(element("li", `Could not list your decisions: ${error.message}`));
      }
    }
  }

  /** Shows one decision and follows it live until it is closed or another is shown. */
  async show(id) {
    const mine = ++this.asked;
    let decision;
    try {
      decision = await this.session.api(`/v1/decisions/${encodeURIComponent(id)}`);
    } catch (error) {
      if (mine === this.asked) document.getElementById("decisions-status").textContent = `Could not open the decision: ${error.message}`;
      return;
    }
    if (mine !== this.asked || !this.session.signedIn) return;
    this.hide();
    document.getElementById("decisions-status").textContent = "";
    this.decision = decision;
    this.ranking = decision.myBallot && decision.myBallot.length ? [...decision.myBallot] : [];
    for (const candidate of decision.candidates) {
      if (!this.ranking.includes(candidate.placeId)) this.ranking.push(candidate.placeId);
    }
    this.section.dataset.events = "0";
    delete this.section.dataset.lastEvent;
    this.render(decision);
    this.renderRanking();
    this.section.hidden = false;
    this.section.focus();
    if (decision.status === "active") {
      this.stream = new EventStream(`/v1/decisions/${encodeURIComponent(id)}/events`, () => this.session.token,
        (name, data) => this.event(name, data), (state) => (this.section.dataset.stream = state));
    }
  }

  hide() {
    this.asked += 1;
    if (this.stream) this.stream.close();
    this.stream = null;
    this.decision = null;
    this.section.hidden = true;
  }

  /** An event of the decision's stream: it carries the decision as the reader may see it now. */
  event(name, data) {
    if (!this.decision || !data.decision || data.decision.id !== this.decision.id) return;
    this.section.dataset.events = String(Number(this.section.dataset.events) + 1);
    this.section.dataset.lastEvent = name;
    this.decision = data.decision;
    const inBallot = document.getElementById("decision-ballot").contains(document.activeElement);
    this.render(data.decision, name === "ballot" && data.voter ? `${data.voter.username} voted.` : undefined);
    if (name === "ended") {
      // The ballot is gone: the keyboard moves to the decision, whose result is shown.
      if (inBallot) this.section.focus();
      this.refresh();
    }
  }

  name(placeId) {
    const candidate = this.decision.candidates.find((c) => c.placeId === placeId);
    return candidate && candidate.name ? candidate.name : placeId;
  }

  render(decision, news) {
    document.getElementById("decision-title").textContent = decision.title || "A decision";
    const me = this.session.user && this.session.user.username;
    const participant = decision.participants.some((p) => p.user.username === me);
    const waiting = decision.waitingFor.length ? `Waiting for ${decision.waitingFor.join(", ")}.` : "";
    const state = document.getElementById("decision-state");
    state.textContent = [news, `${decision.method} · ${decision.status} · ${decision.ballotCount} ballots.`, decision.status === "active" ? waiting : ""]
      .filter(Boolean).join(" ");
    const ballot = document.getElementById("decision-ballot");
    ballot.hidden = !(decision.status === "active" && decision.method === "tiered" && participant);
    document.getElementById("ballot-submit").textContent = decision.myBallot ? "Change my ballot" : "Cast my ballot";
    const result = document.getElementById("decision-result");
    const shown = decision.result || (decision.tallyVisible ? decision.provisional : null);
    result.hidden = !shown;
    if (shown) {
      const heading = element("h3", decision.result ? `Result: ${this.name(shown.winner)}` : `So far: ${this.name(shown.winner)} leads`);
      const order = element("ol");
      order.append(...(shown.ranking || []).map((id) => element("li", this.name(id))));
      const parts = [heading, order];
      if (decision.result && shown.reasoning) parts.push(element("p", shown.reasoning, "hint"));
      result.replaceChildren(...parts);
      result.dataset.winner = shown.winner || "";
      result.dataset.final = String(Boolean(decision.result));
    }
  }

  /** The ballot's order as a list: each place can be dragged, or moved with Alt+↑ / Alt+↓ or its buttons. */
  renderRanking(focusIndex) {
    const list = document.getElementById("ranking");
    list.replaceChildren(...this.ranking.map((placeId, index) => {
      const item = element("li");
      item.tabIndex = 0;
      item.draggable = true;
      item.dataset.id = placeId;
      const label = `${this.name(placeId)}, ${index + 1} of ${this.ranking.length}`;
      item.setAttribute("aria-label", label);
      item.append(element("span", this.name(placeId), "choice"));
      const up = element("button", "↑");
      up.type = "button";
      up.setAttribute("aria-label", `Move ${this.name(placeId)} up`);
      up.disabled = index === 0;
      up.addEventListener("click", () => this.move(index, index - 1, true));
      const down = element("button", "↓");
      down.type = "button";
      down.setAttribute("aria-label", `Move ${this.name(placeId)} down`);
      down.disabled = index === this.ranking.length - 1;
      down.addEventListener("click", () => this.move(index, index + 1, true));
      item.append(up, down);
      item.addEventListener("keydown", (event) => {
        if (event.target !== item || !event.altKey) return;
        if (event.key === "ArrowUp") this.move(index, index - 1);
        else if (event.key === "ArrowDown") this.move(index, index + 1);
        else return;
        event.preventDefault();
      });
      item.addEventListener("dragstart", (event) => {
        this.dragged = index;
        event.dataTransfer.setData("text/plain", String(index));
        event.dataTransfer.effectAllowed = "move";
        item.classList.add("dragging");
      });
      item.addEventListener("dragend", () => {
        this.dragged = null;
        item.classList.remove("dragging");
      });
      item.addEventListener("dragover", (event) => event.preventDefault());
      item.addEventListener("drop", (event) => {
        event.preventDefault();
        // Only a place of this list moves (text dropped from elsewhere does nothing).
        if (this.dragged !== null) this.move(this.dragged, index);
        this.dragged = null;
      });
      return item;
    }));
    if (focusIndex !== undefined && list.children[focusIndex]) list.children[focusIndex].focus();
  }

  /** Moves a place of the ballot from one position to another, keeping the keyboard on it (or on its button). */
  move(from, to, onButton = false) {
    if (to < 0 || to >= this.ranking.length || from === to) return;
    const [placeId] = this.ranking.splice(from, 1);
    this.ranking.splice(to, 0, placeId);
    this.renderRanking(to);
    if (onButton) {
      const buttons = document.getElementById("ranking").children[to].querySelectorAll("button");
      const button = to < from ? buttons[0] : buttons[1];
      (button.disabled ? document.getElementById("ranking").children[to] : button).focus();
    }
    document.getElementById("decision-state").textContent = `${this.name(placeId)} is now ${to + 1} of ${this.ranking.length}.`;
  }

  /** Sends the ballot. What it changes is shown when the decision's stream brings it, as for everyone else's. */
  async castBallot() {
    const state = document.getElementById("decision-state");
    try {
      await this.session.api(`/v1/decisions/${encodeURIComponent(this.decision.id)}/ballot`, {
        method: "PUT", body: { ranking: this.ranking },
      });
      state.textContent = "Ballot cast; the decision's stream brings what it changed.";
    } catch (error) {
      state.textContent = `The ballot was not cast: ${error.message}`;
    }
  }
}
