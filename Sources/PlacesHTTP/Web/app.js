// The page's entry: the map, search as you type, a list of what matches, and a place's panel. Plain JavaScript,
// served by `places serve` from the binary; it talks to the same API any client uses.

import { PlacesMap } from "./map.js";

const form = document.getElementById("search");
const words = document.getElementById("search-words");
const results = document.getElementById("results");
const status = document.getElementById("status");
const panel = document.getElementById("place");

/** Fetches JSON from the API; an error answer throws its message. */
async function api(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error ? body.error.message : `${response.status}`);
  return body;
}

/** A text node's worth of DOM: `tag` holding `text`, with a class when given. */
function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

// Only the answer to the latest keystroke is shown: an older one that arrives late is dropped.
let asked = 0;

async function search(text) {
  const mine = ++asked;
  const query = text.trim();
  if (!query) {
    results.replaceChildren();
    status.textContent = "";
    return;
  }
  try {
    const page = await api(`/v1/places/search?q=${encodeURIComponent(query)}&limit=20`);
    if (mine !== asked) return;
    results.replaceChildren(...page.items.map(listed));
    const count = page.items.length;
    status.textContent = count === 0 ? "No place matches." : page.nextCursor ? `The ${count} best matches` : `${count} places`;
  } catch (error) {
    if (mine === asked) status.textContent = `Search failed: ${error.message}`;
  }
}

/** One search hit as a list item holding a button that opens its panel. */
function listed(hit) {
  const item = element("li");
  const button = element("button");
  button.type = "button";
  button.append(element("span", hit.name), element("span", ` · ${hit.kind}${hit.city ? ` · ${hit.city}` : ""}`, "kind"));
  button.addEventListener("click", () => open(hit.id));
  item.append(button);
  return item;
}

/** Shows a place's panel, from its details, and moves the keyboard there. */
async function open(id) {
  try {
    const place = await api(`/v1/places/${encodeURIComponent(id)}`);
    document.getElementById("place-name").textContent = place.name;
    const facts = [
      ["Kind", place.kind],
      ["Tags", (place.tags || []).join(", ")],
      ["Cuisine", place.cuisine],
      ["Price", place.priceLevel ? "$".repeat(place.priceLevel) : undefined],
      ["Rating", place.ratingCount ? `${place.ratingAverage.toFixed(1)} from ${place.ratingCount} (score ${place.score.toFixed(2)})` : "not rated yet"],
      ["City", place.city],
    ].filter(([, value]) => value);
    document.getElementById("place-facts").replaceChildren(...facts.flatMap(([term, value]) => [element("dt", term), element("dd", value)]));
    document.getElementById("place-geo").href = `geo:${place.lat},${place.lon}`;
    panel.hidden = false;
    panel.focus();
    map.show(place.lat, place.lon, Math.max(map.zoom, 14));
  } catch (error) {
    status.textContent = `Could not open the place: ${error.message}`;
  }
}

const map = new PlacesMap(document.getElementById("map"), open);

form.addEventListener("submit", (event) => {
  event.preventDefault();
  search(words.value);
});
words.addEventListener("input", () => search(words.value));
