// Meeting in the middle: origins picked on the map (2 to 20: a click, or Enter on the map for its centre, while
// picking is on), each drawn with its 20-mile circle, translucent, so that where they all overlap (the only places
// meet can answer) shows darkest; then the places within 20 miles of everyone, the fairest first, listed with each
// origin's distance as the API gives it. The origins are also a decision's candidates (decision-start.js).

import { api, aborted, Latest } from "./api.js";
import { element, byId, button, counted } from "./dom.js";
import { metresPerPixel, wrapLongitude } from "./geo.js";

const SVG = "http://www.w3.org/2000/svg";
/** Meet's circle around every origin, in miles (the API's, fixed). */
const MILES = 20;
const MOST = 20;

export class Meet {
  /**
   * @param {import("./map.js").PlacesMap} map
   * @param {import("./results.js").Results} results where the places found are listed
   */
  constructor(map, results) {
    this.map = map;
    this.results = results;
    this.latest = new Latest();
    /** Whether a click on the map adds an origin, and the origins, in order. */
    this.state = { picking: false, origins: [], message: "" };
    map.layers.push(this);
    byId("meet-pick").addEventListener("click", () => {
      this.state = { ...this.state, picking: !this.state.picking };
      this.render();
    });
    byId("meet-find").addEventListener("click", () => this.find());
    byId("meet-clear").addEventListener("click", () => {
      this.latest.cancel();
      this.state = { ...this.state, origins: [], message: "" };
      this.changed();
    });
    this.listeners = [];
    this.render();
  }

  /** True while a click on the map adds an origin rather than picking "here". */
  get picking() {
    return this.state.picking;
  }

  /** The origins, as the API takes them. */
  get origins() {
    return this.state.origins;
  }

  /** Calls `listener()` whenever the origins change. */
  onChange(listener) {
    this.listeners.push(listener);
  }

  /** Adds an origin where the map was clicked. */
  add(point) {
    if (this.state.origins.length >= MOST) {
      this.say(`At most ${MOST} origins: remove one first.`);
      return;
    }
    const origin = { lat: Number(point.lat.toFixed(5)), lon: Number(point.lon.toFixed(5)) };
    this.state = { ...this.state, origins: [...this.state.origins, origin], message: `Origin ${this.state.origins.length + 1} added.` };
    this.changed();
  }

  remove(index) {
    this.state = { ...this.state, origins: this.state.origins.filter((_, i) => i !== index), message: `Origin ${index + 1} removed.` };
    this.changed();
  }

  changed() {
    this.render();
    this.map.drawOverlay();
    for (const listener of this.listeners) listener();
  }

  say(message) {
    this.state = { ...this.state, message };
    this.render();
  }

  render() {
    const { picking, origins, message } = this.state;
    const pick = byId("meet-pick");
    pick.setAttribute("aria-pressed", String(picking));
    pick.textContent = picking ? "Stop picking origins" : "Pick origins on the map";
    byId("meet").dataset.origins = String(origins.length);
    byId("meet-origins").replaceChildren(...origins.map((origin, index) => {
      const item = element("li", `${origin.lat.toFixed(4)}, ${origin.lon.toFixed(4)} `);
      Object.assign(item.dataset, { lat: String(origin.lat), lon: String(origin.lon) });
      item.append(button("Remove", () => this.remove(index), { label: `Remove origin ${index + 1}` }));
      return item;
    }));
    byId("meet-find").disabled = origins.length < 2;
    byId("meet-clear").disabled = origins.length === 0;
    byId("meet-status").textContent = message || (picking
      ? "Click the map (or press Enter on it) where each of you is."
      : origins.length < 2 ? "Pick at least two origins." : `${counted(origins.length, "origin")}: the circles overlap where you can meet.`);
  }

  /** Asks meet for the places within 20 miles of every origin, fairest first, and lists them. */
  async find() {
    const { origins } = this.state;
    if (origins.length < 2) return;
    const query = new URLSearchParams(origins.map((o) => ["at", `${o.lat},${o.lon}`]));
    const kind = byId("meet-kind").value;
    if (kind) query.set("kind", kind);
    query.set("limit", "20");
    try {
      const answer = await this.latest.ask((signal) => api.request(`/v1/places/meet?${query}`, { signal }));
      const line = (place) => `farthest ${place.distanceMiles.toFixed(1)} mi · `
        + place.distances.map((d, i) => `${i + 1}: ${d.miles.toFixed(1)} mi`).join(", ");
      this.results.show(answer.places, line, answer.count
        ? `${counted(answer.count, "place")} within ${answer.radiusMiles} mi of all ${origins.length} origins, the fairest first.`
        : `No place is within ${answer.radiusMiles} mi of all ${origins.length} origins: move them closer.`, "meet");
      this.say("");
      this.map.fit(this.circles());
    } catch (error) {
      if (!aborted(error)) this.say(`Meet did not answer: ${error.message}`);
    }
  }

  /** The box that holds every origin's circle (west east of east across the antimeridian), for the map to show. */
  circles() {
    const [first] = this.state.origins;
    const degrees = (MILES * 1609.344) / 111_195;
    const lats = this.state.origins.map((o) => o.lat);
    const lons = this.state.origins.map((o) => first.lon + wrapLongitude(o.lon - first.lon));
    const across = (lat) => degrees / Math.max(0.01, Math.cos((lat * Math.PI) / 180));
    const north = Math.min(85, Math.max(...lats) + degrees), south = Math.max(-85, Math.min(...lats) - degrees);
    const widest = across(Math.max(Math.abs(north), Math.abs(south)));
    return { west: wrapLongitude(Math.min(...lons) - widest), south, east: wrapLongitude(Math.max(...lons) + widest), north };
  }

  /** The origins' circles and numbered marks, for the map's overlay (drawn under its other marks). */
  shapes(map) {
    const shapes = [];
    this.state.origins.forEach((origin, index) => {
      const at = map.screen(origin.lat, origin.lon);
      const circle = document.createElementNS(SVG, "circle");
      const radius = Math.max(3, (MILES * 1609.344) / metresPerPixel(origin.lat, map.zoom));
      for (const [name, value] of [["cx", at.x], ["cy", at.y], ["r", radius], ["class", "meet"]]) circle.setAttribute(name, String(value));
      const dot = document.createElementNS(SVG, "circle");
      for (const [name, value] of [["cx", at.x], ["cy", at.y], ["r", 6], ["class", "meet-dot"]]) dot.setAttribute(name, String(value));
      const mark = document.createElementNS(SVG, "text");
      for (const [name, value] of [["x", at.x], ["y", at.y - 12], ["class", "meet-origin"]]) mark.setAttribute(name, String(value));
      mark.textContent = String(index + 1);
      shapes.push(circle, dot, mark);
    });
    return shapes;
  }
}
