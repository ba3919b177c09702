// A place's photos, in its panel: the newest the place is answered with (the rest on demand, newest first), each
// with its caption, or whose photo of which place it is, as its text; for a signed-in person a form to add one (the
// file itself is the upload's body, with its own type: the server reads it by its bytes and strips where it was
// taken before keeping it), and a delete button on each photo they may delete (their own, or any of a place they own).

import { api } from "./api.js";
import { element, button, byId } from "./dom.js";

/** How many photos each "Show more photos" asks for. */
const PAGE = 20;

export class PlacePhotos {
  /**
   * @param {import("./account.js").Session} session
   * @param {{reread: () => Promise<void>}} hooks reads the place shown again (once a photo is added or deleted)
   */
  constructor(session, hooks) {
    this.session = session;
    this.hooks = hooks;
    /** The place shown, the photos listed (newest first), and where the list goes on (`paged`: read beyond the place's). */
    this.state = { place: null, photos: [], cursor: null, paged: false };
    this.section = byId("place-photos");
    this.form = byId("photo-new");
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.add();
    });
    byId("place-photos-more").addEventListener("click", () => this.more());
    session.onChange(() => this.render());
  }

  /** Shows the photos `place` carries (its newest); the same place answered again keeps the list read so far. */
  show(place) {
    const before = this.state.place;
    if (before && before.id === place.id && before.photos === place.photos) {
      this.state = { ...this.state, place };
    } else {
      this.state = { place, photos: place.photos || [], cursor: null, paged: false };
      if (!before || before.id !== place.id) {
        this.form.reset();
        this.say("", "");
      }
    }
    this.render();
  }

  render() {
    const { place, photos, cursor, paged } = this.state;
    if (!place) return;
    const count = place.photoCount || 0;
    byId("place-photos-title").textContent = count ? `Photos (${count})` : "Photos";
    byId("place-photos-none").hidden = count > 0;
    byId("place-photo-list").replaceChildren(...photos.map((photo) => this.item(photo)));
    byId("place-photos-more").hidden = photos.length >= count || (paged && !cursor);
    this.form.hidden = !this.session.signedIn;
    byId("place-photos-sign-in").hidden = this.session.signedIn;
  }

  /** One photo: the image at its own size (the style sheet makes it a thumbnail), its caption and who added it. */
  item(photo) {
    const text = photo.caption || `Photo of ${this.state.place.name} by ${photo.addedBy}`;
    const image = element("img");
    image.loading = "lazy";
    image.decoding = "async";
    image.width = photo.width;
    image.height = photo.height;
    image.alt = text;
    image.src = photo.url;
    const caption = element("figcaption");
    if (photo.caption) caption.append(element("span", photo.caption), " ");
    caption.append(element("span", `by ${photo.addedBy}`, "hint"));
    const figure = element("figure");
    figure.append(image, caption);
    const item = element("li");
    item.dataset.id = photo.id;
    item.append(figure);
    if (this.mayDelete(photo)) {
      const label = photo.caption ? `Delete photo “${photo.caption}”` : `Delete photo of ${this.state.place.name} by ${photo.addedBy}`;
      item.append(button("Delete", () => this.remove(photo), { label }));
    }
    return item;
  }

  /** Who may delete a photo, as the server decides it: who added it, and the owner of its place. */
  mayDelete(photo) {
    const user = this.session.user;
    return Boolean(user) && (photo.addedBy === user.username || this.state.place.ownerId === user.id);
  }

  async add() {
    const place = this.state.place;
    const file = byId("photo-file").files[0];
    if (!place || !file) return;
    const caption = byId("photo-caption").value.trim();
    const query = caption ? `?${new URLSearchParams({ caption })}` : "";
    const submit = byId("photo-add");
    submit.disabled = true;
    this.say("", "Adding the photo…");
    try {
      await api.request(`/v1/places/${encodeURIComponent(place.id)}/photos${query}`, { method: "POST", file });
    } catch (error) {
      this.say(`Not added: ${error.message}`, "");
      return;
    } finally {
      submit.disabled = false;
    }
    this.form.reset();
    await this.reread("Photo added.");
  }

  async remove(photo) {
    try {
      await api.request(`/v1/photos/${encodeURIComponent(photo.id)}`, { method: "DELETE" });
    } catch (error) {
      this.say(`Not deleted: ${error.message}`, "");
      return;
    }
    // The button pressed is gone with its photo: the keyboard goes to the photos' section.
    this.section.focus();
    await this.reread("Photo deleted.");
  }

  /** The place read again after a change, and what the change did said. */
  async reread(done) {
    try {
      await this.hooks.reread();
      this.say("", done);
    } catch (error) {
      this.say(`${done} The photos could not be read again: ${error.message}`, "");
    }
  }

  /** The next photos, newest first, after those shown (the place carries its newest only). */
  async more() {
    const { place, cursor } = this.state;
    const query = new URLSearchParams({ limit: String(PAGE) });
    if (cursor) query.set("cursor", cursor);
    try {
      const page = await api.request(`/v1/places/${encodeURIComponent(place.id)}/photos?${query}`);
      if (this.state.place !== place) return;
      const photos = cursor ? [...this.state.photos, ...page.items] : page.items;
      this.state = { ...this.state, photos, cursor: page.nextCursor || null, paged: true };
      this.render();
    } catch (error) {
      this.say(`Could not read more photos: ${error.message}`, "");
    }
    if (byId("place-photos-more").hidden) this.section.focus();
  }

  /** A refusal (said at once, as an alert) or what was done. */
  say(error, status) {
    byId("photo-error").textContent = error;
    byId("photo-status").textContent = status;
  }
}
