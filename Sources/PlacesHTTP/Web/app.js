// The page's entry: it makes each view and wires them together. The map and search where it looks, "near here",
// meeting in the middle, a place's panel with its photos; for a signed-in person their favourites and ratings, photos
// added, groups, invitations and admins' alerts, decisions started, followed live and voted on, notifications (live),
// their settings and picture, and their people (friends, requests, blocks, a status). Plain JavaScript, served by
// `places serve` from the binary; it talks to the same API any client uses, through one client (api.js).

import { PlacesMap } from "./map.js";
import { Session } from "./account.js";
import { PlacePanel } from "./place.js";
import { Results } from "./results.js";
import { Finder } from "./search.js";
import { Decisions } from "./decisions.js";
import { DecisionStart } from "./decision-start.js";
import { Groups } from "./groups.js";
import { Notifications } from "./notifications.js";
import { Meet } from "./meet.js";
import { SettingsPanel } from "./settings.js";
import { People } from "./people.js";
import { Picture } from "./picture.js";
import { byId } from "./dom.js";
import { inBox, distanceInWords } from "./geo.js";

const session = new Session();

// "Here": a point picked on the map or the browser's location; nearby questions and a place's distance start there.
const here = { point: null };
const radius = byId("near-radius");

const results = new Results({ open: (id) => open(id), link: (place) => map.link(place) });
const map = new PlacesMap(byId("map"), {
  openPlace: (id) => open(id),
  // While meet is picking origins, the map's pick adds one; otherwise it is "here".
  pick: (point) => (meet.picking ? meet.add(point) : setHere(point, "picked on the map")),
  link: (id) => results.mark(id),
});
const finder = new Finder(map, results);
const meet = new Meet(map, results);
const panel = new PlacePanel(session, {
  here: () => here.point,
  shown: (place) => map.choose(place),
  closed: () => map.choose(null),
});

/** Opens a place: a far one is said where it is first, then the map moves to it. */
async function open(id) {
  try {
    const listed = results.place(id);
    const box = map.box();
    if (listed && !inBox(box, listed.lat, listed.lon)) {
      const far = listed.distanceMeters !== undefined ? `, ${distanceInWords(listed.distanceMeters)} from the map's centre` : "";
      results.say(`${listed.name} is in ${listed.city || "another place"}${far}: the map moves there.`);
    }
    const place = await panel.open(id);
    if (place && !inBox(map.box(), place.lat, place.lon)) map.show(place.lat, place.lon, Math.max(map.zoom, 13));
  } catch (error) {
    results.say(`Could not open the place: ${error.message}`);
  }
}

function setHere(point, how) {
  here.point = point;
  const where = byId("near-where");
  where.textContent = `Here (${how}): ${point.lat.toFixed(4)}, ${point.lon.toFixed(4)}`;
  where.dataset.lat = String(point.lat);
  where.dataset.lon = String(point.lon);
  byId("near-list").disabled = false;
  byId("near-popular").disabled = false;
  map.setCircle(point, Number(radius.value));
  start.renderSource();
}

radius.addEventListener("input", () => {
  byId("near-radius-value").textContent = `${radius.value} mi`;
  if (here.point) map.setCircle(here.point, Number(radius.value));
  start.renderSource();
});
radius.addEventListener("change", () => {
  const sort = results.state.sort;
  if (here.point && sort) finder.near(here.point, Number(radius.value), sort);
});
byId("near-list").addEventListener("click", () => finder.near(here.point, Number(radius.value), "distance"));
byId("near-popular").addEventListener("click", () => finder.near(here.point, Number(radius.value), "score"));
byId("near-locate").addEventListener("click", () => {
  if (!navigator.geolocation) {
    results.say("This browser cannot tell its location: tap the map instead.");
    return;
  }
  navigator.geolocation.getCurrentPosition(
    (position) => {
      setHere({ lat: position.coords.latitude, lon: position.coords.longitude }, "your location");
      map.show(here.point.lat, here.point.lon, Math.max(map.zoom, 12));
      finder.near(here.point, Number(radius.value), "distance");
    },
    (error) => results.say(`No location: ${error.message}. Tap the map instead.`),
  );
});

// Signing in, up and out.
const dialog = byId("sign-in");
byId("sign-in-open").addEventListener("click", () => {
  byId("sign-in-form").reset();
  byId("sign-in-error").textContent = "";
  dialog.showModal();
});
byId("sign-in-form").addEventListener("submit", async (event) => {
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
    byId("sign-out").focus();
  } catch (error) {
    byId("sign-in-error").textContent = error.message;
  }
});
byId("sign-out").addEventListener("click", async () => {
  try {
    await session.signOut();
  } catch (error) {
    results.say(`Signed out here; the server did not hear it (${error.message}), so the session ends when it expires.`);
  }
  byId("sign-in-open").focus();
});

const decisions = new Decisions(session, (placeId) => open(placeId));
const groups = new Groups(session);
const start = new DecisionStart(session, {
  here: () => (here.point ? { ...here.point, miles: Number(radius.value) } : null),
  started: (id) => {
    decisions.refresh();
    decisions.show(id);
  },
  refreshGroups: () => groups.refresh(),
  meet: () => meet.origins,
});
meet.onChange(() => start.renderSource());
new SettingsPanel(session, { here: () => here.point });
new People(session);
new Picture(session);
groups.onChange((list) => start.groups(list));
byId("place-pick").addEventListener("click", () => {
  if (panel.place) start.pick(panel.place);
  byId("place-mine-status").textContent = "Added to the decision you are starting (under “Decide together”).";
});
new Notifications(session, {
  decision: (id) => decisions.show(id),
  group: (id) => groups.show(id),
  answer: (groupId, how, status) => groups.answer(groupId, how, status),
  changed: () => {
    groups.refresh();
    decisions.refresh();
  },
});

session.onChange(() => {
  const signedIn = session.signedIn;
  byId("whoami").textContent = signedIn ? `Signed in as ${session.user.username}` : "";
  byId("sign-in-open").hidden = signedIn;
  byId("sign-out").hidden = !signedIn;
  byId("together").hidden = !signedIn;
});
session.resume();
