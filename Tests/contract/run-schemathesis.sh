#!/usr/bin/env bash
# Contract test: serves a freshly seeded database and runs Schemathesis against the served /openapi.yaml
# with every check (server errors, status codes, content types, response schemas, headers).
# Usage: Tests/contract/run-schemathesis.sh [PLACES_BINARY]   (default: the debug build's `places`)
set -euo pipefail
cd "$(dirname "$0")/../.."

binary=${1:-}
if [[ -z $binary ]]; then
    swift build --product places >/dev/null
    binary="$(swift build --show-bin-path)/places"
fi

work=$(mktemp -d)
venv=${PLACES_CONTRACT_VENV:-$work/venv}
if [[ ! -x $venv/bin/st ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet 'schemathesis==4.32.5' 'openapi-python-client==0.29.1'
fi

port=${PLACES_CONTRACT_PORT:-18765}
# bcrypt at its minimum cost and no bound on sign-ups from one address: the fuzzer signs people up by the hundred; nor
# on the places, messages and photos one account adds (`contract` uploads hundreds of photos, many of one seeded place).
"$binary" serve --database "$work/contract.sqlite" --seeds Seeds --port "$port" --bcrypt-cost 4 --registrations-per-hour 100000 \
    --places-per-day 100000 --messages-per-minute 100000 --photos-per-day 100000 --photos-per-place 100000 \
    >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT

for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    sleep 0.1
done

base="http://127.0.0.1:$port"
# A new seed every run, printed so that a failure can be replayed: PLACES_CONTRACT_SEED=N replays run N.
seed=${PLACES_CONTRACT_SEED:-$(( (RANDOM << 15) | RANDOM ))}
echo "contract: seed $seed (PLACES_CONTRACT_SEED=$seed replays this run)"
status=0

# 0. A client generated from the served document by a tool no one here wrote runs the README's tour.
"$venv/bin/python" Tests/contract/generated-client-tour.py "$base" "$work/client" || status=1

common=(--url "$base" --workers 1 --request-timeout 10 --seed "$seed")
# The config adds 413 and 414 (a body or a target too large) to the statuses that count as refusing bad input, and loads
# hooks.py: the photo uploads send the document's example images byte for byte, and images well-formed and broken.
st=("$venv/bin/st" --config-file Tests/contract/schemathesis.toml)
# 1. Every operation as nobody (the signed-in ones must answer 401), with every check, but the rules that OpenAPI
# cannot state: a parameter that needs another (search's lat with lon), two that exclude each other (radius and
# radiusKm), a minPrice above maxPrice (nearby and meet), a password that must differ from the username, and a box's
# edges in range, its south not north of its north, and no more cells than a clusters answer may span (within,
# clusters), and a cursor the server handed out (a place's photos, the one list of pages open to nobody, whose made-up
# cursor is refused). Those operations run again (2) with
# every other check, and nearby and within once more (3) as GeoJSON. Objects made by these passes are nobody's, so
# there is nothing for a stateful phase to follow: that is pass 4's.
unit=(--phases examples,coverage,fuzzing)
crossfield=(--include-operation-id nearbyPlaces --include-operation-id searchPlaces --include-operation-id register
    --include-operation-id placesWithin --include-operation-id placeClusters --include-operation-id meetPlaces
    --include-operation-id listPlacePhotos)
"${st[@]}" run "$base/openapi.yaml" "${common[@]}" "${unit[@]}" --checks all --max-examples 50 \
    --exclude-operation-id nearbyPlaces --exclude-operation-id searchPlaces --exclude-operation-id register \
    --exclude-operation-id placesWithin --exclude-operation-id placeClusters --exclude-operation-id meetPlaces \
    --exclude-operation-id listPlacePhotos || status=1
"${st[@]}" run "$base/openapi.yaml" "${common[@]}" "${unit[@]}" --checks all --exclude-checks positive_data_acceptance \
    --max-examples 150 "${crossfield[@]}" || status=1
"${st[@]}" run "$base/openapi.yaml" "${common[@]}" "${unit[@]}" --checks all --max-examples 100 \
    -H 'Accept: application/geo+json' --include-operation-id nearbyPlaces --include-operation-id placesWithin \
    --exclude-checks positive_data_acceptance || status=1

# 4. Every signed-in operation as `contract`, in every phase, the stateful one included: it follows the
# document's links from the operations that make or list objects to those that take their ids, so every
# operation is fuzzed with objects that exist. fixtures.py first makes what one token cannot (requests and
# invitations addressed to `contract`, groups it runs with members in them) and writes the config, whose
# warnings (an operation that never met a live object, or refused everything its schema allows) fail the run.
# Every request the schema forbids must be refused here too. Left out: the three operations that end or change
# the session the pass runs on (logout, password change, account deletion); the check that every valid request
# is accepted, since business rules (a group admin cannot remove themselves) are not in a schema (the warnings
# above and the tests keep acceptance honest). Resource availability is checked: 404 answers only for what the
# address names (a name or id in the body that matches nothing is 422 unknown_reference); so the stateful phase
# never leaves a group, which ends it as a DELETE would (signed-in.toml says why). The live streams are read until
# their first event, or for a few seconds when none comes, and then closed (signed-in.toml); each event is checked
# against the document's `itemSchema`, its data against the schema it names.
"$venv/bin/python" Tests/contract/fixtures.py "$base" "$work"
"$venv/bin/st" --config-file "$work/signed-in.toml" run "$base/openapi.yaml" "${common[@]}" --checks all \
    --exclude-checks positive_data_acceptance \
    -H "Authorization: Bearer $(cat "$work/token")" --exclude-operation-id logout --exclude-operation-id changePassword \
    --exclude-operation-id deleteMe --exclude-operation-id register --exclude-operation-id login \
    --exclude-operation-id health --exclude-operation-id openapi --exclude-operation-id metrics \
    --report har --report-dir "$work/report" || status=1
"$venv/bin/python" Tests/contract/reach.py Sources/PlacesHTTP/openapi.yaml "$work"/report/har-*.json || status=1

if grep -q ' error ' "$work/server.log"; then
    echo "contract: the server logged errors:" >&2
    grep ' error ' "$work/server.log" >&2
    status=1
fi
exit $status
