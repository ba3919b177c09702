// The map's offline background: the countries and coastlines of basemap.json (Natural Earth 1:110m, written by
// Tests/tools/make-basemap.py), filled and outlined on the canvas in Web Mercator, under the markers. Each point is
// projected once, when decoded, to the unit square (geo.js's `unit`: x eastwards from the antimeridian, y southwards
// from the top, latitudes past ±85.0511° on its edge); a zoom's paths only multiply them by the size of its world.

import { MAX_LATITUDE, unit } from "./geo.js";

/**
 * The polygons of basemap.json: each an array of rings (its outside, then its holes), each ring an array of
 * [lon, lat] pairs, implicitly closed. For drawing, each ring also has `xy` (its points in the unit square, flat) and
 * `cut` (whether the edge from point i to the next is a cut of the data, not a coast or a border: along the
 * antimeridian, where Russia and Fiji are split and Antarctica ends, or along Antarctica's clamped bottom), and each
 * polygon has `box` ([west, north, east, south] in the unit square).
 * @param {{scale: number, polygons: number[][][]}} json rings as delta-encoded integers (see make-basemap.py)
 */
export function decodeBasemap(json) {
  return json.polygons.map((encoded) => {
    const box = [Infinity, Infinity, -Infinity, -Infinity];
    const rings = encoded.map((flat) => {
      const ring = [];
      const xy = new Float64Array(flat.length);
      for (let i = 0, lon = 0, lat = 0; i < flat.length; i += 2) {
        lon += flat[i];
        lat += flat[i + 1];
        ring.push([lon / json.scale, lat / json.scale]);
        ({ x: xy[i], y: xy[i + 1] } = unit(lat / json.scale, lon / json.scale));
        box[0] = Math.min(box[0], xy[i]);
        box[1] = Math.min(box[1], xy[i + 1]);
        box[2] = Math.max(box[2], xy[i]);
        box[3] = Math.max(box[3], xy[i + 1]);
      }
      // Integers over the same scale: ±180 and equal longitudes compare exactly.
      const edge = (a, b) => Math.abs(a[1]) >= MAX_LATITUDE && Math.abs(b[1]) >= MAX_LATITUDE && a[1] * b[1] > 0;
      const cut = Uint8Array.from(ring, (a, i) => {
        const b = ring[(i + 1) % ring.length];
        return (Math.abs(a[0]) === 180 && a[0] === b[0]) || edge(a, b) ? 1 : 0;
      });
      return Object.assign(ring, { xy, cut });
    });
    return Object.assign(rings, { box });
  });
}

/** A polygon's land, outline and cuts as paths in world pixels at a world size (kept on it until the zoom changes). */
function paths(polygon, size) {
  if (polygon.size === size) return polygon.paths;
  const [fill, lines, seams] = [new Path2D(), new Path2D(), new Path2D()];
  for (const { xy, cut } of polygon) {
    const n = xy.length / 2;
    const x = (i) => xy[2 * (i % n)] * size;
    const y = (i) => xy[2 * (i % n) + 1] * size;
    fill.moveTo(x(0), y(0));
    // The outline goes on unbroken from one edge to the next, except across a cut.
    let drawing = false;
    for (let i = 0; i < n; i++) {
      if (i + 1 < n) fill.lineTo(x(i + 1), y(i + 1));
      if (cut[i]) {
        seams.moveTo(x(i), y(i));
        seams.lineTo(x(i + 1), y(i + 1));
        drawing = false;
      } else {
        if (!drawing) lines.moveTo(x(i), y(i));
        lines.lineTo(x(i + 1), y(i + 1));
        drawing = true;
      }
    }
    fill.closePath();
    if (!cut.includes(1)) lines.closePath();
  }
  polygon.size = size;
  polygon.paths = [fill, lines, seams];
  return polygon.paths;
}

/**
 * Draws the land of the view: each copy of the world the view shows (the map wraps around the antimeridian), only
 * the polygons whose box is in view. Land is filled, coasts and borders stroked; the cuts are stroked in the land's
 * colour, so no seam shows where the two sides of the antimeridian meet. A polygon's paths are built at its first
 * draw at a zoom, so a pan only moves them.
 * @param {CanvasRenderingContext2D} context drawn in CSS pixels (map.js sets the device pixel ratio's transform)
 * @param {ReturnType<typeof decodeBasemap>} polygons
 * @param {{originX: number, originY: number, width: number, height: number, worldSize: number}} view the world pixel
 *   at the canvas's top left corner (x may be negative or past the world's width: copies of the world), the canvas's
 *   size in CSS pixels, and the world's size at the zoom (256 * 2 ** zoom)
 * @param {{land: string, border: string, lineWidth?: number}} style the colours (CSS) and the border's width
 */
export function drawBasemap(context, polygons, view, { land, border, lineWidth = 1 }) {
  const size = view.worldSize;
  const shown = [new Path2D(), new Path2D(), new Path2D()];
  const [top, bottom] = [view.originY / size, (view.originY + view.height) / size];
  for (let copy = Math.floor(view.originX / size); copy * size < view.originX + view.width; copy++) {
    // The view in this copy's unit square, and where the copy's origin is on the canvas.
    const left = view.originX / size - copy;
    const right = left + view.width / size;
    const shift = { e: copy * size - view.originX, f: -view.originY };
    for (const polygon of polygons) {
      const [west, north, east, south] = polygon.box;
      if (east < left || west > right || south < top || north > bottom) continue;
      paths(polygon, size).forEach((path, k) => shown[k].addPath(path, shift));
    }
  }
  context.save();
  context.fillStyle = land;
  context.fill(shown[0], "nonzero");
  context.lineJoin = "round";
  context.lineWidth = lineWidth;
  context.strokeStyle = land;
  context.stroke(shown[2]);
  context.strokeStyle = border;
  context.stroke(shown[1]);
  context.restore();
}
