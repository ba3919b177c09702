// A place's panel: its facts, its opening hours with whether it is open now in its own time zone, the distance and
// bearing from "here", a geo: link, and for a signed-in person their favourite and rating.

const DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const DAY_NAMES = { mon: "Monday", tue: "Tuesday", wed: "Wednesday", thu: "Thursday", fri: "Friday", sat: "Saturday", sun: "Sunday" };

/** A text node's worth of DOM: `tag` holding `text`, with a class when given. */
export function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** The weekday (`mon`…`sun`) and minutes since midnight of an instant, on the clock of a time zone. */
export function wallClock(instant, timeZone) {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
    .formatToParts(instant);
  const part = (type) => parts.find((p) => p.type === type).value;
  return { day: part("weekday").toLowerCase().slice(0, 3), minutes: Number(part("hour")) * 60 + Number(part("minute")) };
}

function minutes(text) {
  const [hours, mins] = text.split(":").map(Number);
  return hours * 60 + mins;
}

/**
 * Whether a place is open at an instant, as the server decides it (`openAt`): its hours are on its own clock; an
 * interval whose end is at or before its start runs past midnight into the next day. Null without hours or a zone.
 */
export function openNow(hours, timeZone, instant = new Date()) {
  if (!hours || !timeZone) return null;
  let now;
  try {
    now = wallClock(instant, timeZone);
  } catch {
    return null; // a zone this browser does not know
  }
  const today = DAYS.indexOf(now.day);
  const yesterday = DAYS[(today + 6) % 7];
  for (const interval of hours[now.day] || []) {
    const [start, end] = interval.split("-").map(minutes);
    if (end > start ? now.minutes >= start && now.minutes < end : now.minutes >= start) return true;
  }
  for (const interval of hours[yesterday] || []) {
    const [start, end] = interval.split("-").map(minutes);
    if (end <= start && now.minutes < end) return true;
  }
  return false;
}

export class PlacePanel {
  /**
   * @param {import("./account.js").Session} session
   * @param {() => ({lat: number, lon: number} | null)} here the point distances are measured from
   * @param {(place: any) => void} shown called with each place the panel shows
   */
  constructor(session, here, shown) {
    this.session = session;
    this.here = here;
    this.shown = shown;
    this.panel = document.getElementById("place");
    this.place = null;
    document.getElementById("place-favorite").addEventListener("click", () => this.toggleFavorite());
    document.getElementById("place-stars").addEventListener("change", (event) => this.rate(event.target.value));
    session.onChange(() => this.renderMine());
  }

  /** Shows a place (read afresh, with directions from here) and moves the keyboard to it. */
  async open(id) {
    // Only the place asked for last is shown: an older answer that arrives late is dropped.
    const mine = (this.asked = (this.asked || 0) + 1);
    const from = this.here();
    const query = from ? `?from=${from.lat.toFixed(6)},${from.lon.toFixed(6)}` : "";
    const place = await this.session.api(`/v1/places/${encodeURIComponent(id)}${query}`);
    if (mine !== this.asked) return;
    this.place = place;
    this.render(place);
    this.panel.hidden = false;
    this.panel.focus();
    this.shown(place);
  }

  render(place) {
    document.getElementById("place-name").textContent = place.name;
    const open = openNow(place.openingHours, place.timeZone);
    const openLine = document.getElementById("place-open");
    openLine.textContent = open === null ? "" : open ? `Open now (${place.timeZone})` : `Closed now (${place.timeZone})`;
    openLine.className = open === null ? "open-now" : open ? "open-now open" : "open-now closed";
    openLine.dataset.open = open === null ? "unknown" : String(open);
    const directions = place.directions;
    const facts = [
      ["Kind", place.kind],
      ["Tags", (place.tags || []).join(", ")],
      ["Cuisine", place.cuisine],
      ["Price", place.priceLevel ? "$".repeat(place.priceLevel) : undefined],
      ["Rating", place.ratingCount ? `${place.ratingAverage.toFixed(1)} from ${place.ratingCount} (score ${place.score.toFixed(2)})` : "not rated yet"],
      ["City", place.city],
      ["From here", directions
        ? `${directions.distanceMiles.toFixed(2)} mi (${directions.distanceKm.toFixed(2)} km), bearing ${Math.round(directions.bearingDegrees)}° ${directions.compass}`
        : undefined],
    ].filter(([, value]) => value);
    document.getElementById("place-facts").replaceChildren(...facts.flatMap(([term, value]) => [element("dt", term), element("dd", value)]));
    const table = document.getElementById("place-hours");
    table.hidden = !place.openingHours;
    if (place.openingHours) {
      table.tBodies[0].replaceChildren(...DAYS.map((day) => {
        const row = element("tr");
        row.append(element("th", DAY_NAMES[day]), element("td", (place.openingHours[day] || []).join(", ") || "closed"));
        row.firstChild.scope = "row";
        return row;
      }));
    }
    document.getElementById("place-geo").href = directions ? directions.geoURI : `geo:${place.lat},${place.lon}`;
    this.renderMine();
  }

  /** The signed-in person's favourite and rating of the place shown. */
  renderMine() {
    const mine = document.getElementById("place-mine");
    mine.hidden = !this.session.signedIn || !this.place;
    if (mine.hidden) return;
    const id = this.place.id;
    const favorite = document.getElementById("place-favorite");
    const marked = this.session.favorites.has(id);
    favorite.setAttribute("aria-pressed", String(marked));
    favorite.textContent = marked ? "★ Favourite" : "☆ Favourite";
    document.getElementById("place-stars").value = String(this.session.ratings.get(id) || "");
  }

  async toggleFavorite() {
    const id = this.place.id;
    const marked = this.session.favorites.has(id);
    await this.mine(async () => {
      await this.session.api(`/v1/places/${encodeURIComponent(id)}/favorite`, { method: marked ? "DELETE" : "PUT" });
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
        ? await this.session.api(path, { method: "PUT", body: { stars: Number(stars) } })
        : await this.session.api(path, { method: "DELETE" });
      if (stars) this.session.ratings.set(id, Number(stars));
      else this.session.ratings.delete(id);
      // The answer carries the place's new average, count and score.
      const aggregate = stars ? answer.place : answer;
      if (this.place.id === id) {
        this.place = { ...this.place, ratingAverage: aggregate.ratingAverage, ratingCount: aggregate.ratingCount, score: aggregate.score };
        this.render(this.place);
      }
      return stars ? `Rated ${stars} of 5.` : "Rating taken back.";
    });
  }

  async mine(change) {
    const status = document.getElementById("place-mine-status");
    try {
      status.textContent = await change();
    } catch (error) {
      status.textContent = `Not saved: ${error.message}`;
    }
    this.renderMine();
  }
}
