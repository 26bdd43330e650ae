#!/bin/sh
# Lighthouse 12, mobile defaults (simulated 4G and 4x CPU slow-down), every category, on
# the built site served as Netlify serves it: the production headers and compression
# (tools/serve.py). One run per language; prints each category's score and the
# performance metrics. Not a test: figures depend on the machine (run it on a quiet one).
#   bench/lighthouse.sh [dist-dir]      (default: a fresh build in a temp folder)
# Needs npm `lighthouse` 12 (LIGHTHOUSE=/path/to/lighthouse, else `npx --yes lighthouse@12`) and
# Debian chromium. Reports: $OUT-<lang>.json (default /tmp/lighthouse-<lang>.json).
set -eu
cd "$(dirname "$0")/.."
DIST="${1:-}"
if [ -z "$DIST" ]; then
  DIST="$(mktemp -d)/dist"
  python3 tools/build.py --out "$DIST" --no-sizes >/dev/null
fi
PORT="${PORT:-8767}"
python3 -c "
import sys, time
sys.path.insert(0, '.')
from tools.serve import start_server
url, stop = start_server('$DIST', port=$PORT)
print(url, flush=True)
time.sleep(3600)
" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null' EXIT
sleep 2
# Its server must be the one answering (a server left on the port would answer instead).
kill -0 "$SERVER" 2>/dev/null || { echo "the site's server did not start on port $PORT" >&2; exit 1; }
LH="${LIGHTHOUSE:-npx --yes lighthouse@12}"
OUT="${OUT:-/tmp/lighthouse}"
for LANG in ${LANGS:-en es bg ru}; do
  CHROME_PATH=/usr/bin/chromium $LH "http://127.0.0.1:$PORT/?lang=$LANG" \
    --quiet --output=json --output-path="$OUT-$LANG.json" \
    --chrome-flags="--headless=new --no-sandbox --disable-gpu" --max-wait-for-load=60000
  python3 - "$OUT-$LANG.json" "$LANG" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
cats = {k: round(v["score"] * 100) for k, v in r["categories"].items() if v.get("score") is not None}
a = r["audits"]
metrics = {k: a[k]["displayValue"] for k in ("first-contentful-paint", "largest-contentful-paint",
           "total-blocking-time", "cumulative-layout-shift", "speed-index", "total-byte-weight")}
failed = [ref["id"] for c in r["categories"].values() for ref in c["auditRefs"]
          if a[ref["id"]].get("score") == 0 and ref.get("weight", 0) > 0]
print(sys.argv[2], cats, metrics, "failed:", failed)
PY
done
