#!/usr/bin/env bash
# Real-terminal smoke test of examples/textarea, a host that owns a plain
# bubbles textarea: at 40x12 and 200x60, '@' opens one popup with the
# host's files and the sessions, Tab inserts "@label" as one unit,
# Backspace removes it whole, typing inside it makes it plain text, Enter
# sends, and the card appears above the message; alt+b in the empty
# textarea (which hangs a bare bubbles textarea) leaves it answering, and
# a space typed after a pick is not doubled; the first message titles
# the session; up recalls a sent message with its mention (sent again, it
# has its card again); ctrl+e edits a past message, sent as the new
# version in a new session.
set -euo pipefail
cd "$(dirname "$0")/.."

label=smoke-textarea
. scripts/lib/tmux.sh
need_tmux

dir=$(mktemp -d)
cleanup() { t kill-server 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT
bin=$dir/textarea
go build -o "$bin" ./examples/textarea
# A folder with a few files for the host's own @-file section.
mkdir -p "$dir/work/src"
touch "$dir/work/README.md" "$dir/work/src/payments.go"
# settled_not TEXT: after a moment for the screen to settle, TEXT is not
# on it.
settled_not() { sleep 1; expect_not "$1"; }
keys() { t send-keys -t "$current" "$@"; }

for size in 40x12 200x60; do
  w=${size%x*} h=${size#*x}
  current="ta$size"
  t new-session -d -s "$current" -x "$w" -y "$h" -c "$dir/work" "TERM=xterm-256color $bin; echo EXIT=\$?; sleep 60"
  expect "Chat 1"

  # alt+b (word backward) in an empty textarea: bubbles' textarea loops
  # forever on it; the adapter must keep the program answering.
  keys M-b "ping"
  expect "ping"
  ok "$size: alt+b in the empty textarea leaves it answering"
  keys BSpace BSpace BSpace BSpace

  keys "@"
  expect "flaky CI"
  ok "$size: '@' opens the popup"
  keys "pay"
  expect "payments.go"
  expect "files"
  ok "$size: the host's files in the same popup as the sessions"
  keys Escape
  keys BSpace BSpace BSpace BSpace
  keys "@flaky"
  expect "flaky CI"
  keys Tab
  expect "@flaky CI"
  settled_not "╭"
  ok "$size: Tab inserts the @label"
  keys BSpace BSpace
  settled_not "@flaky"
  ok "$size: Backspace removes the mention whole"
  keys "@flaky"
  expect "flaky CI"
  keys Tab
  keys Left Left Left Left "Z"
  # An edit inside: the mention is text now, and the popup does not pick it.
  keys Escape End " hello" Enter
  expect "You: @flaky CI"
  if screen | grep -qF "Referenced 1 session"; then fail "an edited mention was still sent as one"; fi
  ok "$size: typing inside a mention makes it plain text"
  screen | head -1 | grep -q "^@flaky C" || fail "the session is not titled by its first message"
  ok "$size: the first message titles the session"
  keys "see @flaky"
  expect "flaky CI"
  keys Tab " " "why?" Enter
  expect "Referenced 1 session"
  if screen | grep -qF "  why?"; then fail "a space typed after a pick was doubled"; fi
  screen | awk '/Referenced 1 session/{c=NR} /You: see @flaky/{y=NR} END{exit !(c && y && c < y)}' ||
    fail "the card is not above the message"
  ok "$size: Enter sends one message and its card is drawn above it"
  # The order of the cards (R) and of the messages that mention (Y) on
  # screen, newest last.
  order() { screen | awk '/Referenced 1 session/{printf "R"} /You: see @flaky/{printf "Y"}'; }
  keys Up
  expect "recalled 2/2"
  screen | grep -qF "┃ see @flaky CI" || fail "up did not recall the message"
  keys Enter
  for _ in $(seq 50); do [[ $(order) == *YRY ]] && break; sleep 0.1; done
  [[ $(order) == *YRY ]] || fail "the recalled message was not sent with its mention ($(order))"
  ok "$size: up recalls a sent message with its mention"
  keys Up Up C-e
  expect "edit 2/3: enter sends, esc stops"
  keys End " and now"
  keys Enter
  expect "went on in a new session"
  expect "and now"
  [[ $(order) == *RY ]] || fail "the new version lost its mention ($(order))"
  ok "$size: ctrl+e edits a past message, sent as its new version"
  keys C-c
  expect "EXIT=0"
  t kill-session -t "$current"
done
echo "smoke-textarea: $passed passed, 0 failed"
