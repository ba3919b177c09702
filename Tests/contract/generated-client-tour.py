#!/usr/bin/env python3
"""The README's three-person tiered decision, driven by a client generated from the served document.

Generates a Python client from BASE_URL/openapi.yaml with openapi-python-client (from PyPI; a tool no one here
wrote), refuses it if any operation's body came out untyped (`Any`), then runs the README's tour through it
against a fresh server: Ana, Ben and Cleo sign up and log in, Ana makes a group and invites the others, they
accept, the group collects three San Francisco places, Ana starts a tiered decision over the collection, all
three vote, and the decision completes with Lupine & Salt the winner, which a recount agrees with.

Usage: generated-client-tour.py BASE_URL WORK_DIR   (run it with a Python that has openapi-python-client)
"""

import importlib
import re
import subprocess
import sys
import urllib.request
from http import HTTPStatus
from pathlib import Path


def generate(base: str, work: Path) -> None:
    work.mkdir(parents=True, exist_ok=True)
    document = work / "openapi.yaml"
    with urllib.request.urlopen(f"{base}/openapi.yaml", timeout=10) as response:
        text = response.read().decode()
    # The document is OpenAPI 3.2 (for the event streams' `itemSchema`); openapi-python-client 0.29.1 refuses any
    # version but 3.1 by its number alone, and reads the rest as 3.1 (a media type's `itemSchema` it keeps unread,
    # which a client of the JSON operations does not need).
    document.write_text(re.sub(r"^openapi: 3\.2\.\d+$", "openapi: 3.1.0", text, count=1, flags=re.MULTILINE))
    generator = Path(sys.executable).with_name("openapi-python-client")
    subprocess.run(
        [str(generator), "generate", "--path", str(document), "--meta", "none", "--output-path", str(work / "places_client"),
         "--overwrite"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    untyped = sorted(
        module.stem for module in (work / "places_client" / "api").rglob("*.py")
        if re.search(r"\bbody: Any\b", module.read_text())
    )
    if untyped:
        raise SystemExit(f"generated client: untyped request bodies in {', '.join(untyped)}")
    sys.path.insert(0, str(work))


def main() -> None:
    base, work = sys.argv[1], Path(sys.argv[2])
    generate(base, work)
    client_module = importlib.import_module("places_client")
    api = {name: importlib.import_module(f"places_client.api.default.{name}") for name in [
        "register", "login", "create_group", "invite_to_group", "list_notifications", "accept_invitation",
        "create_collection", "add_to_collection", "start_decision", "cast_ballot", "get_decision", "recount_decision",
    ]}
    models = importlib.import_module("places_client.models")

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


if __name__ == "__main__":
    main()
