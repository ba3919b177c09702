// The map: Web Mercator on a canvas (Natural Earth's countries under a faint graticule, or raster tiles when the
// server names a tile server), the near-here circle and the places chosen and linked drawn over it, and the
// viewport's pins and clusters (map-markers.js) over those. Its input handlers live in map-input.js, its maths in
// geo.js, the basemap in basemap.js. The view is in the address (#map=ZOOM/LAT/LON).

import { TILE, MAX_LATITUDE, MIN_ZOOM, MAX_ZOOM, clampZoom, project, unproject, unit, wrapLongitude, metresPerPixel } from "./geo.js";
import { listen } from "./map-input.js";
import { Markers } from "./map-markers.js";
import { decodeBasemap, drawBasemap } from "./basemap.js";
import { api } from "./api.js";

const SVG = "http://www.w3.org/2000/svg";

export class PlacesMap {
  /**
   * @param {HTMLElement} element the map's box: it holds the canvas, the layers and the markers
   * @param {{openPlace: (id: string) => void, pick: (point: {lat: number, lon: number}) => void,
   *          link: (id: string | null) => void}} actions what a pin, a click on the map and a hovered pin do
   */
  constructor(element, actions) {
    this.element = element;
    this.pick = actions.pick;
    this.canvas = element.querySelector("canvas");
    this.tiles = element.querySelector(".tiles");
    this.overlay = element.querySelector(".overlay");
    this.markers = new Markers(this, actions);
    // The server's tile template and its attribution, when it has one (`--map-tiles`); else Natural Earth's countries.
    this.tileTemplate = document.querySelector('meta[name="map-tiles"]').content;
    element.querySelector(".attribution").textContent = this.tileTemplate
      ? document.querySelector('meta[name="map-attribution"]').content
      : "Countries: Natural Earth";
    this.basemap = null;
    if (!this.tileTemplate) {
      api.request("/web/basemap.json").then((json) => {
        this.basemap = decodeBasemap(json);
        this.draw();
      }).catch((error) => console.warn("the basemap did not load:", error.message));
    }
    this.here = null;
    this.chosen = null;
    this.linked = null;
    /** Layers drawn over the map by other views (meet's circles): each answers its SVG shapes for the view. */
    this.layers = [];
    // Without a view in the address: the whole world, at the largest zoom whose width the map holds.
    const fits = Math.floor(Math.log2(Math.max(element.clientWidth, TILE) / TILE));
    const view = PlacesMap.fromHash() || { zoom: clampZoom(fits), lat: 20, lon: 0 };
    this.zoom = view.zoom;
    this.center = { lat: view.lat, lon: view.lon };
    listen(this);
    // A link to a view (`#map=ZOOM/LAT/LON`), followed or typed, moves the map there.
    window.addEventListener("hashchange", () => {
      const linked = PlacesMap.fromHash();
      if (linked) this.show(linked.lat, linked.lon, linked.zoom);
    });
    new ResizeObserver(() => this.render()).observe(element);
  }

  /** The view the address names (`#map=ZOOM/LAT/LON`), or null. */
  static fromHash() {
    const [zoom, lat, lon] = (location.hash.match(/^#map=([\d.]+)\/(-?[\d.]+)\/(-?[\d.]+)$/) || []).slice(1).map(Number);
    if (![zoom, lat, lon].every(Number.isFinite)) return null;
    return { zoom: clampZoom(Math.round(zoom)), lat: Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat)), lon };
  }

  get width() {
    return this.element.clientWidth;
  }

  get height() {
    return this.element.clientHeight;
  }

  /** Moves the map to a coordinate, at a zoom when given. */
  show(lat, lon, zoom = this.zoom) {
    this.center = { lat, lon };
    this.zoom = clampZoom(zoom);
    this.render();
  }

  /** Shows a box whole, at the largest zoom that holds it (at least `atLeast`). */
  fit(box, { atLeast = MIN_ZOOM } = {}) {
    const sw = unit(box.south, box.west);
    const ne = unit(box.north, box.east);
    const across = box.west <= box.east ? ne.x - sw.x : ne.x + 1 - sw.x;
    const high = sw.y - ne.y;
    const margin = 48;
    const zoomFor = (pixels, span) => (span <= 0 ? MAX_ZOOM : Math.log2(Math.max(1, pixels - 2 * margin) / (TILE * span)));
    const zoom = Math.floor(Math.min(zoomFor(this.width, across), zoomFor(this.height, high)));
    const middle = unproject(((sw.x + across / 2) % 1) * TILE, ((ne.y + sw.y) / 2) * TILE, 0);
    this.show(middle.lat, wrapLongitude(middle.lon), Math.max(atLeast, zoom));
  }

