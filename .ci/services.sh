#!/usr/bin/env bash
# Installs (on Debian, as root) and starts what the tests need: a real
# redis-server of the tests' own, on its own port with 256 logical databases
# so that test packages never share keys, and GNU Go for the rules
# cross-check. Safe to run again: it only starts what is not running.
# Also a store server of its own (FerretDB on PostgreSQL: cmd/ferretpg on
# RANK_TEST_FERRETPG_PORT, its data in PostgreSQL's database rank_test)
# and a Redis Cluster of three primaries (RANK_TEST_REDIS_CLUSTER_PORTS).
set -euo pipefail
export PATH="$PATH:/usr/games"
port="${RANK_TEST_REDIS_PORT:-6391}"

need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v redis-cli >/dev/null 2>&1 || need+=(redis-tools)
command -v gnugo >/dev/null 2>&1 || need+=(gnugo)
# curl and jq: cmd/rankd runs the README's quick start as written.
command -v curl >/dev/null 2>&1 || need+=(curl)
command -v jq >/dev/null 2>&1 || need+=(jq)
# chromium and a CJK font: the web pages' browser tests (web/).
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || need+=(fonts-wqy-microhei)
# PostgreSQL: the store of the tests' FerretDB server.
command -v pg_createcluster >/dev/null 2>&1 || need+=(postgresql)
if ((${#need[@]})); then
	sudo=""
	[ "$(id -u)" = 0 ] || sudo="sudo"
	echo "services: installing ${need[*]}"
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq
	$sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if ! redis-cli -p "$port" ping >/dev/null 2>&1; then
	echo "services: starting redis-server on 127.0.0.1:$port"
	redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --save "" \
		--appendonly no --databases 256 --dir /tmp \
		--logfile /tmp/rank-test-redis-"$port".log
	for _ in $(seq 1 50); do
		redis-cli -p "$port" ping >/dev/null 2>&1 && break
		sleep 0.1
	done
fi
redis-cli -p "$port" ping >/dev/null

# PostgreSQL: the machine's own on 5432 when it lets postgres in over
# loopback without a password; else a cluster of the tests' own on
# $pgport (trust on loopback), created once.
pg_ok() { psql -h 127.0.0.1 -p "$1" -U postgres -d postgres -Atqc 'select 1' >/dev/null 2>&1; }
pgport=5432
if ! pg_ok "$pgport"; then
	pgport="${RANK_TEST_PG_PORT:-5439}"
	if ! pg_ok "$pgport"; then
		ver=$(ls /usr/lib/postgresql | sort -n | tail -n1)
		if ! pg_lsclusters -h | awk '{print $1"/"$2}' | grep -qx "$ver/rank"; then
			echo "services: creating PostgreSQL cluster $ver/rank on port $pgport"
			pg_createcluster "$ver" rank -p "$pgport" -- --auth-host=trust --auth-local=trust >/dev/null
		fi
		echo "services: starting PostgreSQL $ver/rank on 127.0.0.1:$pgport"
		pg_ctlcluster "$ver" rank start
		for _ in $(seq 1 100); do
			pg_ok "$pgport" && break
			sleep 0.1
		done
	fi
fi
pg_ok "$pgport"
if [ "$(psql -h 127.0.0.1 -p "$pgport" -U postgres -d postgres -Atqc "select count(*) from pg_database where datname = 'rank_test'")" = 0 ]; then
	psql -h 127.0.0.1 -p "$pgport" -U postgres -d postgres -qc 'create database rank_test'
fi

pgurl="postgres://postgres@127.0.0.1:$pgport/rank_test"
echo "$pgurl" >/tmp/rank-test-pg.url # testsvc.PGURLFile

# The store server: cmd/ferretpg (FerretDB on that PostgreSQL), built
# from this checkout, as a process of its own.
fpport="${RANK_TEST_FERRETPG_PORT:-27018}"
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
if ! listening "$fpport"; then
	echo "services: starting ferretpg (FerretDB on PostgreSQL :$pgport) on 127.0.0.1:$fpport"
	root="$(cd "$(dirname "$0")/.." && pwd)"
	(cd "$root" && go build -o "$root/.bin/ferretpg" ./cmd/ferretpg)
	log=/tmp/rank-test-ferretpg-"$fpport".log
	setsid nohup "$root/.bin/ferretpg" -listen "127.0.0.1:$fpport" \
		-postgresql-url "$pgurl" >"$log" 2>&1 </dev/null &
	for _ in $(seq 1 300); do
		grep -q "listening on" "$log" && break
		sleep 0.1
	done
	grep -q "listening on" "$log" || { cat "$log"; exit 1; }
fi

# Redis Cluster: three primaries in cluster mode, no replicas, joined once.
read -r -a cports <<<"${RANK_TEST_REDIS_CLUSTER_PORTS:-7001 7002 7003}"
cluster_ok() { redis-cli -p "${cports[0]}" cluster info 2>/dev/null | grep -q '^cluster_state:ok'; }
if ! cluster_ok; then
	echo "services: starting Redis Cluster on 127.0.0.1:${cports[*]}"
	nodes=()
	for p in "${cports[@]}"; do
		redis-cli -p "$p" shutdown nosave >/dev/null 2>&1 || true
		d=/tmp/rank-test-cluster-"$p"
		rm -rf "$d" && mkdir -p "$d"
		redis-server --daemonize yes --bind 127.0.0.1 --port "$p" --save "" \
			--appendonly no --cluster-enabled yes --cluster-config-file "$d/nodes.conf" \
			--dir "$d" --logfile "$d/redis.log"
		nodes+=("127.0.0.1:$p")
	done
	for p in "${cports[@]}"; do
		for _ in $(seq 1 50); do
			redis-cli -p "$p" ping >/dev/null 2>&1 && break
			sleep 0.1
		done
	done
	redis-cli --cluster create "${nodes[@]}" --cluster-replicas 0 --cluster-yes >/dev/null
	for _ in $(seq 1 100); do
		cluster_ok && break
		sleep 0.1
	done
fi
cluster_ok

echo "services: redis-server on 127.0.0.1:$port, Redis Cluster on ${cports[*]}, PostgreSQL on $pgport, ferretpg on $fpport, $(gnugo --version | head -n1)"
