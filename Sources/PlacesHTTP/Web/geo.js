// Web Mercator as the map draws it (as Leaflet's SphericalMercator does), and places' positions in words.

export const TILE = 256;
export const MAX_LATITUDE = 85.0511287798066;
export const MIN_ZOOM = 0;
export const MAX_ZOOM = 18;
const EARTH_RADIUS = 6371008.8;

/** A longitude brought into [-180, 180). */
export function wrapLongitude(lon) {
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

/** A zoom kept within the map's. */
export function clampZoom(zoom) {
  return Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, zoom));
}

/** Mercator's x and y of a coordinate on a world one unit wide (x eastwards from the antimeridian, y southwards). */
export function unit(lat, lon) {
  const phi = (Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat)) * Math.PI) / 180;
  return { x: (lon + 180) / 360, y: (1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2 };
}

/** The world pixel of a coordinate at a zoom. */
export function project(lat, lon, zoom) {
  const size = TILE * 2 ** zoom;
  const u = unit(lat, lon);
  return { x: u.x * size, y: u.y * size };
}

/** The coordinate of a world pixel at a zoom. */
export function unproject(x, y, zoom) {
  const size = TILE * 2 ** zoom;
  const lon = (x / size) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / size))) * 180) / Math.PI;
  return { lat, lon };
}

/** Metres a screen pixel spans at a latitude and zoom (Mercator's scale shrinks by the latitude's cosine). */
export function metresPerPixel(lat, zoom) {
  return (Math.cos((lat * Math.PI) / 180) * 2 * Math.PI * EARTH_RADIUS) / (TILE * 2 ** zoom);
}

/** True when a coordinate lies in a box (west > east: across the antimeridian). */
export function inBox(box, lat, lon) {
  if (lat < box.south || lat > box.north) return false;
  return box.west <= box.east ? lon >= box.west && lon <= box.east : lon >= box.west || lon <= box.east;
}

const POINTS = {
  N: "north", NNE: "north-northeast", NE: "northeast", ENE: "east-northeast", E: "east", ESE: "east-southeast",
  SE: "southeast", SSE: "south-southeast", S: "south", SSW: "south-southwest", SW: "southwest", WSW: "west-southwest",
  W: "west", WNW: "west-northwest", NW: "northwest", NNW: "north-northwest",
};

/** A number as a distance reads: one decimal below 10, whole (with thousands separated) from there. */
function amount(value) {
  return value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString("en");
}

/** A distance in words from metres: "120 m", "2.4 miles", "1,890 miles"; with `km`, "2.4 miles (3.9 km)". */
export function distanceInWords(metres, { km = false } = {}) {
  const miles = metres / 1609.344;
  if (miles < 0.1) return `${Math.round(metres)} m`;
  return `${amount(miles)} ${miles === 1 ? "mile" : "miles"}${km ? ` (${amount(metres / 1000)} km)` : ""}`;
}

/** The API's directions in words: "0.8 miles (1.3 km) northeast of here". */
export function directionsInWords(directions, from = "here") {
  return `${distanceInWords(directions.distanceMeters, { km: true })} ${POINTS[directions.compass] || directions.compass} of ${from}`;
}

/** An IANA time zone as a person names it: its city ("America/Los_Angeles" → "Los Angeles time"). */
export function zoneInWords(zone) {
  if (!zone) return "";
  const city = zone.split("/").pop().replaceAll("_", " ");
  return `${city} time`;
}