  /** Moves the centre by a number of screen pixels. */
  panBy(dx, dy) {
    const c = project(this.center.lat, this.center.lon, this.zoom);
    const size = TILE * 2 ** this.zoom;
    const next = unproject(c.x + dx, Math.max(0, Math.min(size, c.y + dy)), this.zoom);
    next.lon = wrapLongitude(next.lon);
    this.center = next;
    this.render();
  }

  zoomBy(step) {
    this.show(this.center.lat, this.center.lon, this.zoom + step);
  }

  /** Draws the view at once, and asks for its places once the view rests. */
  render() {
    this.draw();
    this.markers.follow();
    // The address and the markers follow once the view rests (a browser limits how often the address may change).
    clearTimeout(this.pending);
    this.pending = setTimeout(() => {
      history.replaceState(null, "", `#map=${this.zoom}/${this.center.lat.toFixed(5)}/${this.center.lon.toFixed(5)}`);
      this.markers.load();
    }, 120);
  }

  /** The background (countries and graticule, or tiles) and the overlay. */
  draw() {
    const { width, height } = this;
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = width * ratio;
    this.canvas.height = height * ratio;
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    const context = this.canvas.getContext("2d");
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    const colours = getComputedStyle(this.element);
    const colour = (name) => colours.getPropertyValue(name).trim();
    context.fillStyle = colour("--map-water");
    context.fillRect(0, 0, width, height);
    const c = project(this.center.lat, this.center.lon, this.zoom);
    const view = { originX: c.x - width / 2, originY: c.y - height / 2, width, height, worldSize: TILE * 2 ** this.zoom };
    if (this.tileTemplate) {
      this.drawTiles(view);
    } else if (this.basemap) {
      drawBasemap(context, this.basemap, view, { land: colour("--map-land"), border: colour("--map-border") });
    }
    this.drawGraticule(context, colour("--map-graticule"));
    this.drawOverlay();
  }

  /** The coordinate under a screen pixel of the map. */
  at(x, y) {
    const c = project(this.center.lat, this.center.lon, this.zoom);
    const size = TILE * 2 ** this.zoom;
    const point = unproject(c.x + x - this.width / 2, Math.max(0, Math.min(size, c.y + y - this.height / 2)), this.zoom);
    point.lon = wrapLongitude(point.lon);
    return point;
  }

  /** Shows the circle "near here" asks about (or none); one that the view cannot hold zooms the map out, about the
   * same centre, until it holds it. */
  setCircle(center, miles) {
    this.here = center ? { ...center, miles } : null;
    if (this.here) {
      let zoom = this.zoom;
      const margin = 8;
      const fits = (z) => {
        const scale = 2 ** (z - this.zoom);
        const at = this.screen(center.lat, center.lon);
        const radius = (miles * 1609.344) / metresPerPixel(center.lat, z);
        const dx = Math.abs(at.x - this.width / 2) * scale;
        const dy = Math.abs(at.y - this.height / 2) * scale;
        return dx + radius <= this.width / 2 - margin && dy + radius <= this.height / 2 - margin;
      };
      while (zoom > MIN_ZOOM && !fits(zoom)) zoom -= 1;
      if (zoom !== this.zoom) {
        this.zoomBy(zoom - this.zoom);
        return;
      }
    }
    this.drawOverlay();
  }

  /** Marks the place opened: its pin, or a ring where it is when a cluster holds it. */
  choose(place) {
    this.chosen = place;
    this.markers.choose(place ? place.id : null);
    this.drawOverlay();
  }

  /** Marks a place hovered or focused in a list (or none). */
  link(place) {
    this.linked = place;
    this.markers.link(place ? place.id : null);
    this.drawOverlay();
  }

