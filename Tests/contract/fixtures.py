#!/usr/bin/env python3
"""Live objects for the signed-in contract run.

Signs up the account the fuzzer acts as (`contract`) and a few people around it, and makes what one token alone
cannot: friend requests and group invitations addressed to `contract` (someone else must send them), groups that
`contract` runs with other members in them (to remove and promote), a group it belongs to but does not run (to
leave), decisions it takes part in, people to block and already blocked (apart from everyone else), and photos: its own
to delete, and others' it may read but not delete. Then writes the Schemathesis config of the signed-in pass: the static
rules of `signed-in.toml` plus dictionaries of the ids and names made here, bound to the parameters that take
them, so that generated requests name objects that exist as often as not.

Usage: fixtures.py BASE_URL OUT_DIR   (writes OUT_DIR/token and OUT_DIR/signed-in.toml; needs PyYAML, which
Schemathesis's virtualenv has)
"""

import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

import yaml

import images

PASSWORD = "contract password"
MATES = [f"mate{n:02d}" for n in range(1, 13)]
# How many objects each operation that ends one gets (accept, decline, leave, close, cancel, pick, delete, restore):
# enough that the phases testing one operation at a time do not use them up.
ONE_SHOT = 20
# People who ask `contract` to be friends and invite it into their groups: the first ONE_SHOT to accept, the next
# to decline, the rest friends already (and hosts of groups it has joined).
FANS = [f"fan{n:02d}" for n in range(1, 2 * ONE_SHOT + 11)]
# People who never ask `contract` anything: asking one of them is a new request (asking a mate who asked first
# would answer their request instead), and asking one again is refused (409), so there are more of them than the
# phases ask, and every phase finds some not asked yet.
STRANGERS = [f"stranger{n:02d}" for n in range(1, 4 * ONE_SHOT + 1)]
# People `contract` blocks during the run (to block), and people it blocks already (to list and unblock): kept apart
# from the strangers, so a block never ends a request or a friendship another operation counts on.
BLOCKABLE = [f"blockable{n:02d}" for n in range(1, ONE_SHOT + 1)]
BLOCKED = [f"blocked{n:02d}" for n in range(1, ONE_SHOT + 1)]
# Groups to alert (10 alerts a group an hour): with a probability of 0.7 over three phases of 40 examples, the
# phases send at most some 90 alerts to live groups, and these take 150.
ALERTED = 15
# Seeded places of one city (Seeds/san-francisco.json): the candidates of every decision made here.
PLACES = ["sf-lupine-salt", "sf-valencia-sourdough-works", "sf-taqueria-los-cuates"]


class API:
    def __init__(self, base: str):
        self.base = base

    def call(self, method: str, path: str, token: str | None = None, body=None, expect=(200, 201, 204), media_type=None):
        """`body` is JSON, or with `media_type` the bytes sent as they are (an image)."""
        data = None if body is None else body if media_type else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", media_type or "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, text = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        if status not in expect:
            raise SystemExit(f"fixtures: {method} {path} answered {status}: {text[:300]!r}")
        return json.loads(text) if text else None

    def sign_up(self, username: str) -> str:
        self.call("POST", "/v1/auth/register", body={"username": username, "email": f"{username}@example.com", "password": PASSWORD})
        return self.call("POST", "/v1/auth/login", body={"username": username, "password": PASSWORD})["token"]


def seeded_places() -> list[str]:
    """The id of every place the shipped seed files bring (the server under test was seeded from them)."""
    seeds = Path(__file__).resolve().parents[2] / "Seeds"
    return sorted(place["id"] for file in seeds.glob("*.json") for place in json.loads(file.read_text())["places"])


def toml_list(values) -> str:
    return "[" + ", ".join(json.dumps(v) for v in values) + "]"


