#!/usr/bin/env bash
# Brings compose.yaml up with the local stand-ins (compose.local.yaml) and probes the installation as an
# operator would (issue 32, docs/operations.md "Containers"): every service up, HAProxy on :8080 serving
# pages, /readyz and the API through both web nodes, the replica streaming and answering anonymous
# catalogue reads, a session made on one node used on the other, a picture uploaded into the object
# store and served to a browser, a buyer's course video from a signed link, the worker running jobs
# (a sign-up's mail), /metrics behind its token, pages answering while a web node stops, and a node
# without JWT_SECRET refusing to start. Then `down -v`, whatever happened.
#
#   sudo scripts/compose-probe.sh          (root: podman; builds the images first, cached after once)
#
# Run by .ci/run, last; docs/operations.md gives its cost. Uses host ports 8080 and 9000.
set -euo pipefail
. "$(dirname "$0")/podman-conf.sh"
cd "$(dirname "$0")/.."

COMPOSE=(podman-compose -p tradeshelf -f compose.yaml -f compose.local.yaml)
failures=0
ok() { echo "  ok   $*"; }
bad() { echo "  FAIL $*"; failures=$((failures + 1)); }
check() { # DESCRIPTION COMMAND...: ok when the command succeeds
  local what=$1
  shift
  if "$@"; then ok "$what"; else bad "$what"; fi
}
t0=$(date +%s)

s=$(date +%s)
# PROBE_IMAGES_BUILT=1: the caller has just built them from this tree (.ci/run).
[ -n "${PROBE_IMAGES_BUILT:-}" ] || scripts/local-images.sh
build_s=$(($(date +%s) - s))
echo "images built in $build_s s"

# From what git tracks, with secrets of its own: the checkout's .env is never read or touched.
run="$(mktemp -d /tmp/compose-probe.XXXXXX)"
log="$run/compose.log"
git ls-files -z | xargs -0 tar -c | tar -x -C "$run"
cleanup() {
  # Thrown away with its volumes: no container needs podman's 10 s to stop cleanly here.
  (cd "$run" && "${COMPOSE[@]}" down -v -t 2 >>"$log" 2>&1) || true
  podman network rm -f tradeshelf_default >/dev/null 2>&1 || true
  podman rm -f ts-compose-nojwt >/dev/null 2>&1 || true
  rm -rf "$run"
}
trap cleanup EXIT
host=$(ip -4 route get 1.1.1.1 | awk '{for (i = 1; i < NF; i++) if ($i == "src") print $(i + 1)}')
PUBLIC="http://$host:8080"
secret() { openssl rand -hex 24; }
metrics_token=$(secret)
cat >"$run/.env" <<EOF
JWT_SECRET=$(secret)
CODE_SECRET=$(secret)
STORAGE_SECRET=$(secret)
POSTGRES_PASSWORD=$(secret)
REPLICATION_PASSWORD=$(secret)
OBJECTS_PASSWORD=$(secret)
METRICS_TOKEN=$metrics_token
APP_ENV=sandbox
SMTP_URL=
STRIPE_SECRET_KEY=
STRIPE_WEBHOOK_SECRET=
DISCORD_CLIENT_ID=
DISCORD_CLIENT_SECRET=
DISCORD_BOT_TOKEN=
PUBLIC_URL=$PUBLIC
S3_PUBLIC_URL=http://$host:9000/tradeshelf
SEED_DEMO=true
EOF
cd "$run"

s=$(date +%s)
"${COMPOSE[@]}" up -d >>"$log" 2>&1 || { tail -30 "$log"; exit 1; }
code=
for _ in $(seq 1 600); do
  code=$(curl -s -o /dev/null -w '%{http_code}' "$PUBLIC/readyz") || true
  [ "$code" = 200 ] && break
  sleep 1
done
up_s=$(($(date +%s) - s))
[ "$code" = 200 ] && ok "ready through HAProxy in $up_s s from \`up\` (migrated, demo seeded and drawn)" ||
  { bad "never ready through HAProxy ($code after $up_s s)"; exit 1; }

state() { podman inspect "tradeshelf_$1_1" --format '{{.State.Status}} {{.State.ExitCode}}' 2>/dev/null; }
for svc in postgres-primary postgres-replica pgbouncer redis objects web1 web2 worker haproxy; do
  [ "$(state "$svc")" = "running 0" ] && ok "$svc running" || bad "$svc: $(state "$svc")"
done
[ "$(state objects-bucket)" = "exited 0" ] && ok "objects-bucket made the bucket and exited 0" ||
  bad "objects-bucket: $(state objects-bucket)"

# Each node's own address on the compose network, to aim at one node past HAProxy.
at_node() { echo "http://$(podman inspect "tradeshelf_$1_1" --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}'):3000"; }
status() { curl -s -o /dev/null -w '%{http_code}' "$@"; }

for path in / '/search?q=rsi' /vendor/login /readyz '/api/v1/products/term/search?q=rsi'; do
  code=$(status "$PUBLIC$path")
  [ "$code" = 200 ] && ok "HAProxy: GET $path 200" || bad "HAProxy: GET $path $code"
