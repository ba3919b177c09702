// Groups and decisions for the signed-in person: the list, one decision shown at a time, live over its event stream
// (opened only while it is shown, so a person stays within the 5 streams an account may hold and the browser's six
// connections to a host), its swipe round (swipe.js), a ballot ranked by dragging or from the keyboard, and its
// conversation (conversation.js).

import { EventStream } from "./stream.js";
import { api, aborted, Latest } from "./api.js";
import { element, byId, button, counted, listed } from "./dom.js";
import { SwipePane } from "./swipe.js";
import { Conversation } from "./conversation.js";

const METHOD_WORDS = { random: "random draw", tiered: "ranked vote", manual: "the admin's pick" };
const STATUS_WORDS = { active: "open", completed: "decided", expired: "expired", closed: "closed", cancelled: "cancelled" };

export class Decisions {
  /**
   * @param {import("./account.js").Session} session
   * @param {(placeId: string) => void} openPlace shows a place (the winner) on the map and in its panel
   */
  constructor(session, openPlace) {
    this.session = session;
    this.openPlace = openPlace;
    this.lists = new Latest();
    this.opening = new Latest();
    // What the person was last told of the decision shown (their ballot cast, someone's vote): kept beside the
    // decision, so whichever of the ballot's answer and the stream's event comes last, the line reads both.
    this.news = "";
    this.section = byId("decision");
    this.stream = null;
    this.decision = null;
    this.ranking = [];
    this.dragged = null;
    this.swipe = new SwipePane(() => this.me());
    this.conversation = new Conversation(() => this.me());
    byId("decision-close").addEventListener("click", () => {
      const id = this.decision && this.decision.id;
      this.hide();
      // The keyboard goes back to the decision in the list.
      const entry = id && document.querySelector(`#decisions button[data-id="${CSS.escape(id)}"]`);
      if (entry) entry.focus();
    });
    byId("ballot-submit").addEventListener("click", () => this.castBallot());
    session.onChange(() => {
      if (session.signedIn) {
        this.refresh();
      } else {
        // Nothing of the last person's stays for the next one.
        this.lists.cancel();
        this.hide();
        byId("decisions").replaceChildren();
      }
    });
  }

  /** Lists the person's decisions (newest first). */
  async refresh() {
    try {
      const decisions = await this.lists.ask((signal) => api.request("/v1/decisions?limit=20", { signal }));
      byId("decisions").replaceChildren(...decisions.items.map((decision) => {
        const item = element("li");
        const open = element("button");
        open.type = "button";
        open.dataset.id = decision.id;
        open.append(element("span", decision.title || "A decision", "name"),
          element("span", ` · ${METHOD_WORDS[decision.method]} · ${STATUS_WORDS[decision.status] || decision.status}`, "kind"));
        open.addEventListener("click", () => this.show(decision.id));
        item.append(open);
        return item;
      }));
      if (!decisions.items.length) byId("decisions").append(element("li", "No decision yet: start one below.", "hint"));
    } catch (error) {
      if (!aborted(error)) byId("decisions").replaceChildren(element("li", `Could not list your decisions: ${error.message}`));
    }
  }

  /** Shows one decision and follows it live until it is closed or another is shown. */
  async show(id) {
    let decision;
    try {
      decision = await this.opening.ask((signal) => api.request(`/v1/decisions/${encodeURIComponent(id)}`, { signal }));
    } catch (error) {
      if (!aborted(error)) byId("decisions-status").textContent = `Could not open the decision: ${error.message}`;
      return;
    }
    if (!this.session.signedIn) return;
    this.hide();
    this.news = "";
    byId("decisions-status").textContent = "";
    byId("ranking-status").textContent = "";
    this.decision = decision;
    this.ranking = decision.myBallot && decision.myBallot.length ? [...decision.myBallot] : [];
    this.rankSurvivors(decision);
    this.events = 0;
    this.section.dataset.events = "0";
    delete this.section.dataset.lastEvent;
    this.render(decision);
    this.renderRanking();
    this.conversation.show(decision, this.session.user);
    this.section.hidden = false;
    this.section.focus();
    if (decision.status === "active") {
      this.stream = new EventStream(`/v1/decisions/${encodeURIComponent(id)}/events`,
        (name, data) => this.event(name, data), (state) => (this.section.dataset.stream = state));
    }
  }

  hide() {
    this.opening.cancel();
    if (this.stream) this.stream.close();
    this.stream = null;
    this.decision = null;
    this.swipe.hide();
    this.conversation.hide();
    this.section.hidden = true;
  }

  /** The ballot ranks the places still in the running: after a swipe round its survivors only, in the order the
   * person gave them, those not ranked yet last. */
  rankSurvivors(decision) {
    const survivors = decision.roundResult ? decision.roundResult.survivors : decision.candidates.map((c) => c.placeId);
    const kept = this.ranking.filter((placeId) => survivors.includes(placeId));
    const ranking = kept.concat(survivors.filter((placeId) => !kept.includes(placeId)));
    const changed = ranking.join("\n") !== this.ranking.join("\n");
    this.ranking = ranking;
    return changed;
  }

