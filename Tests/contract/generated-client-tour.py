#!/usr/bin/env python3
"""The README's three-person tiered decision, driven by a client generated from the served document.

Generates a Python client from BASE_URL/openapi.yaml with openapi-python-client (from PyPI; a tool no one here
wrote), refuses it if any operation's body came out untyped (`Any`) or a photo upload's is not a `File`, then runs
the README's tour through it against a fresh server: Ana, Ben and Cleo sign up and log in, Ana makes a group and
invites the others, they accept, the group collects three San Francisco places, Ana starts a tiered decision over the
collection, all three vote, and the decision completes with Lupine & Salt the winner, which a recount agrees with.
Then Ana adds a photo of the winner (the document's example JPEG with EXIF naming a camera and a GPS position
inserted), reads it back without signing in, finds the example's own bytes without EXIF, and deletes it.

The photo uploads take the image itself as the body, as image/jpeg, image/png or image/webp. openapi-python-client
0.29.1 knows a raw body only as application/octet-stream (`File`) and skips an operation whose body is of another type;
told that image/jpeg is such a body (`content_type_overrides`), it types the body `File` and sends it as image/jpeg. The
other two types stay out of the generated client: it would give all three bodies the same type `File`, and send any of
them with the last type's header.

Usage: generated-client-tour.py BASE_URL WORK_DIR   (run it with a Python that has openapi-python-client)
"""

import importlib
import io
import re
import subprocess
import sys
import urllib.request
from http import HTTPStatus
from pathlib import Path

import yaml

import images


