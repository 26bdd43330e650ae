#!/bin/sh
# Lighthouse accessibility score of the built site. Not a test.
#   bench/lighthouse.sh [dist-dir]      (default: a fresh build in a temp folder)
# Needs npm `lighthouse` 12 (LIGHTHOUSE=/path/to/lighthouse, else `npx --yes lighthouse@12`) and
# Debian chromium. Serves the site with the production headers (tools/serve.py).
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
time.sleep(600)
" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null' EXIT
sleep 2
LH="${LIGHTHOUSE:-npx --yes lighthouse@12}"
OUT="${OUT:-/tmp/lighthouse-a11y}"
for LANG in en es bg ru; do
  CHROME_PATH=/usr/bin/chromium $LH "http://127.0.0.1:$PORT/?lang=$LANG" \
    --only-categories=accessibility --quiet --output=json --output-path="$OUT-$LANG.json" \
    --chrome-flags="--headless=new --no-sandbox --disable-gpu" --max-wait-for-load=60000
  python3 -c "
import json; r = json.load(open('$OUT-$LANG.json'))
s = r['categories']['accessibility']['score']
bad = [a for a in r['categories']['accessibility']['auditRefs'] if r['audits'][a['id']]['score'] == 0]
print('$LANG', 'accessibility', round(s * 100), [a['id'] for a in bad])"
done
