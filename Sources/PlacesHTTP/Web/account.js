// The signed-in session: the token, the calls that carry it, sign up, sign in and sign out, the person's own marks
// (favourites and ratings), their accessibility settings, and their one stream of notifications.
//
// The token lives in memory and in sessionStorage, never in localStorage: sessionStorage belongs to this tab and is
// gone when the tab closes, so a shared computer does not stay signed in, and a token is not left on disk for weeks.
// (Any script the page ran could read either; the Content-Security-Policy is what keeps other scripts out.)

import { EventStream } from "./stream.js";
import { api, ApiError } from "./api.js";

const KEY = "places.token";

export class Session {
  constructor() {
    api.token = sessionStorage.getItem(KEY);
    // A token the server refuses (expired, or revoked elsewhere) is forgotten.
    api.onUnauthorized = () => this.forget();
    this.user = null;
    this.favorites = new Set();
    this.ratings = new Map();
    this.listeners = [];
    this.notificationStream = null;
  }

  get signedIn() {
    return this.user !== null;
  }

  /** Calls `listener(session)` now and whenever the person signs in or out. */
  onChange(listener) {
    this.listeners.push(listener);
    listener(this);
  }

  /** Picks up a session this tab kept (a reload), if its token still works. */
  async resume() {
    if (!api.token) return;
    try {
      await this.load();
    } catch (error) {
      // A token the server refuses is forgotten (api did it); a server that is down keeps it for the next reload.
      if (!(error instanceof ApiError && error.status === 401)) console.warn("could not resume the session:", error.message);
    }
  }

  async signIn(username, password) {
    const answer = await api.request("/v1/auth/login", { method: "POST", body: { username, password } });
    api.token = answer.token;
    sessionStorage.setItem(KEY, answer.token);
    try {
      await this.load();
    } catch (error) {
      this.forget();
      throw error;
    }
  }

  async signUp(username, password, email) {
    await api.request("/v1/auth/register", { method: "POST", body: { username, password, email } });
    await this.signIn(username, password);
  }

  async signOut() {
    try {
      await api.request("/v1/auth/logout", { method: "POST" });
    } finally {
      this.forget();
    }
  }

  /** Reads what the page shows of the person (their profile, settings, favourites and ratings) and tells listeners. */
  async load() {
    const mine = await api.request("/v1/me/export");
    this.user = mine.account;
    this.favorites = new Set(mine.favorites.map((favorite) => favorite.placeId));
    this.ratings = new Map(mine.ratings.map((rating) => [rating.placeId, rating.stars]));
    applyAccessibility(mine.settings.accessibility);
    this.changed();
  }

  /** Drops the token and everything of the person's from the page. */
  forget() {
    api.token = null;
    this.user = null;
    this.favorites = new Set();
    this.ratings = new Map();
    sessionStorage.removeItem(KEY);
    applyAccessibility({});
    this.changed();
  }

  changed() {
    for (const listener of this.listeners) listener(this);
  }

  /** Opens the person's notification stream (one per page), or closes it when they sign out. */
  watchNotifications(onEvent, onState) {
    if (this.notificationStream) this.notificationStream.close();
    this.notificationStream = this.signedIn
      ? new EventStream("/v1/notifications/events", onEvent, onState)
      : null;
  }
}

/** The person's accessibility settings, as classes on the page's root (the style sheet does the rest). */
export function applyAccessibility(settings = {}) {
  const root = document.documentElement;
  root.classList.toggle("larger-text", Boolean(settings.largerText));
  root.classList.toggle("reduced-motion", Boolean(settings.reducedMotion));
  root.classList.toggle("high-contrast", Boolean(settings.highContrast));
}
