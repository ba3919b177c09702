// The list of places found (a search's hits, or what is near here), drawn from its state: each a button that opens
// its place, linked to its pin on the map both ways (hovering or focusing one marks the other).

import { element, byId } from "./dom.js";

export class Results {
  /**
   * @param {{open: (id: string) => void, link: (place: any) => void}} actions
   */
  constructor(actions) {
    this.actions = actions;
    this.list = byId("results");
    this.status = byId("status");
    /** What the list shows: the places with their lines, what asked for them, and the status line. */
    this.state = { places: [], sort: null, message: "" };
    this.linked = null;
  }

  /** Shows places, each with its line of words, and a status; `sort` names nearby's order, if nearby answered. */
  show(places, describe, message, sort = null) {
    this.state = { places: places.map((place) => ({ place, line: describe(place) })), sort, message };
    this.render();
  }

  /** Says something without changing the list (an error, a place far away). */
  say(message) {
    this.state = { ...this.state, message };
    this.status.textContent = message;
  }

  clear() {
    this.show([], () => "", "");
  }

  render() {
    const { places, sort, message } = this.state;
    this.list.replaceChildren(...places.map(({ place, line }) => {
      const item = element("li");
      const choose = element("button");
      choose.type = "button";
      choose.dataset.id = place.id;
      choose.append(element("span", place.name, "name"), element("span", ` · ${line}`, "kind"));
      choose.addEventListener("click", () => this.actions.open(place.id));
      for (const type of ["pointerenter", "focus"]) choose.addEventListener(type, () => this.actions.link(place));
      for (const type of ["pointerleave", "blur"]) choose.addEventListener(type, () => this.actions.link(null));
      item.append(choose);
      return item;
    }));
    if (sort) this.list.dataset.sort = sort;
    else delete this.list.dataset.sort;
    this.status.textContent = message;
    this.mark(this.linked);
  }

  /** Marks the result of a place hovered or focused on the map (or none). */
  mark(id) {
    this.linked = id;
    for (const choose of this.list.querySelectorAll("button")) choose.classList.toggle("linked", choose.dataset.id === id);
  }

  /** The place listed with this id, if it is. */
  place(id) {
    const found = this.state.places.find(({ place }) => place.id === id);
    return found ? found.place : null;
  }
}
