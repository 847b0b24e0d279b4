#!/usr/bin/env bash
# Installs (on Debian, as root) and starts what the tests need: a real
# redis-server of the tests' own, on its own port with 256 logical databases
# so that test packages never share keys, and GNU Go for the rules
# cross-check. Safe to run again: it only starts what is not running.
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
echo "services: redis-server on 127.0.0.1:$port, $(gnugo --version | head -n1)"
