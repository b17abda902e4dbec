-- POSTs the body in $BODY_FILE with the Content-Type in $CONTENT_TYPE on every request
-- (scripts/serve-wrk.sh), and counts answers that are not 200.
local f = assert(io.open(os.getenv("BODY_FILE"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = os.getenv("CONTENT_TYPE")
wrk.path = "/upload"

local bad = 0
function response(status, headers, body)
  if status ~= 200 then bad = bad + 1 end
end

function done(summary, latency, requests)
  io.write(string.format("RESULT %.0f %d\n", summary.requests / (summary.duration / 1e6), summary.errors.status + bad))
end
