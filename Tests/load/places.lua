-- Shared by the wrk scripts: query centres drawn like the generated data set, and the summary line.
local places = {}

local cities = {
    {40.7128, -74.0060}, {34.0522, -118.2437}, {41.8781, -87.6298}, {29.7604, -95.3698}, {33.4484, -112.0740},
    {39.9526, -75.1652}, {29.4241, -98.4936}, {32.7157, -117.1611}, {32.7767, -96.7970}, {37.3382, -121.8863},
    {30.2672, -97.7431}, {30.3322, -81.6557}, {37.7749, -122.4194}, {39.9612, -82.9988}, {47.6062, -122.3321},
    {39.7392, -104.9903}, {42.3601, -71.0589}, {36.1627, -86.7816}, {45.5152, -122.6784}, {25.7617, -80.1918},
}

-- Each wrk thread has its own Lua state: seed each differently, so threads do not send the same centres.
function places.seed_random()
    local address = tostring({}):match("0x(%x+)") or "0"
    math.randomseed(os.time() + tonumber(address:sub(-6), 16))
end

local function gauss()
    local u = 1 - math.random()
    return math.sqrt(-2 * math.log(u)) * math.cos(2 * math.pi * math.random())
end

-- A centre: 70% near a city (sigma 0.09 degrees), 30% anywhere in the continental US.
function places.center()
    if math.random() < 0.7 then
        local city = cities[math.random(#cities)]
        return city[1] + gauss() * 0.09, city[2] + gauss() * 0.09 / 0.78
    end
    return 24.5 + math.random() * 24.5, -124.7 + math.random() * 57.7
end

function places.nearby_path(radius, limit)
    local lat, lon = places.center()
    return string.format("/v1/places/nearby?lat=%.6f&lon=%.6f&radius=%.3f&limit=%d", lat, lon, radius, limit)
end

-- One line the runner parses, after wrk's own summary.
function places.report(summary, latency, requests)
    local errors = summary.errors
    local seconds = summary.duration / 1e6
    io.write(string.format(
        "LOAD requests=%d seconds=%.2f rps=%.1f p50_ms=%.3f p99_ms=%.3f max_ms=%.3f errors=%d non2xx=%d socket_errors=%d\n",
        summary.requests, seconds, summary.requests / seconds,
        latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
        errors.status + errors.connect + errors.read + errors.write + errors.timeout,
        errors.status, errors.connect + errors.read + errors.write + errors.timeout))
end

return places
