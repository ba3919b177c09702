// A place's panel: what the API has of it (description, address, hours with whether it is open now as the API says,
// rating, its time zone as a city, distance and direction from here in words, a geo: link, its photos), a close
// button, and for a signed-in person their favourite and rating.

import { api, aborted, instant, Latest } from "./api.js";
import { element, byId, counted } from "./dom.js";
import { directionsInWords, zoneInWords } from "./geo.js";
import { PlacePhotos } from "./photos.js";

const DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const DAY_NAMES = { mon: "Monday", tue: "Tuesday", wed: "Wednesday", thu: "Thursday", fri: "Friday", sat: "Saturday", sun: "Sunday" };
const OPEN_WORDS = { open: "Open now", closed: "Closed now" };

export class PlacePanel {
  /**
   * @param {import("./account.js").Session} session
   * @param {{here: () => ({lat: number, lon: number} | null), shown: (place: any) => void, closed: () => void}} hooks
   *   the point distances are measured from; what to do with each place shown, and when the panel closes
   */
  constructor(session, hooks) {
    this.session = session;
    this.hooks = hooks;
    this.panel = byId("place");
    this.latest = new Latest();
    /** The place shown, as the API answered it (null when the panel is closed). */
    this.place = null;
    byId("place-favorite").addEventListener("click", () => this.toggleFavorite());
    byId("place-stars").addEventListener("change", (event) => this.rate(event.target.value));
    byId("place-close").addEventListener("click", () => this.close());
    this.photos = new PlacePhotos(session, { reread: () => this.reread() });
    session.onChange(() => this.renderMine());
  }

  /** The place `id` as the panel asks for it: open now, and the directions from here. */
  path(id) {
    const from = this.hooks.here();
    const query = new URLSearchParams({ openAt: instant() });
    if (from) query.set("from", `${from.lat.toFixed(6)},${from.lon.toFixed(6)}`);
    return `/v1/places/${encodeURIComponent(id)}?${query}`;
  }

  /** Shows a place (read afresh, open now and directions from here) and moves the keyboard to it. */
  async open(id) {
    let place;
    try {
      place = await this.latest.ask((signal) => api.request(this.path(id), { signal }));
    } catch (error) {
      if (aborted(error)) return null;
      throw error;
    }
    this.place = place;
    this.render();
    this.panel.hidden = false;
    this.panel.focus();
    this.hooks.shown(place);
    return place;
  }

  /** Reads the place shown again (its photos changed) and shows it where it is: the keyboard stays. */
  async reread() {
    if (!this.place) return;
    const id = this.place.id;
    const place = await api.request(this.path(id));
    if (!this.place || this.place.id !== id) return;
    this.place = place;
    this.render();
  }

  close() {
    this.latest.cancel();
    this.place = null;
    this.panel.hidden = true;
    this.hooks.closed();
  }

  render() {
    const place = this.place;
    byId("place-name").textContent = place.name;
    byId("place-description").textContent = place.description || "";
    const openLine = byId("place-open");
    const status = place.openStatus || "unknown";
    openLine.textContent = OPEN_WORDS[status] ? `${OPEN_WORDS[status]} (${zoneInWords(place.timeZone)})` : "";
    openLine.className = `open-now ${status}`;
    openLine.dataset.open = { open: "true", closed: "false" }[status] || "unknown";
    const directions = place.directions;
    const rating = place.ratingCount
      ? `${place.ratingAverage.toFixed(1)} of 5 stars from ${counted(place.ratingCount, "rating")}`
      : "Not rated yet";
    const facts = [
      ["Kind", place.kind === "gem" ? "Hidden gem" : "Restaurant"],
      ["Address", [place.address, place.city].filter(Boolean).join(", ")],
      ["Cuisine", place.cuisine],
      ["Price", place.priceLevel ? `${"$".repeat(place.priceLevel)} of $$$$` : undefined],
      ["Rating", rating],
      ["Tags", (place.tags || []).join(", ")],
      ["Phone", place.phone],
      ["Website", place.website],
      ["Time", place.timeZone ? zoneInWords(place.timeZone) : undefined],
      ["From here", directions ? directionsInWords(directions) : undefined],
      ["Source", openStreetMapSource(place.id)],
    ].filter(([, value]) => value);
    byId("place-facts").replaceChildren(
      ...facts.flatMap(([term, value]) => [element("dt", term), value instanceof Node ? value : element("dd", value)]),
    );
    const table = byId("place-hours");
    table.hidden = !place.openingHours;
    if (place.openingHours) {
      table.tBodies[0].replaceChildren(...DAYS.map((day) => {
        const row = element("tr");
        const name = element("th", DAY_NAMES[day]);
        name.scope = "row";
        row.append(name, element("td", (place.openingHours[day] || []).join(", ") || "closed"));
        return row;
      }));
    }
    byId("place-geo").href = directions ? directions.geoURI : `geo:${place.lat},${place.lon}`;
    this.photos.show(place);
    this.renderMine();
  }

  /** The signed-in person's favourite and rating of the place shown. */
  renderMine() {
    const mine = byId("place-mine");
    mine.hidden = !this.session.signedIn || !this.place;
    if (mine.hidden) return;
    const id = this.place.id;
    const favorite = byId("place-favorite");
    const marked = this.session.favorites.has(id);
    favorite.setAttribute("aria-pressed", String(marked));
    favorite.textContent = marked ? "★ Favourite" : "☆ Favourite";
    byId("place-stars").value = String(this.session.ratings.get(id) || "");
  }

  async toggleFavorite() {
    const id = this.place.id;
    const marked = this.session.favorites.has(id);
    await this.mine(async () => {
      await api.request(`/v1/places/${encodeURIComponent(id)}/favorite`, { method: marked ? "DELETE" : "PUT" });
      if (marked) this.session.favorites.delete(id);
      else this.session.favorites.add(id);
      return marked ? "Taken out of your favourites." : "Kept in your favourites.";
    });
  }

  async rate(stars) {
    const id = this.place.id;
    await this.mine(async () => {
      const path = `/v1/places/${encodeURIComponent(id)}/rating`;
      const answer = stars
        ? await api.request(path, { method: "PUT", body: { stars: Number(stars) } })
        : await api.request(path, { method: "DELETE" });
      if (stars) this.session.ratings.set(id, Number(stars));
      else this.session.ratings.delete(id);
      // The answer carries the place's new average, count and score.
      const aggregate = stars ? answer.place : answer;
      if (this.place && this.place.id === id) {
        this.place = { ...this.place, ratingAverage: aggregate.ratingAverage, ratingCount: aggregate.ratingCount, score: aggregate.score };
        this.render();
      }
      return stars ? `Rated ${stars} of 5.` : "Rating taken back.";
    });
  }

  async mine(change) {
    const status = byId("place-mine-status");
    try {
      status.textContent = await change();
    } catch (error) {
      status.textContent = `Not saved: ${error.message}`;
    }
    this.renderMine();
  }
}

/**
 * Where a place imported from OpenStreetMap came from (`osm:n123` is node 123): a link to the object's page, where
 * anyone can mend it, and the attribution its licence (ODbL) asks for. Null for other places.
 */
function openStreetMapSource(id) {
  const match = /^osm:([nwr])(\d+)$/.exec(id);
  if (!match) return null;
  const link = element("a", "OpenStreetMap");
  link.href = `https://www.openstreetmap.org/${{ n: "node", w: "way", r: "relation" }[match[1]]}/${match[2]}`;
  link.rel = "external";
  const definition = element("dd");
  definition.append(link, " (© OpenStreetMap contributors, ODbL)");
  return definition;
}
