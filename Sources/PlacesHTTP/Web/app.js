// The page's entry: the map, search as you type, "near here" and "popular near here", a place's panel, and for a
// signed-in person their favourites and ratings, groups and decisions (live) and notifications (live). Plain
// JavaScript, served by `places serve` from the binary; it talks to the same API any client uses.

import { PlacesMap } from "./map.js";
import { Session } from "./account.js";
import { PlacePanel, element } from "./place.js";
import { Decisions } from "./decisions.js";

const session = new Session();
const words = document.getElementById("search-words");
const results = document.getElementById("results");
const status = document.getElementById("status");

// Only the answer to the latest question is shown: an older one that arrives late is dropped.
let asked = 0;

/** Lists places (a search's hits or nearby's places) as buttons that open their panel. */
function list(places, describe) {
  results.replaceChildren(...places.map((place) => {
    const item = element("li");
    const button = element("button");
    button.type = "button";
    button.dataset.id = place.id;
    button.append(element("span", place.name), element("span", ` · ${describe(place)}`, "kind"));
    button.addEventListener("click", () => open(place.id));
    item.append(button);
    return item;
  }));
}

async function search(text) {
  const mine = ++asked;
  const query = text.trim();
  if (!query) {
    results.replaceChildren();
    status.textContent = "";
    return;
  }
  try {
    const page = await session.api(`/v1/places/search?q=${encodeURIComponent(query)}&limit=20`);
    if (mine !== asked) return;
    list(page.items, (hit) => `${hit.kind}${hit.city ? ` · ${hit.city}` : ""}`);
    delete results.dataset.sort; // a new radius no longer asks nearby again
    const count = page.items.length;
    status.textContent = count === 0 ? "No place matches." : page.nextCursor ? `The ${count} best matches` : `${count} places`;
  } catch (error) {
    if (mine === asked) status.textContent = `Search failed: ${error.message}`;
  }
}

// "Here": a point picked on the map or the browser's location; nearby questions and a place's distance start there.
let here = null;
const radius = document.getElementById("near-radius");
const radiusValue = document.getElementById("near-radius-value");

function setHere(point, how) {
  here = point;
  const where = document.getElementById("near-where");
  where.textContent = `Here (${how}): ${point.lat.toFixed(4)}, ${point.lon.toFixed(4)}`;
  where.dataset.lat = String(point.lat);
  where.dataset.lon = String(point.lon);
  document.getElementById("near-list").disabled = false;
  document.getElementById("near-popular").disabled = false;
  map.setCircle(here, Number(radius.value));
}

/** Places within the radius of here: nearest first, or best first for "popular near here" (`sort=score`). */
async function near(sort) {
  if (!here) return;
  const mine = ++asked;
  const miles = Number(radius.value);
  try {
    const answer = await session.api(
      `/v1/places/nearby?lat=${here.lat.toFixed(6)}&lon=${here.lon.toFixed(6)}&radius=${miles}&limit=20&sort=${sort}`);
    if (mine !== asked) return;
    list(answer.places, (place) => `${place.distanceMiles.toFixed(2)} mi · ${place.kind}${sort === "score" ? ` · score ${place.score.toFixed(2)}` : ""}`);
    const what = sort === "score" ? "best first" : "nearest first";
    status.textContent = answer.count === 0 ? `No place within ${miles} mi.` : `${answer.count} places within ${miles} mi, ${what}`;
    results.dataset.sort = sort;
  } catch (error) {
    if (mine === asked) status.textContent = `Nearby failed: ${error.message}`;
  }
}

const panel = new PlacePanel(session, () => here, (place) => map.show(place.lat, place.lon, Math.max(map.zoom, 14)));

async function open(id) {
  try {
    await panel.open(id);
  } catch (error) {
    status.textContent = `Could not open the place: ${error.message}`;
  }
}

const map = new PlacesMap(document.getElementById("map"), open, (point) => setHere(point, "picked on the map"));

