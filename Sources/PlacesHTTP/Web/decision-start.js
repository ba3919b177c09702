// Starting a decision from the page: its title, the group and who takes part, the method, a swipe round first (its
// vetoes, the yes a place needs, its deadline), a deadline, when the group goes (`visitAt`, with the browser's
// offset), and its candidates from the near-here circle, meet's origins on the map or the participants' shared
// locations (either, like near here, kept to what fits everyone's needs and budget on request), a collection, the
// person's favourites, or places picked on the map. A field the server refuses says why beside it.

import { api, instant } from "./api.js";
import { element, byId, button, counted } from "./dom.js";

/** The form's fields by the name the server gives a field it refuses. */
const FIELDS = { title: "decision-title-input", deadline: "decision-deadline", "swipe.vetoes": "swipe-vetoes",
  "swipe.minYes": "swipe-min-yes", "swipe.deadline": "swipe-deadline", visitAt: "decision-visit-at",
  "candidates.meet": "decision-source-participants" };

/** A local date and time typed in a form (`2026-11-27T19:30`) as ISO-8601 with the browser's offset then
 * (`2026-11-27T19:30:00+01:00`): the visit's time as the group means it, wherever the server is. */
export function withOffset(local) {
  const date = new Date(local);
  const minutes = -date.getTimezoneOffset();
  const pad = (n) => String(Math.floor(Math.abs(n))).padStart(2, "0");
  const offset = `${minutes < 0 ? "-" : "+"}${pad(minutes / 60)}:${pad(minutes % 60)}`;
  return `${local.length === 16 ? `${local}:00` : local}${offset}`;
}

