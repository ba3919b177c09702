// The swipe round of the decision shown: yes / no / veto on each candidate (a radio group each, so the arrow keys
// move between the answers), the vetoes left, and who has answered every place (never what). An answer goes to the
// server on its own once the keyboard rests on it (arrowing past "veto" sends nothing); one the server refuses (too
// many vetoes) is said beside its place, and the answer the server holds comes back.

import { api } from "./api.js";
import { element, byId, listed, afterPause } from "./dom.js";

const ANSWERS = [["yes", "Yes"], ["no", "No"], ["veto", "Veto"]];

export class SwipePane {
  /** @param {() => string | null} me the signed-in person's username */
  constructor(me) {
    this.me = me;
    this.pane = byId("decision-swipe");
    /** The decision shown, and per place: the answer the server holds, the one chosen here (until the server has it),
     * the refusal to say, and the pause before sending. */
    this.decision = null;
    this.places = new Map();
  }

  /** Draws the pane for `decision` (a new one, or the same one as it changed). */
  render(decision) {
    const swipe = decision.swipe;
    const open = Boolean(swipe && swipe.open && decision.status === "active");
    const participant = Boolean(swipe && swipe.mySwipes);
    if (!this.decision || this.decision.id !== decision.id) this.build(decision, open && participant);
    this.decision = decision;
    this.pane.hidden = !open;
    // What the round kept, while the method goes on (a result's own explanation begins with it).
    const outcome = decision.result ? null : decision.roundResult;
    const said = byId("decision-round");
    said.hidden = !outcome;
    said.textContent = outcome ? outcome.reasoning : "";
    if (!open) return;
    const names = swipe.answered.map((name) => (name === this.me() ? "you" : name));
    byId("swipe-answered").textContent = names.length ? `Answered every place: ${listed(names)}.` : "Nobody has answered every place yet.";
    const rules = [
      !participant ? "" : swipe.vetoes === 0 ? "No vetoes in this round." : `You have ${swipe.vetoesLeft === 0 ? "no" : swipe.vetoesLeft} ${swipe.vetoesLeft === 1 ? "veto" : "vetoes"} left.`,
      swipe.minYes ? `A place needs ${swipe.minYes} yes to stay.` : "",
      swipe.deadline ? `The round ends ${new Date(swipe.deadline).toLocaleString([], { dateStyle: "medium", timeStyle: "short" })}.` : "",
    ];
    byId("swipe-rules").textContent = rules.filter(Boolean).join(" ");
    if (!participant) return;
    for (const [placeId, place] of this.places) {
      place.held = swipe.mySwipes[placeId];
      // A choice on its way to the server stays as chosen; otherwise the pane shows what the server holds.
      if (place.chosen === undefined) this.check(place, place.held);
    }
  }

  /** One fieldset a candidate: its name as the legend, the three answers, and a line for a refusal. */
  build(decision, answering) {
    for (const place of this.places.values()) place.send.cancel();
    this.places = new Map();
    const list = byId("swipe-places");
    list.hidden = !answering;
    if (!answering) {
      list.replaceChildren();
      return;
    }
    list.replaceChildren(...decision.candidates.map((candidate, index) => {
      const name = candidate.name || candidate.placeId;
      const fieldset = element("fieldset", undefined, "swipe");
      fieldset.dataset.id = candidate.placeId;
      const refusal = element("p", "", "error");
      refusal.id = `swipe-error-${index}`;
      fieldset.setAttribute("aria-describedby", refusal.id);
      const options = element("div", undefined, "swipe-options");
      const inputs = ANSWERS.map(([value, words]) => {
        const label = element("label", undefined, value);
        const input = element("input");
        input.type = "radio";
        input.name = `swipe-${index}`;
        input.value = value;
        label.append(input, ` ${words}`);
        options.append(label);
        return input;
      });
      fieldset.append(element("legend", name), options, refusal);
      const place = { placeId: candidate.placeId, name, inputs, refusal, held: undefined, chosen: undefined, sending: false };
      place.send = afterPause(() => this.send(place), 400);
      fieldset.addEventListener("change", (event) => {
        place.chosen = event.target.value;
        place.refusal.textContent = "";
        place.send();
      });
      // Leaving the place sends its answer at once.
      fieldset.addEventListener("focusout", (event) => {
        if (!fieldset.contains(event.relatedTarget) && place.chosen !== undefined && !place.sending) place.send.now();
      });
      this.places.set(candidate.placeId, place);
      return fieldset;
    }));
  }

  check(place, answer) {
    for (const input of place.inputs) input.checked = input.value === answer;
  }

  /** Sends the answer chosen for one place. What it changes for everyone comes with the decision's stream. */
  async send(place) {
    const decision = this.decision;
    const answer = place.chosen;
    if (answer === undefined || place.sending) return;
    if (answer === place.held) {
      place.chosen = undefined;
      return;
    }
    place.sending = true;
    try {
      const view = await api.request(`/v1/decisions/${encodeURIComponent(decision.id)}/swipes/${encodeURIComponent(place.placeId)}`,
        { method: "PUT", body: { answer } });
      if (this.places.get(place.placeId) !== place) return;
      place.held = view.swipe && view.swipe.mySwipes ? view.swipe.mySwipes[place.placeId] : answer;
      if (view.swipe && view.swipe.vetoesLeft !== undefined && this.decision.swipe) {
        this.decision = { ...this.decision, swipe: { ...this.decision.swipe, vetoesLeft: view.swipe.vetoesLeft, mySwipes: view.swipe.mySwipes } };
      }
    } catch (error) {
      if (this.places.get(place.placeId) !== place) return;
      // The answer the server holds comes back, with the keyboard on it when it was on this place.
      place.refusal.textContent = `${answer === "veto" ? "Not vetoed" : "Not saved"}: ${error.message}`;
      place.chosen = undefined;
      const focused = place.inputs.includes(document.activeElement);
      this.check(place, place.held);
      const back = place.inputs.find((input) => input.checked) || place.inputs[0];
      if (focused) back.focus();
      return;
    } finally {
      place.sending = false;
    }
    // Chosen again while it was on its way: that one goes too.
    if (place.chosen !== undefined && place.chosen !== place.held) place.send();
    else place.chosen = undefined;
    if (this.decision && this.decision.id === decision.id) this.render(this.decision);
  }

  hide() {
    for (const place of this.places.values()) place.send.cancel();
    this.places = new Map();
    this.decision = null;
    this.pane.hidden = true;
    byId("decision-round").hidden = true;
  }
}