done
# Both nodes serve HAProxy's traffic: a marked request is found in each node's log. "Ready" above
# means one node passed HAProxy's checks; the other may come up seconds later and then takes a
# growing share over `slowstart` (5 s), so marked requests go on until both have served one (30 s).
mark="compose-probe-$$"
served_by() { podman logs "tradeshelf_$1_1" 2>&1 | grep -c "$mark" || true; }
sent=0
s=$(date +%s)
while [ $(($(date +%s) - s)) -lt 30 ]; do
  status "$PUBLIC/api/v1/products/term/search?q=$mark" >/dev/null
  sent=$((sent + 1))
  [ $((sent % 4)) = 0 ] && [ "$(served_by web1)" -gt 0 ] && [ "$(served_by web2)" -gt 0 ] && break
  sleep 0.2
done
for n in web1 web2; do
  served=$(served_by "$n")
  [ "$served" -gt 0 ] && ok "$n served requests through HAProxy ($served log lines of $sent requests, $(($(date +%s) - s)) s)" ||
    bad "$n served none of $sent requests in 30 s"
done

psql_in() { podman exec "tradeshelf_$1_1" psql -U tradeshelf -d tradeshelf -Atc "$2"; }
check "the replica is streaming (pg_stat_replication on the primary)" \
  test "$(psql_in postgres-primary "select state from pg_stat_replication")" = streaming
# The replica's transactions while 30 anonymous searches no cache has seen run, less those of an idle
# interval as long (the nodes poll the catalogue version there twice a second): at least one for every
# other search, as the cluster test asks.
replica_xacts() { psql_in postgres-replica "select xact_commit + xact_rollback from pg_stat_database where datname = 'tradeshelf'"; }
x0=$(replica_xacts)
s=$(date +%s%N)
for n in $(seq 1 30); do status "$PUBLIC/search?q=probe$$x$n" >/dev/null; done
window=$(((($(date +%s%N) - s) / 1000000 + 1200)))
sleep 1.2 # the counters are flushed within a second
x1=$(replica_xacts)
sleep "$(awk "BEGIN { print $window / 1000 }")"
x2=$(replica_xacts)
read=$(((x1 - x0) - (x2 - x1)))
[ "$read" -ge 15 ] && ok "anonymous catalogue reads answered by the replica ($((x1 - x0)) transactions for 30 searches, $((x2 - x1)) idle as long)" ||
  bad "the replica answered $((x1 - x0)) transactions for 30 anonymous searches, $((x2 - x1)) idle as long"

# A session made on one node works on the other; its sign-up mail is sent by the worker's job.
email="compose-probe-$$@probe.test"
# Prints EXPR of the JSON answer on stdin (`r`), or nothing when the answer is not JSON or EXPR is
# undefined or null: `pick 'r.products[0]?.id'`. `json KEY` is `pick r.KEY`.
pick() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{const v=new Function("r","return ("+process.argv[1]+")")(JSON.parse(s));if(v!=null)console.log(typeof v==="object"?JSON.stringify(v):v)}catch{}})' "$1"; }
json() { pick "r.$1"; }
post() { curl -s -X POST -H 'content-type: application/json' -H "origin: $PUBLIC" "$@"; }
token=$(post "$(at_node web1)/auth/signup/buyer" -d "{\"email\":\"$email\",\"password\":\"Compose-probe-password-1\"}" | json token)
[ -n "$token" ] && ok "signed up through web1" || bad "sign-up through web1 gave no session"
code=$(status -H "authorization: Bearer $token" "$(at_node web2)/api/v1/purchases/buyer/list")
[ "$code" = 200 ] && ok "web1's session works on web2" || bad "web1's session on web2: $code"
token2=$(post "$(at_node web2)/auth/login" -d "{\"email\":\"$email\",\"password\":\"Compose-probe-password-1\"}" | json token)
code=$(status -H "authorization: Bearer $token2" "$(at_node web1)/api/v1/purchases/buyer/list")
[ -n "$token2" ] && [ "$code" = 200 ] && ok "logged in through web2, the session works on web1" || bad "log-in through web2, on web1: $code"
mailed=
for _ in $(seq 1 30); do
  podman logs tradeshelf_worker_1 2>&1 | grep "$email" | grep -q 'mail (outbox only' && { mailed=1; break; }
  sleep 1
done
[ -n "$mailed" ] && ok "the worker ran the sign-up's mail job" || bad "no mail for $email from the worker within 30 s"

# A product picture uploaded by the demo vendor lands in the object store and reaches a browser.
vendor=$(post "$PUBLIC/auth/login" -d '{"email":"vendor@demo.tradeshelf.test","password":"tradeshelf-demo"}' | json token)
product=$(curl -s -H "authorization: Bearer $vendor" "$PUBLIC/api/v1/vendor/products?status=published" |
  pick 'r.products[0]?.id')
