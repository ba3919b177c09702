// The signed-in person's settings, in one form: dietary needs and budget (what `respectNeeds` keeps a decision to),
// the default location and whether meet may use it, alerts from their groups' admins, and the accessibility settings
// (applied to the page as soon as they are saved). The form is drawn from the settings the server answers, and a
// save sends only what the form holds (PATCH); a value the server refuses is said beside the form.

import { api } from "./api.js";
import { byId } from "./dom.js";
import { applyAccessibility } from "./account.js";

const NEEDS = ["vegetarian", "vegan", "halal", "kosher", "gluten-free", "dairy-free", "nut-free"];
const ACCESSIBILITY = ["largerText", "reducedMotion", "highContrast", "screenReaderHints"];

export class SettingsPanel {
  /**
   * @param {import("./account.js").Session} session
   * @param {{here: () => ({lat: number, lon: number} | null)}} hooks where "here" is, to save as the default location
   */
  constructor(session, hooks) {
    this.session = session;
    this.hooks = hooks;
    /** The settings as the server last answered them, and the location the form will save. */
    this.state = { settings: null, location: null };
    this.form = byId("settings-form");
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.save();
    });
    byId("settings-here").addEventListener("click", () => {
      const here = hooks.here();
      if (!here) {
        byId("settings-status").textContent = "Pick a point on the map first (or use your location).";
        return;
      }
      this.state = { ...this.state, location: { lat: Number(here.lat.toFixed(5)), lon: Number(here.lon.toFixed(5)) } };
      this.renderLocation();
    });
    byId("settings").addEventListener("toggle", () => {
      if (byId("settings").open && session.signedIn) this.load();
    });
    session.onChange(() => {
      byId("settings").hidden = !session.signedIn;
      if (!session.signedIn) {
        byId("settings").open = false;
        this.state = { settings: null, location: null };
      }
    });
  }

  async load() {
    try {
      const settings = await api.request("/v1/me/settings");
      this.state = { settings, location: settings.defaultLocation || null };
      this.render();
    } catch (error) {
      byId("settings-status").textContent = `Could not read your settings: ${error.message}`;
    }
  }

  render() {
    const { settings } = this.state;
    if (!settings) return;
    const fields = this.form.elements;
    for (const box of this.form.querySelectorAll('input[name="need"]')) box.checked = settings.dietaryNeeds.includes(box.value);
    fields.maxPrice.value = settings.maxPrice ? String(settings.maxPrice) : "";
    fields.shareLocationForMeet.checked = settings.shareLocationForMeet;
    fields.adminAlerts.checked = settings.notifications.adminAlerts;
    for (const name of ACCESSIBILITY) fields[name].checked = Boolean(settings.accessibility[name]);
    this.renderLocation();
  }

  renderLocation() {
    const { location } = this.state;
    byId("settings-location").textContent = location
      ? `Your default location: ${location.lat.toFixed(4)}, ${location.lon.toFixed(4)}.`
      : "No default location saved: meet cannot use yours.";
  }

  /** The form's values as a settings change. */
  change() {
    const fields = this.form.elements;
    const change = {
      dietaryNeeds: NEEDS.filter((need) => this.form.querySelector(`input[name="need"][value="${need}"]`).checked),
      maxPrice: fields.maxPrice.value ? Number(fields.maxPrice.value) : null,
      shareLocationForMeet: fields.shareLocationForMeet.checked,
      notifications: { adminAlerts: fields.adminAlerts.checked },
      accessibility: Object.fromEntries(ACCESSIBILITY.map((name) => [name, fields[name].checked])),
    };
    if (this.state.location) change.defaultLocation = this.state.location;
    return change;
  }

  async save() {
    const status = byId("settings-status");
    try {
      const settings = await api.request("/v1/me/settings", { method: "PATCH", body: this.change() });
      this.state = { settings, location: settings.defaultLocation || null };
      applyAccessibility(settings.accessibility);
      this.render();
      status.textContent = "Your settings are saved.";
    } catch (error) {
      status.textContent = `Not saved: ${error.message}${error.field ? ` (${error.field})` : ""}`;
    }
  }
}
