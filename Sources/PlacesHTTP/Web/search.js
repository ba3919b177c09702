// Finding places: search as you type (after a pause, each new ask aborting the one before), biased to where the map
// looks (matches in view first, then the others nearest first), and "near here" / "popular near here" around a
// point picked on the map or the browser's location.

import { api, aborted, Latest } from "./api.js";
import { byId, counted, afterPause } from "./dom.js";
import { inBox, distanceInWords } from "./geo.js";

export class Finder {
  /**
   * @param {import("./map.js").PlacesMap} map
   * @param {import("./results.js").Results} results
   */
  constructor(map, results) {
    this.map = map;
    this.results = results;
    this.latest = new Latest();
    const words = byId("search-words");
    const typed = afterPause(() => this.search(words.value));
    byId("search").addEventListener("submit", (event) => {
      event.preventDefault();
      typed.now();
    });
    words.addEventListener("input", typed);
  }

  /** The places matching the words: those in the map's view first, then the rest, nearest to its centre first. */
  async search(text) {
    const query = text.trim();
    if (!query) {
      this.latest.cancel();
      this.results.clear();
      return;
    }
    const center = this.map.center;
    const box = this.map.box();
    const near = `${center.lat.toFixed(5)},${center.lon.toFixed(5)}`;
    try {
      const page = await this.latest.ask((signal) =>
        api.request(`/v1/places/search?q=${encodeURIComponent(query)}&near=${near}&limit=20`, { signal }));
      const hits = page.items.map((hit, order) => ({ hit, order, inView: inBox(box, hit.lat, hit.lon) }));
      // What is in view comes first; the server's order (relevance, then distance from the centre) holds within each.
      hits.sort((a, b) => Number(b.inView) - Number(a.inView) || a.order - b.order);
      const inView = hits.filter((h) => h.inView).length;
      const message = hits.length === 0 ? "No place matches."
        : `${counted(hits.length, page.nextCursor ? "best match" : "match", page.nextCursor ? "best matches" : "matches")}, ${inView} in view`;
      this.results.show(hits.map((h) => h.hit), (hit) => [hit.kind, hit.city, hit.distanceMeters !== undefined
        ? `${distanceInWords(hit.distanceMeters)} from the map's centre` : ""].filter(Boolean).join(" · "), message);
    } catch (error) {
      if (!aborted(error)) this.results.say(`Search failed: ${error.message}`);
    }
  }

  /** Places within `miles` of `here`: nearest first, or best first for "popular near here" (`sort=score`). */
  async near(here, miles, sort) {
    const query = `lat=${here.lat.toFixed(6)}&lon=${here.lon.toFixed(6)}&radius=${miles}&limit=20&sort=${sort}`;
    try {
      const answer = await this.latest.ask((signal) => api.request(`/v1/places/nearby?${query}`, { signal }));
      const what = sort === "score" ? "best first" : "nearest first";
      const message = answer.count === 0 ? `No place within ${miles} mi.` : `${counted(answer.count, "place")} within ${miles} mi, ${what}`;
      this.results.show(answer.places, (place) => [distanceInWords(place.distanceMeters), place.kind,
        sort === "score" && place.ratingCount ? `★ ${place.ratingAverage.toFixed(1)}` : ""].filter(Boolean).join(" · "), message, sort);
      return answer.places;
    } catch (error) {
      if (!aborted(error)) this.results.say(`Nearby failed: ${error.message}`);
      return null;
    }
  }
}