def main() -> None:
    base, out = sys.argv[1], Path(sys.argv[2])
    api = API(base)
    me = api.sign_up("contract")
    mates = {name: api.sign_up(name) for name in MATES}
    fans = {name: api.sign_up(name) for name in FANS}
    for name in STRANGERS + BLOCKABLE + BLOCKED:
        api.sign_up(name)
    for name in BLOCKED:
        api.call("PUT", f"/v1/users/{name}/block", me)
    # A status line of its own (the mates see it on `contract` in their groups).
    api.call("PUT", "/v1/me/status", me, {"text": "Fuzzing the API"})

    # Friend requests to `contract`: some to accept, some to decline, and some accepted now (friends to unfriend).
    for name in FANS:
        api.call("POST", "/v1/friends/requests", fans[name], {"username": "contract"})
    to_accept, to_decline, friends = FANS[:ONE_SHOT], FANS[ONE_SHOT:2 * ONE_SHOT], FANS[2 * ONE_SHOT:]
    for name in friends:
        api.call("POST", f"/v1/friends/requests/{name}/accept", me)

    # Groups of others that invite `contract`: to accept, to decline, and joined now (to leave).
    def hosted(names, joins):
        groups = []
        for name in names:
            group = api.call("POST", "/v1/groups", fans[name], {"name": f"{name}'s table"})["id"]
            api.call("POST", f"/v1/groups/{group}/invitations", fans[name], {"username": "contract"})
            if joins:
                api.call("POST", f"/v1/me/invitations/{group}/accept", me)
            groups.append(group)
        return groups
    invited_to_accept = hosted(FANS[:ONE_SHOT], joins=False)
    invited_to_decline = hosted(FANS[ONE_SHOT:2 * ONE_SHOT], joins=False)
    to_leave = hosted(FANS[2 * ONE_SHOT:], joins=True)

    # Groups that `contract` runs, six mates in each: members to remove and promote, decisions to vote in and end.
    ran = []
    for n in range(3):
        group = api.call("POST", "/v1/groups", me, {"name": f"Contract crew {n + 1}"})["id"]
        for name in MATES[:6]:
            api.call("POST", f"/v1/groups/{group}/invitations", me, {"username": name})
            api.call("POST", f"/v1/me/invitations/{group}/accept", mates[name])
        ran.append(group)
    to_delete = [api.call("POST", "/v1/groups", me, {"name": f"Short-lived {n + 1}"})["id"] for n in range(ONE_SHOT)]
    # Groups `contract` runs only to alert, a mate in each to notify: a group takes 10 alerts an hour (then 429), and
    # ALERTED groups take more than the phases send to live groups, so every phase finds some room left.
    alerted = []
    for n in range(ALERTED):
        group = api.call("POST", "/v1/groups", me, {"name": f"Alerted crew {n + 1}"})["id"]
        mate = MATES[6 + n % 6]
        api.call("POST", f"/v1/groups/{group}/invitations", me, {"username": mate})
        api.call("POST", f"/v1/me/invitations/{group}/accept", mates[mate])
        alerted.append(group)

    # Group collections holding the three places (to add to and take from), personal empty ones, whose only new order
    # is the empty list (to reorder), and more empty ones (to delete).
    collections = []
    for group in ran:
        collection = api.call("POST", "/v1/collections", me, {"name": "Candidates", "groupId": group})["id"]
        for place in PLACES:
            api.call("POST", f"/v1/collections/{collection}/places", me, {"placeId": place})
        collections.append(collection)
    empty = [api.call("POST", "/v1/collections", me, {"name": f"Mine {n + 1}"})["id"] for n in range(3)]
    collections_to_delete = [api.call("POST", "/v1/collections", me, {"name": f"Scratch {n + 1}"})["id"] for n in range(ONE_SHOT)]

    # Decisions of the groups `contract` runs, started by mates (one person has at most 50 open): tiered ones to vote
    # in, close and cancel, manual ones to pick, completed random draws (to recount), and ones in a swipe round.
    def decisions(method, count, **more):
        made = []
        for n in range(count):
            starter = mates[MATES[n % 6]]
            body = {"groupId": ran[n % 3], "method": method, "candidates": {"placeIds": PLACES}, **more}
            made.append(api.call("POST", "/v1/decisions", starter, body)["id"])
        return made
    tiered, to_close, to_cancel = decisions("tiered", 3), decisions("tiered", ONE_SHOT), decisions("tiered", ONE_SHOT)
    # A tiered decision is closed by counting its ballots: one each, by the mate who started it.
    for n, decision in enumerate(to_close):
        api.call("PUT", f"/v1/decisions/{decision}/ballot", mates[MATES[n % 6]], {"ranking": PLACES[:1]})
    to_pick, completed = decisions("manual", ONE_SHOT), decisions("random", 3)
    # Decisions in a swipe round that stays open (the mates never answer), with a veto for every place.
    in_round = decisions("tiered", 3, swipe={"vetoes": 10})
    # Decisions fair to where people are, at a visit time: a draw among meet's places open then (its result says whether
    # the winner is), and candidates from the shared locations of the groups' mates (the caller shares none).
    for n, name in enumerate(MATES[:6]):
        location = {"lat": 37.75 + n / 100, "lon": -122.43 + n / 100}
        api.call("PATCH", "/v1/me/settings", mates[name], {"defaultLocation": location, "shareLocationForMeet": True})
    visit = "2030-01-04T19:30:00-08:00"
    origins = [{"lat": 37.7599, "lon": -122.4148}, {"lat": 37.7793, "lon": -122.4193}]
    completed += decisions("random", 1, candidates={"meet": {"at": origins, "limit": 5}}, visitAt=visit)
    met = decisions("tiered", 1, candidates={"meet": {"fromParticipants": True, "limit": 5}}, visitAt=visit)
    # A conversation in the decisions that stay open longest (every mate of the group takes part): a mate's message.
    talking = tiered + in_round
    for n, decision in enumerate(talking):
        api.call("POST", f"/v1/decisions/{decision}/messages", mates[MATES[n % 6]], {"text": "Shall we?"})
    # A cursor of a conversation's pages (a second message, then the first page of one): a cursor made up is refused.
    api.call("POST", f"/v1/decisions/{talking[0]}/messages", me, {"text": "Yes, let's"})
    message_cursors = [api.call("GET", f"/v1/decisions/{talking[0]}/messages?limit=1", me)["nextCursor"]]

    # Places of `contract`'s own: live ones (to change and delete) and deleted ones (to restore).
    def own_place(n):
        body = {"kind": "gem", "name": f"Contract spot {n}", "lat": 37.76 + n / 1000, "lon": -122.42}
        return api.call("POST", "/v1/places", me, body)["id"]
    owned = [own_place(n) for n in range(ONE_SHOT)]
    deleted = [own_place(ONE_SHOT + n) for n in range(ONE_SHOT)]
    for place in deleted:
        api.call("DELETE", f"/v1/places/{place}", me)

    # Photos of the images the document gives as examples, plain and carrying metadata the server strips: ones
    # `contract` may delete (its own, of seeded places, and mates' of places it owns), ones it may only read (mates' of
    # seeded places: 403 to delete), a cursor of a place's pages, and a picture of its own to replace and remove.
    with urllib.request.urlopen(f"{base}/openapi.yaml", timeout=10) as response:
        found = images.examples(yaml.safe_load(response.read()))
    uploads = [(media_type, file) for media_type, valid in found.items() for image in valid
               for file in (image, images.with_metadata(media_type, image))]
    if len(uploads) != 6:
        raise SystemExit(f"fixtures: the document's image examples are {[kind for kind, _ in uploads[::2]]}, not one of each type")

    def photo(token, place, n):
        media_type, file = uploads[n % len(uploads)]
        path = f"/v1/places/{place}/photos?caption=Photo%20{n + 1}"
        return api.call("POST", path, token, file, media_type=media_type)["id"]
    photos_to_delete = [photo(me, PLACES[n % 3], n) for n in range(ONE_SHOT)]
    photos_to_delete += [photo(mates[MATES[n % 6]], owned[n], n) for n in range(5)]
    others_photos = [photo(mates[MATES[n % 6]], PLACES[n % 3], n) for n in range(6)]
    photo_cursors = [api.call("GET", f"/v1/places/{PLACES[0]}/photos?limit=1", me)["nextCursor"]]
    api.call("PUT", "/v1/me/picture", me, uploads[0][1], media_type=uploads[0][0])

    notifications = [item["id"] for item in api.call("GET", "/v1/notifications?limit=100", me)["items"]]

    (out / "token").write_text(me)
    rules = (Path(__file__).parent / "signed-in.toml").read_text()
    made = {
        "groups": ran + to_leave, "ran-groups": ran, "groups-to-shrink": ran[:2], "groups-to-reshuffle": ran[2:],
        "groups-to-delete": to_delete, "groups-to-leave": to_leave, "alerted-groups": alerted,
        "invitations-to-accept": invited_to_accept, "invitations-to-decline": invited_to_decline,
        "members": MATES[:6], "strangers": STRANGERS, "friends": friends, "blockable": BLOCKABLE, "blocked": BLOCKED,
        "requests-to-accept": to_accept, "requests-to-decline": to_decline,
        "places": PLACES, "seeded-places": seeded_places(),
        "own-places": owned, "deleted-places": deleted,
        "collections": collections, "all-collections": collections + empty, "empty-collections": empty, "collections-to-delete": collections_to_delete,
        "tiered-decisions": tiered, "decisions-to-close": to_close, "decisions-to-cancel": to_cancel,
        "decisions-to-pick": to_pick, "completed-decisions": completed,
        "decisions": tiered + to_pick + completed + in_round + met, "followed-decisions": tiered + in_round,
        "round-decisions": in_round, "talking-decisions": talking, "message-cursors": message_cursors, "notifications": notifications,
        "photos": others_photos, "photos-to-delete": photos_to_delete + others_photos[:2], "photographed-places": PLACES,
        "photo-cursors": photo_cursors,
    }
    dictionaries = "\n# Made by fixtures.py for this run.\n" + "".join(
        f"[dictionaries.{name}]\nvalues = {toml_list(values)}\n\n" for name, values in made.items()
    )
    (out / "signed-in.toml").write_text(rules + dictionaries)
    print("fixtures: " + ", ".join(f"{len(values)} {name}" for name, values in made.items()))


if __name__ == "__main__":
    main()