export class DecisionStart {
  /**
   * @param {import("./account.js").Session} session
   * @param {{here: () => ({lat: number, lon: number, miles: number} | null), started: (id: string) => void,
   *          refreshGroups: () => void, meet: () => {lat: number, lon: number}[]}} hooks
   */
  constructor(session, hooks) {
    this.session = session;
    this.hooks = hooks;
    /** The groups to choose from, the collections, and the places picked on the map (id and name). */
    this.state = { groups: [], collections: [], picked: [] };
    this.form = byId("decision-new");
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.start();
    });
    byId("decision-group").addEventListener("change", () => this.renderParticipants());
    // The members may have changed since the groups were read: choosing a group reads them again.
    byId("decision-group").addEventListener("focus", () => hooks.refreshGroups());
    this.form.addEventListener("change", (event) => {
      if (event.target.name === "source") this.renderSource();
      // The round's fields count only when it is asked for (a disabled fieldset is neither checked nor sent).
      if (event.target.id === "swipe-on") Object.assign(byId("swipe-options"), { hidden: !event.target.checked, disabled: !event.target.checked });
    });
    session.onChange(() => {
      if (!session.signedIn) this.state = { groups: [], collections: [], picked: [] };
      else this.loadCollections();
      this.render();
    });
  }

  /** The person's groups changed. */
  groups(groups) {
    this.state = { ...this.state, groups };
    this.render();
  }

  /** A place picked on the map (its panel's "Add to a new decision"). */
  pick(place) {
    if (this.state.picked.some((p) => p.id === place.id)) return;
    this.state = { ...this.state, picked: [...this.state.picked, { id: place.id, name: place.name }] };
    this.form.elements.source.value = "picked";
    this.render();
  }

  async loadCollections() {
    try {
      const collections = await api.request("/v1/collections?limit=50");
      this.state = { ...this.state, collections: collections.items };
      this.render();
    } catch (error) {
      console.warn("could not list the collections:", error.message);
    }
  }

  render() {
    const groupSelect = byId("decision-group");
    const chosen = groupSelect.value;
    groupSelect.replaceChildren(element("option", "Just me", undefined),
      ...this.state.groups.map((group) => Object.assign(element("option", group.name), { value: group.id })));
    groupSelect.firstChild.value = "";
    if ([...groupSelect.options].some((option) => option.value === chosen)) groupSelect.value = chosen;
    const collections = byId("decision-collection");
    // By name: the API's list of collections says nothing of how many places each holds.
    collections.replaceChildren(...this.state.collections.map((c) => Object.assign(element("option", c.name), { value: c.id })));
    this.renderParticipants();
    this.renderSource();
  }

  renderParticipants() {
    const group = this.state.groups.find((g) => g.id === byId("decision-group").value);
    const box = byId("decision-participants");
    box.hidden = !group;
    byId("decision-participant-list").replaceChildren(...(group ? group.members : []).map((member) => {
      const label = element("label");
      const check = element("input");
      check.type = "checkbox";
      check.name = "participant";
      check.value = member.user.username;
      check.checked = true;
      label.append(check, ` ${member.user.username}`);
      return label;
    }));
  }

  renderSource() {
    const source = this.form.elements.source.value;
    const here = this.hooks.here();
    byId("decision-source-near").textContent = here
      ? `The places within ${here.miles} mi of here (the circle on the map)`
      : "The places near here (pick a point on the map first)";
    byId("decision-collection").disabled = source !== "collection";
    const origins = this.hooks.meet().length;
    byId("decision-source-meet").textContent = origins >= 2
      ? `The places within 20 mi of all ${counted(origins, "origin")} picked for meet`
      : "Meet in the middle of the origins picked for meet (pick two or more first)";
    byId("decision-respect-needs").disabled = !["near", "meet", "participants"].includes(source);
    const picked = byId("decision-picked");
    picked.replaceChildren(...this.state.picked.map((place, index) => {
      const item = element("li", place.name);
      item.append(button("Remove", () => {
        this.state = { ...this.state, picked: this.state.picked.filter((_, i) => i !== index) };
        this.render();
      }, { label: `Remove ${place.name}` }));
      return item;
    }));
    byId("decision-picked-hint").textContent = this.state.picked.length
      ? counted(this.state.picked.length, "place") + " picked"
      : "Open a place on the map and choose “Add to a new decision”.";
  }

  /** The candidates of the form's source, as the API takes them. */
  candidates() {
    const source = this.form.elements.source.value;
    if (source === "near") {
      const here = this.hooks.here();
      if (!here) throw new Error("pick a point on the map first: the candidates are the places near it");
      return { nearby: { lat: Number(here.lat.toFixed(6)), lon: Number(here.lon.toFixed(6)), radius: here.miles, limit: 10,
        ...this.needs() } };
    }
    if (source === "meet") {
      const at = this.hooks.meet();
      if (at.length < 2) throw new Error("pick two or more origins for meet on the map first");
      return { meet: { at: at.map((o) => ({ lat: o.lat, lon: o.lon })), limit: 10, ...this.needs() } };
    }
    if (source === "participants") return { meet: { fromParticipants: true, limit: 10, ...this.needs() } };
    if (source === "collection") {
      const id = byId("decision-collection").value;
      if (!id) throw new Error("you have no collection yet");
      return { collectionId: id };
    }
    const ids = source === "favorites" ? [...this.session.favorites] : this.state.picked.map((p) => p.id);
    if (!ids.length) throw new Error(source === "favorites" ? "you have no favourites yet" : "pick places on the map first");
    return { placeIds: ids };
  }

  /** `respectNeeds` when the form asks for it. */
  needs() {
    return byId("decision-respect-needs").checked ? { respectNeeds: true } : {};
  }

  /** Says why the server refused a field beside it (and nothing beside the others), and puts the keyboard there. */
  refuse(field, message) {
    for (const [name, id] of Object.entries(FIELDS)) {
      const input = byId(id);
      const refused = name === field;
      byId(`${id}-error`).textContent = refused ? message : "";
      if (refused) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    }
    if (FIELDS[field]) byId(FIELDS[field]).focus();
  }

  /** The swipe round as the API takes it, when it is asked for. */
  round(form) {
    if (!byId("swipe-on").checked) return undefined;
    const swipe = { vetoes: Number(form.get("swipeVetoes")) };
    if (form.get("swipeMinYes")) swipe.minYes = Number(form.get("swipeMinYes"));
    if (form.get("swipeDeadline")) swipe.deadline = instant(new Date(form.get("swipeDeadline")));
    return swipe;
  }

  async start() {
    const status = byId("decision-new-status");
    const form = new FormData(this.form);
    this.refuse(null, "");
    try {
      const body = { title: form.get("title") || undefined, method: form.get("method"), candidates: this.candidates() };
      const group = form.get("group");
      if (group) {
        body.groupId = group;
        // Everyone ticked is the group as it is when the decision starts (someone may have joined since the list
        // was read): the server's default. Otherwise the people ticked.
        const boxes = [...this.form.querySelectorAll('input[name="participant"]')];
        if (boxes.some((box) => !box.checked)) body.participants = form.getAll("participant");
      }
      const deadline = form.get("deadline");
      if (deadline) body.deadline = instant(new Date(deadline));
      const visit = form.get("visitAt");
      if (visit) body.visitAt = withOffset(visit);
      body.swipe = this.round(form);
      const decision = await api.request("/v1/decisions", { method: "POST", body });
      status.textContent = `“${decision.title || "Your decision"}” has started with ${counted(decision.candidates.length, "place")}.`;
      this.state = { ...this.state, picked: [] };
      this.render();
      this.hooks.started(decision.id);
    } catch (error) {
      status.textContent = `The decision did not start: ${error.message}`;
      if (error.field) this.refuse(error.field, error.message);
    }
  }
}