  /** The circle, "here", and rings at the places chosen and linked. */
  drawOverlay() {
    const shapes = [];
    const ring = (lat, lon, radius, className) => {
      const at = this.screen(lat, lon);
      const shape = document.createElementNS(SVG, "circle");
      shape.setAttribute("cx", String(at.x));
      shape.setAttribute("cy", String(at.y));
      shape.setAttribute("r", String(radius));
      shape.setAttribute("class", className);
      shapes.push(shape);
    };
    if (this.here) {
      ring(this.here.lat, this.here.lon, Math.max(3, (this.here.miles * 1609.344) / metresPerPixel(this.here.lat, this.zoom)), "near");
      ring(this.here.lat, this.here.lon, 4, "here");
    }
    if (this.chosen) ring(this.chosen.lat, this.chosen.lon, 14, "chosen");
    if (this.linked) ring(this.linked.lat, this.linked.lon, 12, "linked");
    for (const layer of this.layers) shapes.unshift(...layer.shapes(this));
    this.overlay.replaceChildren(...shapes);
  }

  /** Lays the tiles of the view, as images from the tile server (kept while still in view). */
  drawTiles(view) {
    const count = 2 ** this.zoom;
    const kept = new Map([...this.tiles.children].map((image) => [image.dataset.key, image]));
    const shown = [];
    const { originX: left, originY: top, width, height } = view;
    for (let row = Math.max(0, Math.floor(top / TILE)); row <= Math.min(count - 1, Math.floor((top + height) / TILE)); row++) {
      for (let column = Math.floor(left / TILE); column <= Math.floor((left + width) / TILE); column++) {
        const x = ((column % count) + count) % count;
        const key = `${this.zoom}/${column}/${row}`;
        let image = kept.get(key);
        if (!image) {
          image = document.createElement("img");
          image.alt = "";
          image.dataset.key = key;
          image.src = this.tileTemplate.replace("{z}", String(this.zoom)).replace("{x}", String(x)).replace("{y}", String(row));
        }
        image.style.left = `${column * TILE - left}px`;
        image.style.top = `${row * TILE - top}px`;
        shown.push(image);
      }
    }
    this.tiles.replaceChildren(...shown);
  }

  /** The screen pixel of a coordinate, for the current view (the nearest copy of the world). */
  screen(lat, lon) {
    const c = project(this.center.lat, this.center.lon, this.zoom);
    const p = project(lat, lon, this.zoom);
    const size = TILE * 2 ** this.zoom;
    let dx = p.x - c.x;
    if (dx > size / 2) dx -= size;
    if (dx < -size / 2) dx += size;
    return { x: this.width / 2 + dx, y: this.height / 2 + (p.y - c.y) };
  }

  /** Lines of latitude and longitude, faint, at a spacing that suits the zoom. */
  drawGraticule(context, colour) {
    const spacing = [30, 30, 15, 10, 5, 2, 1, 0.5, 0.25, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.001, 0.0005, 0.0002][this.zoom] || 0.0002;
    const box = this.box();
    context.strokeStyle = colour;
    context.lineWidth = 1;
    context.beginPath();
    for (let lat = Math.ceil(box.south / spacing) * spacing; lat <= box.north; lat += spacing) {
      const y = this.screen(lat, this.center.lon).y;
      context.moveTo(0, y);
      context.lineTo(this.width, y);
    }
    const west = box.west > box.east ? box.west - 360 : box.west;
    for (let lon = Math.ceil(west / spacing) * spacing; lon <= box.east; lon += spacing) {
      const x = this.screen(this.center.lat, lon).x;
      context.moveTo(x, 0);
      context.lineTo(x, this.height);
    }
    context.stroke();
  }

  /** The viewport as the API's box: west, south, east, north (west > east across the antimeridian). */
  box() {
    const c = project(this.center.lat, this.center.lon, this.zoom);
    const size = TILE * 2 ** this.zoom;
    const top = unproject(c.x, Math.max(0, c.y - this.height / 2), this.zoom).lat;
    const bottom = unproject(c.x, Math.min(size, c.y + this.height / 2), this.zoom).lat;
    if (this.width >= size) return { west: -180, south: bottom, east: 180, north: top };
    const west = wrapLongitude(unproject(c.x - this.width / 2, c.y, this.zoom).lon);
    const east = wrapLongitude(unproject(c.x + this.width / 2, c.y, this.zoom).lon);
    return { west, south: bottom, east, north: top };
  }

  /** Puts a marker where its coordinate is in the current view. */
  position(marker) {
    const at = this.screen(Number(marker.dataset.lat), Number(marker.dataset.lon));
    marker.style.left = `${at.x}px`;
    marker.style.top = `${at.y}px`;
  }
}