def generate(base: str, work: Path) -> dict:
    """Generates the client into WORK/places_client and returns the served document."""
    work.mkdir(parents=True, exist_ok=True)
    document = work / "openapi.yaml"
    with urllib.request.urlopen(f"{base}/openapi.yaml", timeout=10) as response:
        text = response.read().decode()
    # The document is OpenAPI 3.2 (for the event streams' `itemSchema`); openapi-python-client 0.29.1 refuses any
    # version but 3.1 by its number alone, and reads the rest as 3.1 (a media type's `itemSchema` it keeps unread,
    # which a client of the JSON operations does not need).
    document.write_text(re.sub(r"^openapi: 3\.2\.\d+$", "openapi: 3.1.0", text, count=1, flags=re.MULTILINE))
    config = work / "generator.yaml"
    config.write_text("content_type_overrides:\n  image/jpeg: application/octet-stream\n")
    generator = Path(sys.executable).with_name("openapi-python-client")
    subprocess.run(
        [str(generator), "generate", "--path", str(document), "--meta", "none", "--output-path", str(work / "places_client"),
         "--overwrite", "--config", str(config)],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    modules = {module.stem: module.read_text() for module in (work / "places_client" / "api").rglob("*.py")}
    untyped = sorted(name for name, text in modules.items() if re.search(r"\bbody: Any\b", text))
    if untyped:
        raise SystemExit(f"generated client: untyped request bodies in {', '.join(untyped)}")
    for name in ["add_place_photo", "set_my_picture"]:
        if not re.search(r"\bbody: File,", modules.get(name, "")):
            raise SystemExit(f"generated client: {name} is missing or its body is not a File")
    sys.path.insert(0, str(work))
    return yaml.safe_load(text)


def main() -> None:
    base, work = sys.argv[1], Path(sys.argv[2])
    document = generate(base, work)
    client_module = importlib.import_module("places_client")
    api = {name: importlib.import_module(f"places_client.api.default.{name}") for name in [
        "register", "login", "create_group", "invite_to_group", "list_notifications", "accept_invitation",
        "create_collection", "add_to_collection", "start_decision", "cast_ballot", "get_decision", "recount_decision",
        "add_place_photo", "get_photo", "delete_photo",
    ]}
    models = importlib.import_module("places_client.models")
    types = importlib.import_module("places_client.types")

    def call(name: str, expected: HTTPStatus, **arguments):
        response = api[name].sync_detailed(**arguments)
        if response.status_code != expected:
            raise SystemExit(f"generated client: {name} answered {int(response.status_code)}, not {int(expected)}: "
                             f"{response.content[:300]!r}")
        return response.parsed

    anonymous = client_module.Client(base_url=base, raise_on_unexpected_status=True)
    people = {}
    for name in ["ana", "ben", "cleo"]:
        body = models.RegistrationWithEmail(username=name, email=f"{name}@example.com", password="a long password")
        call("register", HTTPStatus.CREATED, client=anonymous, body=body)
        token = call("login", HTTPStatus.OK, client=anonymous,
                     body=models.LoginWithUsername(username=name, password="a long password")).token
        people[name] = client_module.AuthenticatedClient(base_url=base, token=token, raise_on_unexpected_status=True)
    ana, ben, cleo = people["ana"], people["ben"], people["cleo"]

    group = call("create_group", HTTPStatus.CREATED, client=ana, body=models.CreateGroupBody(name="Friday crew")).id
    for name in ["ben", "cleo"]:
        call("invite_to_group", HTTPStatus.CREATED, client=ana, id=group, body=models.InviteToGroupBody(username=name))
    kinds = [item.kind.value for item in call("list_notifications", HTTPStatus.OK, client=ben).items]
    if "groupInvitation" not in kinds:
        raise SystemExit(f"generated client: Ben was not told of the invitation ({kinds})")
    for member in [ben, cleo]:
        call("accept_invitation", HTTPStatus.OK, client=member, id=group)

    collection = call("create_collection", HTTPStatus.CREATED, client=ana,
                      body=models.CreateCollectionBody(name="Dinner in the Mission", group_id=group)).id
    call("add_to_collection", HTTPStatus.OK, client=ana, id=collection,
         body=models.AddToCollectionBody(place_id="sf-valencia-sourdough-works"))
    call("add_to_collection", HTTPStatus.OK, client=ana, id=collection, body=models.AddToCollectionBody(place_id="sf-lupine-salt"))
    call("add_to_collection", HTTPStatus.OK, client=ben, id=collection,
         body=models.AddToCollectionBody(place_id="sf-taqueria-los-cuates", position=0))

    start = models.StartDecisionBody(
        method=models.StartDecisionBodyMethod.TIERED, group_id=group, title="Friday dinner",
        candidates=models.StartDecisionBodyCandidatesFromCollection(collection_id=collection),
    )
    decision = call("start_decision", HTTPStatus.CREATED, client=ana, body=start).id
    call("cast_ballot", HTTPStatus.OK, client=ana, id=decision,
         body=models.CastBallotBody(ranking=["sf-lupine-salt", "sf-valencia-sourdough-works"]))
    waiting = call("get_decision", HTTPStatus.OK, client=ben, id=decision).waiting_for
    if sorted(waiting) != ["ben", "cleo"]:
        raise SystemExit(f"generated client: waitingFor is {waiting}, not ben and cleo")
    call("cast_ballot", HTTPStatus.OK, client=ben, id=decision,
         body=models.CastBallotBody(ranking=["sf-valencia-sourdough-works", "sf-lupine-salt"]))
    done = call("cast_ballot", HTTPStatus.OK, client=cleo, id=decision, body=models.CastBallotBody(ranking=["sf-lupine-salt"]))

    result = done.result
    if done.status.value != "completed" or result.winner != "sf-lupine-salt" or result.tie_break.value != "none":
        raise SystemExit(f"generated client: the decision ended {done.status.value} with {result.winner if result else None}")
    expected = ["sf-lupine-salt", "sf-valencia-sourdough-works", "sf-taqueria-los-cuates"]
    if result.ranking != expected:
        raise SystemExit(f"generated client: ranking {result.ranking}, not {expected}")
    if not call("recount_decision", HTTPStatus.OK, client=ana, id=decision).agrees:
        raise SystemExit("generated client: the recount disagrees")
    print("generated client: the README's tiered decision ran end to end (sf-lupine-salt wins, tieBreak none, recount agrees)")

    # A photo of the winner with EXIF (a camera, a GPS position) added to the document's example JPEG: served without it.
    jpeg = images.examples(document)["image/jpeg"][0]
    upload = types.File(payload=io.BytesIO(images.jpeg_with_exif(jpeg)), mime_type="image/jpeg")
    photo = call("add_place_photo", HTTPStatus.CREATED, client=ana, id=result.winner, body=upload, caption="The table by the window")
    if (photo.width, photo.height, photo.media_type.value, photo.place_id) != (1, 1, "image/jpeg", result.winner):
        raise SystemExit(f"generated client: the photo is {photo.to_dict()}")
    served = api["get_photo"].sync_detailed(client=anonymous, id=photo.id)
    if served.status_code != HTTPStatus.OK or served.headers.get("content-type") != "image/jpeg":
        raise SystemExit(f"generated client: get_photo answered {int(served.status_code)} {served.headers.get('content-type')}")
    # The cleaner keeps a JPEG's segments but the metadata, so the served bytes are the example's own.
    if b"Exif" in served.content or images.CAMERA in served.content or served.content != jpeg or photo.bytes_ != len(jpeg):
        raise SystemExit(f"generated client: the served photo ({photo.bytes_} bytes) is not the example without EXIF: {served.content!r}")
    call("delete_photo", HTTPStatus.NO_CONTENT, client=ana, id=photo.id)
    if api["get_photo"].sync_detailed(client=anonymous, id=photo.id).status_code != HTTPStatus.NOT_FOUND:
        raise SystemExit("generated client: the deleted photo is still served")
    print(f"generated client: a photo with EXIF and GPS came back without them ({len(served.content)} bytes), and went when deleted")


if __name__ == "__main__":
    main()
