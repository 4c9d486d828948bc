#!/usr/bin/env bash
# Machine set-up for the test suite (`./pnpm setup-test-services`, run by .ci/run; never by `pnpm test` itself):
# makes sure what the tests talk to is installed and running: PostgreSQL and NATS (JetStream), xmllint for schema
# validation, unzip to check the ZIPs we write, Chromium for the picture tests, Java 17 + Maven for the local Neo4j.
# Installs from Debian's packages when something is missing and lets PostgreSQL trust loopback connections (needs
# root, as on the project's machines); starts services that are down.
set -euo pipefail

missing=()
command -v pg_ctlcluster >/dev/null 2>&1 || missing+=(postgresql)
command -v nats-server >/dev/null 2>&1 || missing+=(nats-server)
command -v xmllint >/dev/null 2>&1 || missing+=(libxml2-utils)
command -v unzip >/dev/null 2>&1 || missing+=(unzip)
[ -x /usr/bin/chromium ] || missing+=(chromium fonts-dejavu-core)
command -v java >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing from Debian packages: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

if ! port_open 5432; then
  version="$(ls /etc/postgresql | sort -V | tail -n 1)"
  conf="/etc/postgresql/$version/main/pg_hba.conf"
  # A freshly installed cluster asks for passwords on TCP; the tests use trust on loopback like the machine image.
  if ! grep -qE '^host\s+all\s+all\s+127\.0\.0\.1/32\s+trust' "$conf"; then
    sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$conf"
  fi
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
  for _ in $(seq 1 30); do port_open 5432 && break; sleep 1; done
fi

if ! port_open 4222; then
  mkdir -p /var/lib/nats-server
  start-stop-daemon --start --oknodo --background --exec "$(command -v nats-server)" -- \
    -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
  for _ in $(seq 1 30); do port_open 4222 && break; sleep 1; done
fi

port_open 5432 || { echo "PostgreSQL is not reachable on 127.0.0.1:5432" >&2; exit 1; }
port_open 4222 || { echo "NATS is not reachable on 127.0.0.1:4222" >&2; exit 1; }
