// The signed-in person's picture: small and round in the header beside their name, and set or removed under their
// settings. The file is the upload's body, with its own type; the server cleans it as it cleans a place's photos.

import { api } from "./api.js";
import { element, byId } from "./dom.js";

export class Picture {
  /** @param {import("./account.js").Session} session */
  constructor(session) {
    this.session = session;
    this.image = element("img", undefined, "me-picture");
    this.image.id = "me-picture";
    this.image.width = 32;
    this.image.height = 32;
    this.image.alt = "Your picture";
    this.image.hidden = true;
    byId("whoami").before(this.image);
    byId("picture-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.set();
    });
    byId("picture-remove").addEventListener("click", () => this.remove());
    session.onChange(() => {
      if (!session.signedIn) {
        byId("picture-form").reset();
        this.say("", "");
      }
      this.render();
    });
  }

  render() {
    const user = this.session.user;
    const url = user ? user.pictureURL : undefined;
    this.image.hidden = !url;
    if (!url) this.image.removeAttribute("src");
    else if (this.image.getAttribute("src") !== url) this.image.src = url;
    byId("picture-now").textContent = url ? "Your picture shows beside your name." : "You have no picture.";
    byId("picture-remove").hidden = !url;
  }

  async set() {
    const file = byId("picture-file").files[0];
    if (!file || !this.session.signedIn) return;
    try {
      const picture = await api.request("/v1/me/picture", { method: "PUT", file });
      this.changed(picture.url);
      byId("picture-form").reset();
      this.say("", "Your picture is set.");
    } catch (error) {
      this.say(`Not set: ${error.message}`, "");
    }
  }

  async remove() {
    try {
      await api.request("/v1/me/picture", { method: "DELETE" });
      this.changed(undefined);
      // The button pressed is hidden now: the keyboard goes to the file field, to choose another.
      byId("picture-file").focus();
      this.say("", "Your picture is removed.");
    } catch (error) {
      this.say(`Not removed: ${error.message}`, "");
    }
  }

  /**
   * The account's picture as the server now holds it. Only this view shows it, so the session's other listeners
   * (which read the person's groups, decisions and stream again) are not told.
   */
  changed(url) {
    if (!this.session.user) return;
    this.session.user.pictureURL = url;
    this.render();
  }

  /** A refusal (said at once, as an alert) or what was done. */
  say(error, status) {
    byId("picture-error").textContent = error;
    byId("picture-status").textContent = status;
  }
}
