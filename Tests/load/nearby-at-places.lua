-- wrk script: GET /v1/places/nearby centred on a random place of the loaded data set, read from a centres file
-- (one "LAT LON" line a place); Tests/load/nearby-vs-redis.py asks Redis about the same kind of centre.
--   wrk -t1 -c64 -d20s -s Tests/load/nearby-at-places.lua http://127.0.0.1:8080 -- CENTRES [RADIUS] [LIMIT]
-- RADIUS is miles (default 1); LIMIT defaults to 50.

local places = dofile((debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./") .. "places.lua")

local centres = {}
local radius, limit = 1, 50

function init(args)
    places.seed_random()
    for line in io.lines(args[1]) do
        local lat, lon = line:match("^(%S+) (%S+)$")
        if lat then centres[#centres + 1] = string.format("lat=%s&lon=%s", lat, lon) end
    end
    if args[2] then radius = tonumber(args[2]) end
    if args[3] then limit = tonumber(args[3]) end
end

function request()
    local centre = centres[math.random(#centres)]
    return wrk.format("GET", string.format("/v1/places/nearby?%s&radius=%g&limit=%d", centre, radius, limit))
end

done = places.report
