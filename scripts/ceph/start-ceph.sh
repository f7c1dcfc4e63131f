#!/usr/bin/env bash
# Copied from shared/tools/ceph so that CI and developers have it in the checkout.
# Start a minimal *real* Ceph RADOS cluster on 127.0.0.1 for tests:
#   MONS monitors (default 3), 1 mgr, OSDS OSDs (default 3), replicated pool "$POOL" size=3 min_size=2
#   (one replica per OSD; CRUSH failure domain = osd since all run on one host). cephx auth is OFF (tests only).
#   OBJSTORE=memstore (default, RAM-backed, fastest) or bluestore (2 GiB sparse file per OSD, real durable store).
# Needs Debian packages: ceph-mon ceph-osd ceph-mgr ceph-common (python3-rados comes with ceph-common).
# Prints "ceph ready ..." and exits 0 once every PG of the pool is active+clean. Stop with stop-ceph.sh.
set -euo pipefail
BASE=${BASE:-${TMPDIR:-/tmp}/monotable-ceph}; MONS=${MONS:-3}; OSDS=${OSDS:-3}; POOL=${POOL:-dyn}; PGS=${PGS:-32}
OBJSTORE=${OBJSTORE:-memstore}; MONPORT0=${MONPORT0:-46789}; READY_TIMEOUT=${READY_TIMEOUT:-120}
HERE=$(cd "$(dirname "$0")" && pwd)
# stop a previous cluster started from the same BASE (by its pid files) before wiping it
if ls "$BASE"/run/*.pid >/dev/null 2>&1; then BASE="$BASE" "$HERE/stop-ceph.sh" >/dev/null; fi
rm -rf "$BASE"; mkdir -p "$BASE"/{log,run}
FSID=$(cat /proc/sys/kernel/random/uuid)
MONHOST=""; for i in $(seq 0 $((MONS-1))); do MONHOST+="${MONHOST:+,}[v2:127.0.0.1:$((MONPORT0+2*i))]"; done
cat > "$BASE/ceph.conf" <<CONF
[global]
fsid = $FSID
mon host = $MONHOST
public addr = 127.0.0.1
cluster addr = 127.0.0.1
public network = 127.0.0.0/8
ms bind ipv6 = false
ms bind msgr1 = false
auth cluster required = none
auth service required = none
auth client required = none
auth allow insecure global id reclaim = false
run dir = $BASE/run
admin socket = $BASE/run/\$name.asok
log file = $BASE/log/\$name.log
pid file = $BASE/run/\$name.pid
osd pool default size = 3
osd pool default min size = 2
osd crush chooseleaf type = 0
osd pool default pg autoscale mode = off
mon allow pool delete = true
mon warn on pool no redundancy = false
mon data avail warn = 1
mon data avail crit = 0
osd objectstore = $OBJSTORE
memstore device bytes = 1073741824
bluestore block create = true
bluestore block size = 2147483648
bluestore fsck on mkfs = false
osd memory target = 939524096
osd op num shards = 2
osd op num threads per shard = 1
mgr initial modules =
mgr stats period = 1
mon election timeout = 1
${EXTRA_CONF:-}
[mon]
mon data = $BASE/mon.\$id
[osd]
osd data = $BASE/osd.\$id
[mgr]
mgr data = $BASE/mgr.\$id
CONF
export CEPH_CONF="$BASE/ceph.conf"
PY=/usr/bin/python3   # Debian's python, which has the rados binding
# 1. monitors: mkfs all, then start all at once so the first election completes without timeouts
MM=(monmaptool --create --fsid "$FSID"); for i in $(seq 0 $((MONS-1))); do MM+=(--addv m$i "[v2:127.0.0.1:$((MONPORT0+2*i))]"); done
"${MM[@]}" "$BASE/monmap" >/dev/null
for i in $(seq 0 $((MONS-1))); do ceph-mon --mkfs -i m$i --monmap "$BASE/monmap" >/dev/null 2>&1 & done; wait
for i in $(seq 0 $((MONS-1))); do ceph-mon -i m$i 2>>"$BASE/log/stderr.log" & done; wait
# 2. quorum (poll the leader's local admin socket, no network client needed)
for t in $(seq 1 $((READY_TIMEOUT*10))); do
  n=$(ceph --admin-daemon "$BASE/run/mon.m0.asok" mon_status 2>/dev/null | $PY -c 'import json,sys; print(len(json.load(sys.stdin).get("quorum",[])))' 2>/dev/null || echo 0)
  [ "$n" = "$MONS" ] && break; sleep 0.1
done
[ "$n" = "$MONS" ] || { echo "no mon quorum" >&2; exit 1; }
ceph-mgr -i x 2>>"$BASE/log/stderr.log"
# 3. OSD ids + pool in one client session, then mkfs and start OSDs in parallel
mapfile -t OSDLINES < <($PY - "$OSDS" "$POOL" "$PGS" <<'PYEOF'
import json, os, sys, uuid, rados
n, pool, pgs = int(sys.argv[1]), sys.argv[2], sys.argv[3]
c = rados.Rados(conffile=os.environ["CEPH_CONF"]); c.connect(timeout=30)
def mon(cmd):
    r, out, err = c.mon_command(json.dumps(cmd), b'')
    if r != 0: raise SystemExit(f"mon_command {cmd} failed: {r} {err}")
    return out
for _ in range(n):
    u = str(uuid.uuid4()); oid = mon({"prefix": "osd new", "uuid": u, "format": "json"})
    print(json.loads(oid)["osdid"], u)
mon({"prefix": "osd pool create", "pool": pool, "pg_num": int(pgs), "pgp_num": int(pgs)})
mon({"prefix": "osd pool application enable", "pool": pool, "app": "dynamo"})
c.shutdown()
PYEOF
)
for l in "${OSDLINES[@]}"; do set -- $l; mkdir -p "$BASE/osd.$1"
  (ceph-osd -i "$1" --mkfs --osd-uuid "$2" >"$BASE/log/mkfs.$1.out" 2>&1 && ceph-osd -i "$1" 2>>"$BASE/log/stderr.log") & done; wait
# 4. ready = all PGs of the pool active+clean (asked through the mgr, from one client session)
$PY - "$POOL" "$READY_TIMEOUT" <<'PYEOF'
import json, os, sys, time, rados
pool, timeout = sys.argv[1], float(sys.argv[2])
c = rados.Rados(conffile=os.environ["CEPH_CONF"]); c.connect(timeout=30)
deadline = time.time() + timeout
while time.time() < deadline:
    r, out, _ = c.mgr_command(json.dumps({"prefix": "pg ls-by-pool", "poolstr": pool, "format": "json"}), b'')
    if r == 0:
        d = json.loads(out); pgs = d["pg_stats"] if isinstance(d, dict) else d
        if pgs and all(p["state"] == "active+clean" for p in pgs):
            print(f"ceph ready: pool {pool}: {len(pgs)} PGs active+clean"); c.shutdown(); sys.exit(0)
    time.sleep(0.5)
print("ceph not ready", file=sys.stderr); sys.exit(1)
PYEOF
echo "ceph ready: $MONS mon, 1 mgr, $OSDS osd ($OBJSTORE); CEPH_CONF=$CEPH_CONF"
