// The map's pins and clusters: the viewport's features from `GET /v1/places/clusters`, laid over the canvas as
// buttons, so the keyboard and a screen reader reach them as they reach any control. A pin opens its place; a cluster
// zooms to its members' own box. The place opened is marked as chosen, and a place hovered or focused in a list (or
// here) is marked as linked.

import { api, aborted, Latest } from "./api.js";
import { counted } from "./dom.js";

export class Markers {
  /**
   * @param {import("./map.js").PlacesMap} map
   * @param {{openPlace: (id: string) => void, link: (id: string | null) => void}} actions
   */
  constructor(map, actions) {
    this.map = map;
    this.actions = actions;
    this.layer = map.element.querySelector(".markers");
    this.status = map.element.querySelector(".map-status");
    this.latest = new Latest();
    this.chosen = null;
    this.linked = null;
  }

  /** Keeps the markers shown where their coordinates are while the view moves. */
  follow() {
    for (const marker of this.layer.children) this.map.position(marker);
  }

  /** Asks for the viewport's features at the view's zoom; an ask made before is aborted. */
  async load() {
    const zoom = this.map.zoom;
    const box = this.map.box();
    const bbox = [box.west, box.south, box.east, box.north].map((value) => value.toFixed(5)).join(",");
    try {
      const answer = await this.latest.ask((signal) =>
        api.request(`/v1/places/clusters?bbox=${bbox}&zoom=${zoom}`, { signal, accept: "application/geo+json" }));
      this.lay(answer.features);
      this.status.textContent = `${counted(answer.count, "place")} in view`;
      // The zoom the markers were answered for (a test waits for it).
      this.map.element.dataset.zoom = String(zoom);
    } catch (error) {
      if (!aborted(error)) this.status.textContent = `The map could not load its places: ${error.message}`;
    }
  }

  /** Lays the features out as buttons; the same features as shown (another answer for the same view) stay as they are. */
  lay(features) {
    const shown = features.map((feature) => `${feature.id}:${feature.properties.count || 1}`).join(",");
    if (shown === this.shown) return this.follow();
    this.shown = shown;
    const buttons = features.map((feature) => {
      const [lon, lat] = feature.geometry.coordinates;
      const marker = document.createElement("button");
      marker.type = "button";
      marker.dataset.lat = String(lat);
      marker.dataset.lon = String(lon);
      const properties = feature.properties;
      if (properties.cluster) {
        marker.className = "cluster";
        marker.textContent = String(properties.count);
        marker.setAttribute("aria-label", `${counted(properties.count, "place")}; zoom in`);
        const [west, south, east, north] = properties.bbox;
        marker.addEventListener("click", () => this.map.fit({ west, south, east, north }, { atLeast: this.map.zoom + 1 }));
      } else {
        marker.className = `pin ${properties.kind}`;
        marker.setAttribute("aria-label", `${properties.name}, ${properties.kind}`);
        marker.title = properties.name;
        marker.dataset.id = feature.id;
        marker.addEventListener("click", () => this.actions.openPlace(feature.id));
        for (const type of ["pointerenter", "focus"]) marker.addEventListener(type, () => this.actions.link(feature.id));
        for (const type of ["pointerleave", "blur"]) marker.addEventListener(type, () => this.actions.link(null));
      }
      this.map.position(marker);
      return marker;
    });
    // A keyboard on a marker stays on the map when the markers are laid out again (on the same place, if it is there).
    const focused = this.layer.contains(document.activeElement) ? document.activeElement.dataset.id || "" : null;
    this.layer.replaceChildren(...buttons);
    this.mark();
    if (focused !== null) (buttons.find((marker) => focused && marker.dataset.id === focused) || this.map.element).focus();
  }

  /** Marks the place opened (or none). */
  choose(id) {
    this.chosen = id;
    this.mark();
  }

  /** Marks the place hovered or focused in a list (or none). */
  link(id) {
    this.linked = id;
    this.mark();
  }

  mark() {
    for (const marker of this.layer.children) {
      const id = marker.dataset.id;
      marker.classList.toggle("chosen", Boolean(id) && id === this.chosen);
      marker.classList.toggle("linked", Boolean(id) && id === this.linked);
      if (id && id === this.chosen) marker.setAttribute("aria-current", "true");
      else marker.removeAttribute("aria-current");
    }
  }
}
