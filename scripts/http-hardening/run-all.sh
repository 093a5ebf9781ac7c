#!/bin/sh
# Runs every scenario of load.mjs in turn against one build: sh scripts/http-hardening/run-all.sh DIST DATA_FILE ISSUE_KEY [server flags...]
# Takes about five minutes; each scenario stops by itself.
dist=$1 data=$2 key=$3
shift 3
here=$(dirname "$0")
node "$here/load.mjs" never-read "$data" "$key" --dist "$dist" --seconds 60 -- "$@"
node "$here/load.mjs" held-bodies "$data" "$key" --dist "$dist" --seconds 30 -- "$@"
node "$here/load.mjs" trickle "$data" "$key" --dist "$dist" --seconds 40 -- "$@"
node "$here/load.mjs" idle "$data" "$key" --dist "$dist" --seconds 60 -- "$@"
node "$here/load.mjs" initialize "$data" "$key" --dist "$dist" -- "$@"
