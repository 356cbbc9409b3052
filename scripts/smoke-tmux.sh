#!/usr/bin/env bash
# Real-terminal smoke test: build the demo, run it in tmux at 100x30, type
# and click as a person would, and check what the screen shows.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v tmux >/dev/null 2>&1; then
  echo "installing tmux"
  (apt-get update -qq && apt-get install -y -qq tmux) >/dev/null
fi

bin=$(mktemp -d)/mentions-demo
go build -o "$bin" ./cmd/mentions-demo
sock="mentions-smoke-$$"
t() { tmux -L "$sock" "$@"; }
cleanup() { t kill-server 2>/dev/null || true; }
trap cleanup EXIT

fail() {
  echo "smoke: FAIL: $1"
  echo "----- screen -----"
  t capture-pane -p -t smoke || true
  exit 1
}

# expect TEXT: wait up to 5 s for TEXT to be on the screen.
expect() {
  for _ in $(seq 50); do
    if t capture-pane -p -t smoke | grep -qF -- "$1"; then return 0; fi
    sleep 0.1
  done
  fail "never saw: $1"
}

t new-session -d -s smoke -x 100 -y 30 "TERM=xterm-256color $bin --seed 7 --count 200"
expect "mentions demo"
expect "No messages yet"

# @ opens the picker; typing filters it; rows carry the rank badge.
t send-keys -t smoke -l "compare @"
expect "this dir"
t send-keys -t smoke -l "pars"
expect "› "
expect "the session parser"

# Tab picks the highlighted row: the draft shows a token and a space.
t send-keys -t smoke Tab
expect "@ 1/3 sessions"

# A second mention, picked with the mouse: a click on the first row.
t send-keys -t smoke -l " and @"
expect "5d ago"
row=$(t capture-pane -p -t smoke | grep -n "│› " | head -1 | cut -d: -f1)
[ -n "$row" ] || fail "no highlighted row to click"
t send-keys -t smoke -l $'\e[<0;12;'"$row"'M'$'\e[<0;12;'"$row"'m'
expect "@ 2/3 sessions"

# Enter sends: the card and the stand-in reply appear above the composer.
t send-keys -t smoke Enter
expect "▸ Referenced 2 sessions:"
expect "kept"
expect "demo stand-in"

# ctrl+o expands the card; ctrl+t shows what the model gets.
t send-keys -t smoke C-o
expect "▾ Referenced 2 sessions:"
expect "messages kept"
t send-keys -t smoke C-t
expect "message 1 of 2 · role user · source session-reference"
expect "untrusted, read-only snapshot"
t send-keys -t smoke Escape
expect "ctrl+t what the model gets"

# It survives a small window.
t resize-window -t smoke -x 40 -y 12
sleep 0.3
expect "mentions demo"
t send-keys -t smoke C-c
sleep 0.3
echo "smoke: 1 passed, 0 failed"
