-- wrk script: GET /v1/places/nearby with a new centre (and radius) for every request.
--
-- Centres follow the generated data set (Tests/tools/generate_places.py): 70% near one of 20 US city centres
-- (gaussian, sigma ~10 km), 30% uniform over the continental US.
--   wrk -t1 -c64 -d60s -s Tests/load/nearby.lua http://127.0.0.1:8080 -- RADIUS [LIMIT]
-- RADIUS is miles, or a range MIN-MAX drawn uniformly per request (default 1); LIMIT defaults to 50. A third argument
-- `gzip` sends Accept-Encoding: gzip (Tests/load/compression.py).

local places = dofile((debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./") .. "places.lua")

local radius_min, radius_max, limit = 1, 1, 50

function init(args)
    places.seed_random()
    if args[1] then
        local low, high = args[1]:match("^([%d.]+)-([%d.]+)$")
        if low then radius_min, radius_max = tonumber(low), tonumber(high)
        else radius_min = tonumber(args[1]); radius_max = radius_min end
    end
    if args[2] then limit = tonumber(args[2]) end
    if args[3] == "gzip" then wrk.headers["Accept-Encoding"] = "gzip" end
end

function request()
    local radius = radius_min + (radius_max - radius_min) * math.random()
    return wrk.format("GET", places.nearby_path(radius, limit))
end

done = places.report
