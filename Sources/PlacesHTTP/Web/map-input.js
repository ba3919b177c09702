// The map's input handlers, one per kind of input (as Leaflet's map/handler/ has them): drag and pinch by pointer,
// the wheel, the keyboard, and the zoom buttons. Each moves the map through its own methods (panBy, zoomBy, pick).

/** One finger (or the mouse) drags the map; two pinch it, a zoom step each time their distance doubles or halves. A
 * press that did not drag is a click: it picks its point as "here". */
function pointers(map) {
  const canvas = map.canvas;
  let drag = null;
  const touches = new Map();
  let pinch = null;
  const spread = () => {
    const [a, b] = [...touches.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  };
  const lift = (event) => {
    drag = null;
    touches.delete(event.pointerId);
    if (touches.size < 2) pinch = null;
  };
  canvas.addEventListener("pointerdown", (event) => {
    touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (touches.size === 2) {
      drag = null;
      pinch = spread();
    } else {
      drag = { x: event.clientX, y: event.clientY, moved: 0 };
    }
    try {
      canvas.setPointerCapture(event.pointerId);
    } catch {
      // A pointer already gone (or made by a script) cannot be captured; its moves still reach the canvas.
    }
  });
  canvas.addEventListener("pointermove", (event) => {
    if (touches.has(event.pointerId)) touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pinch && touches.size === 2) {
      const now = spread();
      if (now > pinch * 2 || now < pinch / 2) {
        map.zoomBy(now > pinch ? 1 : -1);
        pinch = now;
      }
      return;
    }
    if (!drag) return;
    drag.moved += Math.abs(drag.x - event.clientX) + Math.abs(drag.y - event.clientY);
    map.panBy(drag.x - event.clientX, drag.y - event.clientY);
    drag.x = event.clientX;
    drag.y = event.clientY;
  });
  canvas.addEventListener("pointerup", (event) => {
    if (drag && drag.moved < 5) {
      const box = canvas.getBoundingClientRect();
      map.pick(map.at(event.clientX - box.left, event.clientY - box.top));
    }
    lift(event);
  });
  canvas.addEventListener("pointercancel", lift);
}

/** A wheel (or a trackpad's many small events) zooms a step per 100 pixels of scrolling. */
function wheel(map) {
  let scrolled = 0;
  map.canvas.addEventListener("wheel", (event) => {
    event.preventDefault();
    scrolled += event.deltaMode === 0 ? event.deltaY : event.deltaY * 100;
    if (Math.abs(scrolled) < 100) return;
    map.zoomBy(scrolled < 0 ? 1 : -1);
    scrolled = 0;
  }, { passive: false });
}

/** On the focused map: arrows pan, + and - zoom, Enter picks the centre as "here". */
function keyboard(map) {
  map.element.addEventListener("keydown", (event) => {
    if (event.target !== map.element) return;
    const step = 100;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (moves[event.key]) map.panBy(...moves[event.key]);
    else if (event.key === "+" || event.key === "=") map.zoomBy(1);
    else if (event.key === "-") map.zoomBy(-1);
    else if (event.key === "Enter") map.pick({ ...map.center });
    else return;
    event.preventDefault();
  });
}

/** Every handler of the map. */
export function listen(map) {
  pointers(map);
  wheel(map);
  keyboard(map);
  map.element.querySelector(".zoom-in").addEventListener("click", () => map.zoomBy(1));
  map.element.querySelector(".zoom-out").addEventListener("click", () => map.zoomBy(-1));
}