document.getElementById("search").addEventListener("submit", (event) => {
  event.preventDefault();
  search(words.value);
});
words.addEventListener("input", () => search(words.value));
radius.addEventListener("input", () => {
  radiusValue.textContent = `${radius.value} mi`;
  if (here) map.setCircle(here, Number(radius.value));
});
radius.addEventListener("change", () => {
  if (here && results.dataset.sort) near(results.dataset.sort);
});
document.getElementById("near-list").addEventListener("click", () => near("distance"));
document.getElementById("near-popular").addEventListener("click", () => near("score"));
document.getElementById("near-locate").addEventListener("click", () => {
  if (!navigator.geolocation) {
    status.textContent = "This browser cannot tell its location: click the map instead.";
    return;
  }
  navigator.geolocation.getCurrentPosition(
    (position) => {
      setHere({ lat: position.coords.latitude, lon: position.coords.longitude }, "your location");
      map.show(here.lat, here.lon, Math.max(map.zoom, 12));
      near("distance");
    },
    (error) => (status.textContent = `No location: ${error.message}. Click the map instead.`),
  );
});

// Signing in, up and out.
const dialog = document.getElementById("sign-in");
const signInError = document.getElementById("sign-in-error");
document.getElementById("sign-in-open").addEventListener("click", () => {
  document.getElementById("sign-in-form").reset();
  signInError.textContent = "";
  dialog.showModal();
});
document.getElementById("sign-in-form").addEventListener("submit", async (event) => {
  const action = event.submitter ? event.submitter.value : "sign-in";
  if (action === "cancel") return;
  event.preventDefault();
  const form = new FormData(event.target);
  try {
    if (action === "sign-up") {
      if (!form.get("email")) throw new Error("give an e-mail address to create an account");
      await session.signUp(form.get("username"), form.get("password"), form.get("email"));
    } else {
      await session.signIn(form.get("username"), form.get("password"));
    }
    event.target.reset();
    dialog.close();
    document.getElementById("sign-out").focus();
  } catch (error) {
    signInError.textContent = error.message;
  }
});
document.getElementById("sign-out").addEventListener("click", async () => {
  try {
    await session.signOut();
  } catch (error) {
    status.textContent = `Signed out here; the server did not hear it (${error.message}), so the session ends when it expires.`;
  }
  document.getElementById("sign-in-open").focus();
});

// The person's notifications: one stream for the page, while signed in.
const unread = document.getElementById("unread");
const notificationList = document.getElementById("notification-list");
const toggle = document.getElementById("notifications-toggle");
toggle.addEventListener("click", () => {
  const section = document.getElementById("notifications");
  section.hidden = !section.hidden;
  toggle.setAttribute("aria-expanded", String(!section.hidden));
});

function notified(name, data) {
  if (name === "snapshot") {
    notificationList.replaceChildren(...data.items.map((item) => element("li", item.message)));
    unread.textContent = data.unreadCount ? String(data.unreadCount) : "";
  } else if (name === "notification") {
    notificationList.prepend(element("li", data.message));
    unread.textContent = String(Number(unread.textContent || 0) + 1);
    if (data.kind === "decisionStarted" || data.kind === "decisionCompleted") decisions.refresh();
  }
}

const decisions = new Decisions(session);

session.onChange(() => {
  const signedIn = session.signedIn;
  document.getElementById("whoami").textContent = signedIn ? `Signed in as ${session.user.username}` : "";
  document.getElementById("sign-in-open").hidden = signedIn;
  document.getElementById("sign-out").hidden = !signedIn;
  toggle.hidden = !signedIn;
  if (!signedIn) {
    document.getElementById("notifications").hidden = true;
    toggle.setAttribute("aria-expanded", "false");
    notificationList.replaceChildren();
    unread.textContent = "";
  }
  session.watchNotifications(notified, (state) => (toggle.dataset.stream = state));
});
session.resume();