picture="$run/probe.png"
podman exec tradeshelf_web1_1 node -e "require('sharp')({create:{width:64,height:48,channels:3,background:'#224466'}}).png().toBuffer().then(b=>process.stdout.write(b))" >"$picture"
url=$(curl -s -H "authorization: Bearer $vendor" -H "origin: $PUBLIC" -F "file=@$picture;type=image/png" \
  "$PUBLIC/api/v1/vendor/products/$product/images" |
  pick 'r.product?.images?.at(-1)')
key=${url#*/tradeshelf/}
if [ -n "$url" ] && [ "$key" != "$url" ] && podman exec tradeshelf_objects_1 test -e "/data/tradeshelf/$key._S3rver_object"; then
  ok "uploaded picture stored in the object store ($key)"
else
  bad "uploaded picture not in the object store (product ${product:-none}, url ${url:-none})"
fi
got=$(curl -s -o /dev/null -w '%{http_code} %{content_type}' "$url")
[ "${got%% *}" = 200 ] && [[ "$got" == *image/* ]] && ok "the picture is served to a browser from $url ($got)" || bad "picture at ${url:-none}: $got"

# A private file: the demo buyer's course video, by a link signed for the store's published port
# (S3_SIGNED_URL_ENDPOINT; the nodes reach the store as `objects`, which no browser resolves).
buyer=$(post "$PUBLIC/auth/login" -d '{"email":"buyer@demo.tradeshelf.test","password":"tradeshelf-demo"}' | json token)
course=$(curl -s -H "authorization: Bearer $buyer" "$PUBLIC/api/v1/user/courses" |
  pick 'r.courses?.[0]?.id')
video=$(curl -s -H "authorization: Bearer $buyer" "$PUBLIC/api/v1/courses/$course" |
  pick 'r.course?.modules.flatMap((m) => m.lessons).find((l) => l.video && !l.locked)?.video.id')
signed=$(curl -s -H "authorization: Bearer $buyer" "$PUBLIC/api/v1/videos/url?id=$video" | json url)
got=$(curl -s -o "$run/video" -w '%{http_code}' -H 'range: bytes=0-7' "$signed" || true)
if [ "${got}" = 206 ] && [ "$(tail -c +5 "$run/video" | head -c 4)" = ftyp ]; then
  ok "the buyer's course video plays from a signed link (${signed%%\?*})"
else
  bad "course video: ${got:-no answer} from ${signed:-no link} (course ${course:-none}, video ${video:-none})"
fi

code=$(status -H "authorization: Bearer $metrics_token" "$PUBLIC/metrics")
[ "$code" = 200 ] && curl -s -H "authorization: Bearer $metrics_token" "$PUBLIC/metrics" | grep -q '^tradeshelf_db_replica_lag_seconds' &&
  ok "/metrics answers with METRICS_TOKEN (replica lag included)" || bad "/metrics with METRICS_TOKEN: $code"
code=$(status "$PUBLIC/metrics")
[ "$code" != 200 ] && ok "/metrics without the token: $code" || bad "/metrics open without the token"

# A web node stops under HAProxy: pages keep answering from the other.
codes="$run/codes"
(for _ in $(seq 1 60); do status "$PUBLIC/"; echo; sleep 0.1; done) >"$codes" &
load=$!
sleep 1
s=$(date +%s%N)
podman stop -t 30 tradeshelf_web1_1 >/dev/null 2>&1
stop_ms=$((($(date +%s%N) - s) / 1000000))
wait "$load"
failed=$(grep -vc '^200$' "$codes" || true)
[ "$failed" = 0 ] && ok "60 pages while web1 stops (${stop_ms} ms): all 200" || bad "$failed of 60 pages failed while web1 stopped: $(sort "$codes" | uniq -c | tr '\n' ' ')"
failed=0
for _ in $(seq 1 20); do [ "$(status "$PUBLIC/")" = 200 ] || failed=$((failed + 1)); done
[ "$failed" = 0 ] && ok "20 pages with web1 down: all 200" || bad "$failed of 20 pages failed with web1 down"
podman start tradeshelf_web1_1 >/dev/null 2>&1

# A node given the installation's settings less JWT_SECRET refuses to start.
env=()
while IFS= read -r e; do [[ "$e" == JWT_SECRET=* ]] || env+=(-e "$e"); done < <(
  podman inspect tradeshelf_web2_1 --format '{{range .Config.Env}}{{println .}}{{end}}' | grep -E '^[A-Z_]+=.' | grep -Ev '^(PATH|HOME|HOSTNAME|container)=')
out=$(timeout 120 podman run --rm --name ts-compose-nojwt --network tradeshelf_default "${env[@]}" localhost/tradeshelf:latest 2>&1 || true)
grep -q 'JWT_SECRET: required' <<<"$out" && ok "a node without JWT_SECRET refuses to start" || bad "a node without JWT_SECRET: $(tail -3 <<<"$out")"

echo "compose probe: $failures failed; images $build_s s, up to ready $up_s s, probe $(($(date +%s) - t0 - build_s - up_s)) s, all $(($(date +%s) - t0)) s"
exit $((failures > 0))
