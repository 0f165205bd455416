-- The book's request mix for wrk, against archlab.http's order server: 40% create, 35% get, 25% pay.
-- wrk -t8 -c200 -d3s --latency -s book-mix.lua http://127.0.0.1:PORT -- IDS_FILE DEADLINE_MS SEED THREADS
--   IDS_FILE: pre-created order ids, one a line (gets read any of them; pays take them in turn, each thread its share)
--   DEADLINE_MS: the X-Deadline-Ms every request carries (the book's 200 ms timeout)
-- wrk … -s book-mix.lua http://127.0.0.1:PORT -- noop   asks GET /noop only (answered 204 by the server, no service):
--   the server's and the tool's own cost per request, for archlab.run.GeneratorCapacity.
-- The mix is drawn from a seeded random number per request (wrk has no request sequence across its threads).
-- done() prints one line, "WRK_JSON {...}", that archlab.http.Wrk parses: latencies in microseconds.

local counter = 0
function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end

local ids = {}
local deadline = "200"
local threads = 1
local nextPay = 0
local headers = {}
local noop = false

function init(args)
  if args[1] == "noop" then
    noop = true
    return
  end
  local f = assert(io.open(args[1], "r"))
  for line in f:lines() do
    if #line > 0 then ids[#ids + 1] = line end
  end
  f:close()
  deadline = args[2] or "200"
  math.randomseed(tonumber(args[3] or "7") * 1000 + (tid or 0))
  threads = tonumber(args[4] or "1")
  nextPay = tid or 0
  headers = { ["X-Deadline-Ms"] = deadline, ["Content-Type"] = "application/json" }
end

function request()
  if noop then
    return wrk.format("GET", "/noop")
  end
  local r = math.random(100)
  if r <= 40 then
    return wrk.format("POST", "/orders", headers, '{"customer":"cust"}')
  elseif r <= 75 then
    return wrk.format("GET", "/orders/" .. ids[math.random(#ids)], headers, nil)
  end
  local id = ids[(nextPay % #ids) + 1]
  nextPay = nextPay + threads
  return wrk.format("POST", "/orders/" .. id .. "/pay", headers, "")
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"duration_us":%d,"non_2xx":%d,"errors_connect":%d,"errors_read":%d,'
    .. '"errors_write":%d,"errors_timeout":%d,"p50_us":%d,"p99_us":%d,"max_us":%d,"mean_us":%.1f}\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max, latency.mean))
end
