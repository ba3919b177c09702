// The map: Web Mercator on a canvas (a graticule as its background, under raster tiles when the server names a tile
// server), with the places of the viewport as pins and clusters from `GET /v1/places/clusters`. Pins and clusters
// are buttons laid over the canvas, so the keyboard and a screen reader reach them as they reach any control. Pan by
// dragging (mouse or touch) or with the arrow keys, zoom with the wheel, a pinch, + and - or the map's own buttons; a
// click (or Enter) picks "here".

const TILE = 256;
const MAX_LATITUDE = 85.0511287798066;
const MIN_ZOOM = 1;
const MAX_ZOOM = 18;

/** The world pixel of a coordinate at a zoom (x eastwards from the antimeridian, y southwards from the top). */
export function project(lat, lon, zoom) {
  const size = TILE * 2 ** zoom;
  const phi = (Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat)) * Math.PI) / 180;
  return {
    x: ((lon + 180) / 360) * size,
    y: ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * size,
  };
}

/** The coordinate of a world pixel at a zoom. */
export function unproject(x, y, zoom) {
  const size = TILE * 2 ** zoom;
  const lon = (x / size) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / size))) * 180) / Math.PI;
  return { lat, lon };
}

export class PlacesMap {
  /**
   * @param {HTMLElement} element the map's box: it holds the canvas and the markers
   * @param {(id: string) => void} openPlace what a pin does when chosen
   * @param {(point: {lat: number, lon: number}) => void} pick what a click on the map (or Enter) does with its point
   */
  constructor(element, openPlace, pick) {
    this.element = element;
    this.openPlace = openPlace;
    this.pick = pick;
    this.canvas = element.querySelector("canvas");
    this.tiles = element.querySelector(".tiles");
    this.circle = element.querySelector(".circle");
    this.markers = element.querySelector(".markers");
    this.status = element.querySelector(".map-status");
    // The server's tile template and its attribution, when it has one (`--map-tiles`).
    this.tileTemplate = document.querySelector('meta[name="map-tiles"]').content;
    element.querySelector(".attribution").textContent = this.tileTemplate
      ? document.querySelector('meta[name="map-attribution"]').content
      : "";
    this.here = null;
    // Without a view in the address: the whole world, at the largest zoom whose width the map holds.
    const fits = Math.floor(Math.log2(Math.max(element.clientWidth, TILE) / TILE));
    const view = PlacesMap.fromHash() || { zoom: Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, fits)), lat: 20, lon: 0 };
    this.zoom = view.zoom;
    this.center = { lat: view.lat, lon: view.lon };
    this.asked = 0;
    this.listen();
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
    return { zoom: Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, Math.round(zoom))), lat: Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat)), lon };
  }

  /** Moves the map to a coordinate, at a zoom when given. */
  show(lat, lon, zoom = this.zoom) {
    this.center = { lat, lon };
    this.zoom = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, zoom));
    this.render();
  }

  /** Moves the centre by a number of screen pixels. */
  panBy(dx, dy) {
    const c = project(this.center.lat, this.center.lon, this.zoom);
    const size = TILE * 2 ** this.zoom;
    const next = unproject(c.x + dx, Math.max(0, Math.min(size, c.y + dy)), this.zoom);
    // Longitudes wrap around the world.
    next.lon = ((((next.lon + 180) % 360) + 360) % 360) - 180;
    this.center = next;
    this.render();
  }

  zoomBy(step) {
    this.show(this.center.lat, this.center.lon, this.zoom + step);
  }

  listen() {
    let drag = null;
    // Fingers on the map: one drags it; two pinch it, a zoom step each time their distance doubles or halves.
    const touches = new Map();
    let pinch = null;
    const spread = () => {
      const [a, b] = [...touches.values()];
      return Math.hypot(a.x - b.x, a.y - b.y);
    };
    this.canvas.addEventListener("pointerdown", (event) => {
      touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (touches.size === 2) {
        drag = null;
        pinch = spread();
      } else {
        drag = { x: event.clientX, y: event.clientY, moved: 0 };
      }
      try {
        this.canvas.setPointerCapture(event.pointerId);
      } catch {
        // A pointer already gone (or made by a script) cannot be captured; its moves still reach the canvas.
      }
    });
    this.canvas.addEventListener("pointermove", (event) => {
      if (touches.has(event.pointerId)) touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (pinch && touches.size === 2) {
        const now = spread();
        if (now > pinch * 2 || now < pinch / 2) {
          this.zoomBy(now > pinch ? 1 : -1);
          pinch = now;
        }
        return;
      }
      if (!drag) return;
      drag.moved += Math.abs(drag.x - event.clientX) + Math.abs(drag.y - event.clientY);
      this.panBy(drag.x - event.clientX, drag.y - event.clientY);
      drag.x = event.clientX;
      drag.y = event.clientY;
    });
    // A press that did not drag is a click: it picks its point as "here".
    this.canvas.addEventListener("pointerup", (event) => {
      if (drag && drag.moved < 5) {
        const box = this.canvas.getBoundingClientRect();
        this.pick(this.at(event.clientX - box.left, event.clientY - box.top));
      }
      drag = null;
      touches.delete(event.pointerId);
      if (touches.size < 2) pinch = null;
    });
    this.canvas.addEventListener("pointercancel", (event) => {
      drag = null;
      touches.delete(event.pointerId);
      if (touches.size < 2) pinch = null;
    });
    this.element.querySelector(".zoom-in").addEventListener("click", () => this.zoomBy(1));
    this.element.querySelector(".zoom-out").addEventListener("click", () => this.zoomBy(-1));
    // A wheel (or a trackpad's many small events) zooms a step per 100 pixels of scrolling.
    let scrolled = 0;
    this.canvas.addEventListener("wheel", (event) => {
      event.preventDefault();
      scrolled += event.deltaMode === 0 ? event.deltaY : event.deltaY * 100;
      if (Math.abs(scrolled) < 100) return;
      this.zoomBy(scrolled < 0 ? 1 : -1);
      scrolled = 0;
    }, { passive: false });
    this.element.addEventListener("keydown", (event) => {
      if (event.target !== this.element) return;
      const step = 100;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      if (moves[event.key]) this.panBy(...moves[event.key]);
      else if (event.key === "+" || event.key === "=") this.zoomBy(1);
      else if (event.key === "-") this.zoomBy(-1);
      else if (event.key === "Enter") this.pick({ ...this.center });
      else return;
      event.preventDefault();
    });
  }

  /** Draws the background at once and asks for the viewport's places (the latest answer wins). */
  render() {
    const width = this.element.clientWidth;
    const height = this.element.clientHeight;
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = width * ratio;
    this.canvas.height = height * ratio;
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    const context = this.canvas.getContext("2d");
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    this.drawGraticule(context, width, height);
    if (this.tileTemplate) this.drawTiles(width, height);
    this.drawCircle(width, height);
    // The markers shown follow the view at once; the viewport's own come with the answer.
    for (const button of this.markers.children) this.position(button, width, height);
    // The address and the markers follow once the view rests (a browser limits how often the address may change).
    clearTimeout(this.pending);
    this.pending = setTimeout(() => {
      history.replaceState(null, "", `#map=${this.zoom}/${this.center.lat.toFixed(5)}/${this.center.lon.toFixed(5)}`);
      this.load(width, height);
    }, 120);
  }

  /** The coordinate under a screen pixel of the map. */
  at(x, y) {
    const c = project(this.center.lat, this.center.lon, this.zoom);
    const size = TILE * 2 ** this.zoom;
    const point = unproject(c.x + x - this.element.clientWidth / 2, Math.max(0, Math.min(size, c.y + y - this.element.clientHeight / 2)), this.zoom);
    point.lon = ((((point.lon + 180) % 360) + 360) % 360) - 180;
    return point;
  }

  /** Shows the circle "near here" asks about: its centre and radius in miles (or none). */
  setCircle(center, miles) {
    this.here = center ? { ...center, miles } : null;
    this.drawCircle(this.element.clientWidth, this.element.clientHeight);
  }

  drawCircle(width, height) {
    if (!this.here) {
      this.circle.replaceChildren();
      return;
    }
    const at = this.screen(this.here.lat, this.here.lon, width, height);
    // Web Mercator's scale at a latitude: metres per pixel shrink by its cosine.
    const metresPerPixel = (Math.cos((this.here.lat * Math.PI) / 180) * 2 * Math.PI * 6371008.8) / (TILE * 2 ** this.zoom);
    const ns = "http://www.w3.org/2000/svg";
    const ring = document.createElementNS(ns, "circle");
    ring.setAttribute("cx", String(at.x));
    ring.setAttribute("cy", String(at.y));
    ring.setAttribute("r", String(Math.max(3, (this.here.miles * 1609.344) / metresPerPixel)));
    const dot = document.createElementNS(ns, "circle");
    dot.setAttribute("cx", String(at.x));
    dot.setAttribute("cy", String(at.y));
    dot.setAttribute("r", "4");
    dot.setAttribute("class", "here");
    this.circle.replaceChildren(ring, dot);
  }

  /** Lays the tiles of the view over the graticule, as images from the tile server (kept while still in view). */
  drawTiles(width, height) {
    const c = project(this.center.lat, this.center.lon, this.zoom);
    const count = 2 ** this.zoom;
    const left = c.x - width / 2;
    const top = c.y - height / 2;
    const kept = new Map([...this.tiles.children].map((image) => [image.dataset.key, image]));
    const shown = [];
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
  screen(lat, lon, width, height) {
    const c = project(this.center.lat, this.center.lon, this.zoom);
    const p = project(lat, lon, this.zoom);
    const size = TILE * 2 ** this.zoom;
    let dx = p.x - c.x;
    if (dx > size / 2) dx -= size;
    if (dx < -size / 2) dx += size;
    return { x: width / 2 + dx, y: height / 2 + (p.y - c.y) };
  }

  drawGraticule(context, width, height) {
    context.fillStyle = "#e7eef3";
    context.fillRect(0, 0, width, height);
    const spacing = [30, 30, 15, 10, 5, 2, 1, 0.5, 0.25, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.001, 0.0005, 0.0002][this.zoom] || 0.0002;
    const box = this.box(width, height);
    context.strokeStyle = "#c5d3dd";
    context.lineWidth = 1;
    context.beginPath();
    for (let lat = Math.ceil(box.south / spacing) * spacing; lat <= box.north; lat += spacing) {
      const y = this.screen(lat, this.center.lon, width, height).y;
      context.moveTo(0, y);
      context.lineTo(width, y);
    }
    const west = box.crosses ? box.west - 360 : box.west;
    for (let lon = Math.ceil(west / spacing) * spacing; lon <= box.east; lon += spacing) {
      const x = this.screen(this.center.lat, lon, width, height).x;
      context.moveTo(x, 0);
      context.lineTo(x, height);
    }
    context.stroke();
  }

  /** The viewport as the API's box: west, south, east, north, across the antimeridian when it crosses it. */
  box(width, height) {
    const c = project(this.center.lat, this.center.lon, this.zoom);
    const size = TILE * 2 ** this.zoom;
    const top = unproject(c.x, Math.max(0, c.y - height / 2), this.zoom).lat;
    const bottom = unproject(c.x, Math.min(size, c.y + height / 2), this.zoom).lat;
    if (width >= size) return { west: -180, south: bottom, east: 180, north: top, crosses: false };
    const wrap = (lon) => ((((lon + 180) % 360) + 360) % 360) - 180;
    const west = wrap(unproject(c.x - width / 2, c.y, this.zoom).lon);
    const east = wrap(unproject(c.x + width / 2, c.y, this.zoom).lon);
    return { west, south: bottom, east, north: top, crosses: west > east };
  }

  /** Puts a marker where its coordinate is in the current view. */
  position(button, width, height) {
    const at = this.screen(Number(button.dataset.lat), Number(button.dataset.lon), width, height);
    button.style.left = `${at.x}px`;
    button.style.top = `${at.y}px`;
  }

  async load(width, height) {
    const mine = ++this.asked;
    const zoom = this.zoom;
    const box = this.box(width, height);
    const round = (value) => value.toFixed(5);
    const bbox = [box.west, box.south, box.east, box.north].map(round).join(",");
    try {
      const response = await fetch(`/v1/places/clusters?bbox=${bbox}&zoom=${zoom}`, { headers: { Accept: "application/geo+json" } });
      const answer = await response.json();
      if (mine !== this.asked) return;
      if (!response.ok) throw new Error(answer.error ? answer.error.message : `${response.status}`);
      this.place(answer.features, this.element.clientWidth, this.element.clientHeight);
      this.status.textContent = `${answer.count} places in view`;
      // The zoom the markers were answered for (a test waits for it).
      this.element.dataset.zoom = String(zoom);
    } catch (error) {
      if (mine === this.asked) this.status.textContent = `The map could not load its places: ${error.message}`;
    }
  }

  /** Lays the features out as buttons: a pin opens its place, a cluster zooms in on its members. */
  place(features, width, height) {
    const buttons = features.map((feature) => {
      const [lon, lat] = feature.geometry.coordinates;
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.lat = String(lat);
      button.dataset.lon = String(lon);
      this.position(button, width, height);
      const properties = feature.properties;
      if (properties.cluster) {
        button.className = "cluster";
        button.textContent = String(properties.count);
        button.setAttribute("aria-label", `${properties.count} places; zoom in`);
        button.addEventListener("click", () => this.show(lat, lon, this.zoom + 2));
      } else {
        button.className = `pin ${properties.kind}`;
        button.setAttribute("aria-label", `${properties.name}, ${properties.kind}`);
        button.title = properties.name;
        button.dataset.id = feature.id;
        button.addEventListener("click", () => this.openPlace(feature.id));
      }
      return button;
    });
    // A keyboard on a marker stays on the map when the markers are laid out again (on the same place, if it is there).
    const focused = this.markers.contains(document.activeElement) ? document.activeElement.dataset.id || "" : null;
    this.markers.replaceChildren(...buttons);
    if (focused !== null) (buttons.find((button) => focused && button.dataset.id === focused) || this.element).focus();
  }
}
