// The page's small DOM helpers: making elements, and words as a person writes them.

/** An element: `tag` holding `text`, with a class when given. */
export function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** A button of type "button" that calls `action` when chosen. */
export function button(text, action, { label, className } = {}) {
  const node = element("button", text, className);
  node.type = "button";
  if (label) node.setAttribute("aria-label", label);
  node.addEventListener("click", action);
  return node;
}

/**
 * `action` called once typing pauses: each call waits `ms` again, `now()` runs it at once (a form sent), and
 * `cancel()` forgets it.
 * @returns {{(...args: any[]) => void, now: (...args: any[]) => void, cancel: () => void}}
 */
export function afterPause(action, ms = 250) {
  let timer = null;
  const paused = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => action(...args), ms);
  };
  paused.now = (...args) => {
    clearTimeout(timer);
    action(...args);
  };
  paused.cancel = () => clearTimeout(timer);
  return paused;
}

/** The element with this id. */
export function byId(id) {
  return document.getElementById(id);
}

/** A count with its noun: "1 place", "3 places", "0 ballots". */
export function counted(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/** Names joined as a person says them: "ana", "ana and ben", "ana, ben and cleo". */
export function listed(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
