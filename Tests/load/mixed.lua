-- wrk script: the mixed load. 90% nearby (1 mile, limit 50, a new centre each time), 5% place reads, 5% writes
-- (a third each: new places, ratings, ballots), spread over the signed-in users that run-load.py set up.
--   wrk -t1 -c64 -d60s -s Tests/load/mixed.lua http://127.0.0.1:8080 -- SETUP_FILE
-- SETUP_FILE (written by run-load.py): the first line is "places N DECISION CANDIDATE...", then one token a line.

local places = dofile((debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./") .. "places.lua")

local tokens, candidates = {}, {}
local place_count, decision
local sent = 0

function init(args)
    places.seed_random()
    local file = assert(io.open(args[1]), "mixed.lua needs the setup file written by run-load.py")
    local header = file:read("*l")
    local fields = {}
    for field in header:gmatch("%S+") do fields[#fields + 1] = field end
    place_count, decision = tonumber(fields[2]), fields[3]
    for i = 4, #fields do candidates[#candidates + 1] = fields[i] end
    for line in file:lines() do tokens[#tokens + 1] = line end
    file:close()
end

local function signed_in(method, path, body)
    local headers = {["Authorization"] = "Bearer " .. tokens[math.random(#tokens)], ["Content-Type"] = "application/json"}
    return wrk.format(method, path, headers, body)
end

local function ranking()
    -- A random order of the candidates, best first.
    local order = {}
    for i, id in ipairs(candidates) do order[i] = id end
    for i = #order, 2, -1 do
        local j = math.random(i)
        order[i], order[j] = order[j], order[i]
    end
    return '{"ranking":["' .. table.concat(order, '","') .. '"]}'
end

function request()
    local r = math.random()
    if r < 0.90 then
        return wrk.format("GET", places.nearby_path(1, 50))
    elseif r < 0.95 then
        return wrk.format("GET", "/v1/places/gen-" .. math.random(0, place_count - 1))
    end
    local write = math.random(3)
    if write == 1 then
        sent = sent + 1
        local lat, lon = places.center()
        local body = string.format('{"kind":"gem","name":"Load test %d-%d","lat":%.6f,"lon":%.6f}',
            math.random(1, 2147483647), sent, lat, lon)
        return signed_in("POST", "/v1/places", body)
    elseif write == 2 then
        local body = string.format('{"stars":%d}', math.random(1, 5))
        return signed_in("PUT", "/v1/places/gen-" .. math.random(0, place_count - 1) .. "/rating", body)
    end
    return signed_in("PUT", "/v1/decisions/" .. decision .. "/ballot", ranking())
end

done = places.report