  /** An event of the decision's stream: a message of its conversation, or the decision as the reader may see it now. */
  event(name, data) {
    if (!this.decision) return;
    const ours = name === "message" ? data.decisionId === this.decision.id : data.decision && data.decision.id === this.decision.id;
    if (!ours) return;
    // How many events came, and the last one's name (the browser test waits for them).
    this.events += 1;
    this.section.dataset.events = String(this.events);
    this.section.dataset.lastEvent = name;
    if (name === "message") {
      this.conversation.arrive(data);
      return;
    }
    this.decision = data.decision;
    const inBallot = byId("decision-ballot").contains(document.activeElement);
    const inRound = byId("decision-swipe").contains(document.activeElement);
    if (name === "ballot" && data.voter) this.news = data.voter.username === this.me() ? "Your ballot is in." : `${data.voter.username} voted.`;
    this.render(data.decision);
    this.conversation.show(data.decision, this.session.user);
    // The round ended: the ballot ranks what survived it, and the keyboard moves from the round to the decision.
    if (this.rankSurvivors(data.decision)) this.renderRanking();
    if (inRound && byId("decision-swipe").hidden) this.section.focus();
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

  me() {
    return this.session.user && this.session.user.username;
  }

  /** A text with the candidates' ids (as the server's reasoning names them) written as their names, the longest ids
   * first (so one id that begins another is not replaced inside it). */
  named(text) {
    const longestFirst = [...this.decision.candidates].sort((a, b) => b.placeId.length - a.placeId.length);
    return longestFirst.reduce((words, candidate) =>
      candidate.name ? words.split(candidate.placeId).join(candidate.name) : words, text);
  }

  /** The decision as a person would say it: its state, who it waits for, and its result (or who leads so far). */
  render(decision) {
    byId("decision-title").textContent = decision.title || "A decision";
    const participant = decision.participants.some((p) => p.user.username === this.me());
    const waiting = decision.waitingFor.map((name) => (name === this.me() ? "you" : name));
    const state = [
      this.news,
      `A ${METHOD_WORDS[decision.method]}, ${STATUS_WORDS[decision.status] || decision.status}${decision.method === "tiered"
        ? `, ${counted(decision.ballotCount, "ballot")}${decision.status === "active" ? " so far" : ""}` : ""}.`,
      decision.swipe && decision.swipe.open ? "The swipe round is open: the ballot comes once everyone has answered." : "",
      decision.status === "active" && waiting.length ? `Waiting for ${listed(waiting)}.` : "",
      decision.visitAt ? `You go ${new Date(decision.visitAt).toLocaleString([], { dateStyle: "full", timeStyle: "short" })}.` : "",
      decision.meetWithout && decision.meetWithout.length ? `Meet left out ${listed(decision.meetWithout)} (no shared location).` : "",
    ];
    byId("decision-state").textContent = state.filter(Boolean).join(" ");
    this.swipe.render(decision);
    const inRound = Boolean(decision.swipe && decision.swipe.open);
    byId("decision-ballot").hidden = !(decision.status === "active" && decision.method === "tiered" && participant && !inRound);
    byId("ballot-submit").textContent = decision.myBallot ? "Change my ballot" : "Cast my ballot";
    const result = byId("decision-result");
    const shown = decision.result || (decision.tallyVisible ? decision.provisional : null);
    result.hidden = !shown;
    if (!shown) {
      // Nothing of a decision shown before stays (the browser test reads these).
      delete result.dataset.winner;
      delete result.dataset.final;
    } else {
      // Nothing that survived the swipe round means no winner.
      const winner = shown.winner ? this.name(shown.winner) : "";
      const heading = element("h3", !shown.winner ? "No place survived the swipe round"
        : decision.result ? `${winner} wins` : `So far ${winner} leads`);
      const order = element("ol");
      order.append(...(shown.ranking || []).map((id) => element("li", this.name(id))));
      const parts = [heading];
      if (decision.result && shown.reasoning) parts.push(element("p", this.named(shown.reasoning)));
      // Whether the winner is open when the group goes, as the server says (absent: it cannot tell, or no visit time).
      if (decision.result && shown.winner && typeof shown.winnerOpen === "boolean") {
        parts.push(element("p", `${winner} is ${shown.winnerOpen ? "open" : "closed"} when you go.`, shown.winnerOpen ? "open" : "closed"));
      }
      parts.push(order);
      if (decision.result && shown.winner) parts.push(button(`Show ${winner} on the map`, () => this.openPlace(shown.winner)));
      result.replaceChildren(...parts);
      result.dataset.winner = shown.winner || "";
      result.dataset.final = String(Boolean(decision.result));
    }
  }

  /** The ballot's order as a list: each place can be dragged, or moved with Alt+↑ / Alt+↓ or its buttons. */
  renderRanking(focusIndex) {
    const list = byId("ranking");
    list.replaceChildren(...this.ranking.map((placeId, index) => {
      const item = element("li");
      item.tabIndex = 0;
      item.draggable = true;
      item.dataset.id = placeId;
      const label = `${this.name(placeId)}, ${index + 1} of ${this.ranking.length}`;
      item.setAttribute("aria-label", label);
      item.append(element("span", String(index + 1), "rank"), element("span", this.name(placeId), "choice"));
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
      const buttons = byId("ranking").children[to].querySelectorAll("button");
      const button = to < from ? buttons[0] : buttons[1];
      (button.disabled ? byId("ranking").children[to] : button).focus();
    }
    byId("ranking-status").textContent = `${this.name(placeId)} is now ${to + 1} of ${this.ranking.length}.`;
  }

  /** Sends the ballot. What it changes comes with the decision's stream, as everyone else's does. */
  async castBallot() {
    const decision = this.decision;
    try {
      await api.request(`/v1/decisions/${encodeURIComponent(decision.id)}/ballot`, { method: "PUT", body: { ranking: this.ranking } });
      if (this.decision && this.decision.id === decision.id) {
        this.news = "Your ballot is in.";
        this.render(this.decision);
      }
    } catch (error) {
      byId("ranking-status").textContent = `The ballot was not cast: ${error.message}`;
    }
  }
}
