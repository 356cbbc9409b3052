#!/usr/bin/env bash
# Real-terminal smoke test: build the demo, run it in tmux at sizes from
# 40x12 to 200x60, type and click as a person would, and check what the
# screen shows; then check that bad flags are refused before any screen.
set -euo pipefail
cd "$(dirname "$0")/.."

label=smoke
. scripts/lib/tmux.sh
need_tmux

bindir=$(mktemp -d)
cleanup() { t kill-server 2>/dev/null || true; rm -rf "$bindir"; }
trap cleanup EXIT
bin=$bindir/mentions-demo
go build -o "$bin" ./cmd/mentions-demo

# start NAME W H ARGS...: run the demo in a new tmux session. The shell
# around it prints the exit code when the demo ends and stays, so a test
# can see how it ended.
start() {
  local name=$1 w=$2 h=$3
  shift 3
  current=$name
  t new-session -d -s "$name" -x "$w" -y "$h" "TERM=xterm-256color $bin $*; echo \"EXIT=\$?\"; sleep 60"
}

# fits W H: the screen has no more than H lines (tmux cuts at W columns).
fits() {
  local lines
  lines=$(screen | wc -l)
  [ "$lines" -le "$2" ] || fail "$lines lines on a $1x$2 screen"
}

# keys KEY...: press keys. After Escape it waits a moment, as a person
# does: an ESC followed at once by a sequence reads as alt+that key.
keys() {
  t send-keys -t "$current" "$@"
  if [ "${!#}" = Escape ]; then sleep 0.3; fi
}
typed() { t send-keys -t "$current" -l "$1"; }

# ---- 100x30: the whole flow, by keyboard and mouse -----------------------
start flow 100 30 --seed 7 --count 200
expect "Mentions demo ·"
expect "No messages yet"
typed "compare @"
expect "this dir"
typed "pars"
expect "› "
expect "the session parser"
keys Tab
expect "@ 1/3 sessions"
# A second mention, picked with the mouse: a click on the first row.
typed " and @"
expect "5d ago"
row=$(screen | grep -n "│› " | head -1 | cut -d: -f1)
[ -n "$row" ] || fail "no highlighted row to click"
typed $'\e[<0;12;'"$row"'M'$'\e[<0;12;'"$row"'m'
expect "@ 2/3 sessions"
[ "$(t display -p -t flow '#{mouse_any_flag}')" = 1 ] || fail "no mouse reporting on the alternate screen"
keys Enter
expect "▸ Referenced 2 sessions:"
expect "kept"
expect "demo stand-in"
# ctrl+o expands the card; ctrl+t shows what the model gets.
keys C-o
expect "▾ Referenced 2 sessions:"
keys C-t
expect "Inspector · the last message with references"
expect "message 1 of 2 · role user · source session-reference"
expect "untrusted, read-only snapshot"
expect "esc back"
keys Escape
expect "ctrl+t what the model gets"
# An empty draft: ctrl+c quits at once.
keys C-c
expect "EXIT=0"
ok "100x30 flow: pick by key and click, send, card, inspector"

# ---- 40x12: the smallest screen ------------------------------------------
start small 40 12 --seed 7 --count 200
expect " Mentions de"
expect "f1 more keys • ctrl+c quit"
fits 40 12
typed "@pars"
expect "╭"
expect "ctrl+c quit"
fits 40 12
keys Escape
keys F1
expect "Keys · esc back"
expect "lines 1–"
fits 40 12
keys PageDown
keys PageDown
keys PageDown
keys PageDown
expect "ctrl+c quit"
keys Escape
expect "f1 more keys"
expect_not "Keys · esc back"
ok "40x12: hints keep f1 and ctrl+c, the picker fits, F1 scrolls and esc closes it"

# ---- 200x60: the largest -------------------------------------------------
start large 200 60 --seed 7 --count 200
expect "Mentions demo ·"
keys F1
expect "what the model gets"
expect "In the picker (after @)"
expect "all "
keys Escape
typed "@"
expect "this dir"
fits 200 60
ok "200x60: F1 shows every key at once, the picker opens"

# ---- the preview: beside the rows from 100 columns, alt+p/F2 below -------
start preview 120 30 --seed 7 --count 200
expect "No messages yet"
typed "see @pars"
expect "this dir"
expect " kept"
expect "▸ user"
expect_not "alt+p"
keys Down
expect " kept"
keys Escape
keys C-c
keys C-c
expect "EXIT=0"
start preview-narrow 80 24 --seed 7 --count 200
expect "No messages yet"
typed "see @pars"
expect "alt+p/f2 preview"
expect_not " kept"
keys M-p
expect "alt+p/f2 rows"
expect " kept"
expect "▸ "
keys F2
expect "this dir"
expect_not "alt+p/f2 rows"
keys C-c
keys C-c
expect "EXIT=0"
start no-preview 120 30 --seed 7 --count 200 --no-preview
expect "No messages yet"
typed "see @pars"
expect "this dir"
expect_not " kept"
ok "preview: beside the rows at 120 columns, alt+p and F2 at 80, --no-preview"

# ---- an expanded card says what is below it, and paging shows it ---------
start scroll 80 24 --seed 7 --count 200
expect "No messages yet"
typed "compare @pars"
expect "this dir"
keys Tab
typed "with the fix"
keys Enter
expect "Referenced 1 session"
keys C-o
expect "more lines · pgdn"
# The sign has a row of its own: nothing but blanks before it.
screen | grep 'more lines · pgdn' | grep -qE '^ +[↑↓] [0-9]' || fail "the sign below shares its row with text"
expect "pgup/pgdn scroll"
for _ in 1 2 3 4 5; do keys PageDown; done
expect "more lines · pgup"
expect_not "more lines · pgdn"
screen | grep 'more lines · pgup' | grep -qE '^ +[↑↓] [0-9]' || fail "the sign above shares its row with text"
expect "demo stand-in"
fits 80 24
# Scrolled up, a send brings the message and its reply into view.
for _ in 1 2 3; do keys PageUp; done
expect "more lines · pgdn"
typed "zzq latest words"
keys Enter
expect "zzq latest words"
expect "Message received"
expect_not "more lines · pgdn"
# An empty @ over more sessions than the picker lists says so.
typed "@"
expect "first 50 · type to filter"
keys Escape
ok "80x24: an expanded card says how many lines are below and pgdn shows them; a send after scrolling up shows the reply; an empty @ says typing filters"

# ---- Enter with nothing pickable does not send ---------------------------
start unpickable 80 24 --seed 7 --count 200
expect "No messages yet"
typed "hi @zzzq"
expect "no sessions match"
keys Enter
keys Tab
sleep 0.5
expect "hi @zzzq"
expect "No messages yet"
expect_not "demo stand-in"
ok "Enter and Tab with an unpickable picker send nothing"

# ---- ctrl+c with a draft asks --------------------------------------------
start draft 80 24 --seed 7 --count 200
expect "No messages yet"
typed "half a thought"
keys C-c
expect "press ctrl+c again to quit"
expect_not "EXIT="
keys -l "!"
expect "half a thought!"
expect_not "press ctrl+c again"
keys C-c
expect "press ctrl+c again to quit"
keys C-c
expect "EXIT=0"
ok "ctrl+c with a draft asks; a second ctrl+c quits"

# ---- --plain draws no colour ---------------------------------------------
# capture-pane -e shows the attributes tmux holds for each cell; 39 and 49
# are its resets to the default colour, every other 3x/4x/9x/10x is one.
colours() { t capture-pane -p -e -t "$current" | grep -oE $'\e\\[[0-9;:]*m' | grep -E '[[;:](3[0-8]|4[0-8]|9[0-7]|10[0-7])[;:m]' || true; }
start plain 80 24 --plain --seed 7 --count 200
expect "No messages yet"
typed "compare @pars"
expect "this dir"
[ -z "$(colours)" ] || fail "--plain picker has colour: $(colours | head -3 | cat -v)"
keys Tab
keys Enter
expect "Referenced 1 session"
[ -z "$(colours)" ] || fail "--plain transcript has colour: $(colours | head -3 | cat -v)"
keys F1
expect "Keys · esc back"
[ -z "$(colours)" ] || fail "--plain F1 has colour: $(colours | head -3 | cat -v)"
keys Escape
keys C-t
expect "Inspector"
[ -z "$(colours)" ] || fail "--plain inspector has colour: $(colours | head -3 | cat -v)"
# The same screen in colour does have some: the check can fail.
start colour 80 24 --seed 7 --count 200
expect "No messages yet"
typed "compare @pars"
expect "this dir"
[ -n "$(colours)" ] || fail "the coloured demo shows no colour: the --plain check proves nothing"
ok "--plain draws no colour on any screen"

# ---- --sessions on a flat folder of logs says why none load ---------------
# The corpus (a flat folder of 80 logs) where MENTIONS_DSHLOG_CORPUS says:
# .ci/run sets it; nothing outside the repository is read otherwise.
# Named relative to here when it can be, so the notice's lines stay short.
corpus=${MENTIONS_DSHLOG_CORPUS:-}
if [ -n "$corpus" ]; then corpus=$(realpath --relative-to=. "$corpus" 2>/dev/null || echo "$corpus"); fi
if [ -n "$corpus" ] && [ -d "$corpus" ]; then
  start flatlogs 80 24 --seed 7 --count 200 --sessions "$corpus"
  expect "200 generated + 0 DeepSeek Harness sessions"
  expect "80 logs directly in"
  expect "A sessions root keeps each log at <root>/<project>/"
  fits 80 24
  # The first key hides it (and is typed); F1 keeps it.
  typed "x"
  expect "› x"
  expect_not "80 logs directly in"
  keys F1
  expect "80 logs directly in"
  keys Escape
  expect_not "80 logs directly in"
  # At 40x12: no line of punctuation alone, such as the ")" after the path.
  start flatlogs40 40 12 --seed 7 --count 200 --sessions "$corpus"
  expect "f1 shows this"
  if screen | grep -qE '^[[:punct:]]+ *$'; then fail "a line of punctuation alone"; fi
  fits 40 12
  ok "--sessions on a flat folder: the header keeps the counts, a notice says the layout until the first key, F1 keeps it"
fi

# ---- --inline keeps to its height and its last line ----------------------
current=inline
t new-session -d -s inline -x 80 -y 30 "bash --norc --noprofile"
keys "clear; for i in 1 2 3 4 5; do echo shell-before-\$i; done; TERM=xterm-256color $bin --inline --seed 7 --count 50; echo shell-after" Enter
expect "Mentions demo ·"
expect "ctrl+c quit"
lines=$(screen | grep -c . || true)
[ "$lines" -le 22 ] || fail "--inline fills $lines lines of 30"
expect "shell-before-5"
# Inline is keyboard only: no mouse reporting, and a click on a picker
# row (whose terminal row is not the demo's row) picks nothing.
[ "$(t display -p -t inline '#{mouse_any_flag}')" = 0 ] || fail "--inline turned mouse reporting on"
typed "@"
expect "@ 0/3 sessions · tab mention"
row=$(screen | grep -n "│› " | head -1 | cut -d: -f1)
[ -n "$row" ] || fail "no highlighted row to click"
typed $'\e[<0;12;'"$row"'M'$'\e[<0;12;'"$row"'m'
sleep 0.5
expect "@ 0/3 sessions · tab mention"
keys Escape
keys BSpace
keys C-c
expect "shell-after"
expect "ctrl+c quit"
ok "--inline draws below the prompt in a few lines and keeps its last line on exit"

# ---- full-text discovery: a word said only in messages -------------------
# "regression" is in the generated answers, never in a title, id or folder.
start discover 100 30 --seed 7 --count 300
expect "No messages yet"
for _ in $(seq 100); do
  if ! screen | grep -qF "indexing"; then break; fi
  sleep 0.1
done
expect_not "indexing"
typed "compare @regression"
expect "in messages"
# A snippet line under a hit: the word (accents fold: "régression" too).
for _ in $(seq 100); do
  if screen | grep -qE '│    .*r.gression'; then break; fi
  sleep 0.1
done
screen | grep -qE '│    .*r.gression' || fail "no snippet with the word"
keys Tab
expect "@ 1/3 sessions"
keys Enter
expect "Referenced 1 session"
keys C-c
expect "EXIT=0"
start noindex 100 30 --seed 7 --count 300 --no-index
expect "No messages yet"
typed "compare @regression"
expect "no sessions match"
expect_not "in messages"
ok "full-text discovery: a word said only in messages finds its session, Tab mentions it; --no-index turns it off"

# ---- bad flags: one line naming the flag, the usage hint, exit 1 ---------
check_flag() {
  local want=$1
  shift
  local out code=0
  out=$("$bin" "$@" 2>&1 </dev/null) || code=$?
  [ "$code" -eq 1 ] || { echo "smoke: FAIL: $* exited $code"; echo "$out"; exit 1; }
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 2 ] || { echo "smoke: FAIL: $*: $out"; exit 1; }
  printf '%s\n' "$out" | head -1 | grep -qF -- "$want" || { echo "smoke: FAIL: $* does not name $want: $out"; exit 1; }
  printf '%s\n' "$out" | tail -1 | grep -qF -- "--help" || { echo "smoke: FAIL: $*: no usage hint: $out"; exit 1; }
  if printf '%s\n' "$out" | grep -q maxReferenceBytes; then echo "smoke: FAIL: $*: internal name: $out"; exit 1; fi
}
check_flag --count --count -5
check_flag --budget --budget -1
check_flag --budget --budget 9007199254740993
check_flag --latency --latency -1s
check_flag '"extra"' extra
check_flag "--sessions: /nonexist does not exist" --sessions /nonexist
check_flag "is not a directory" --sessions /etc/passwd
check_flag --no-index --no-index=maybe
ok "bad flags: one line naming the flag, the usage hint, exit 1"

echo "smoke: $passed passed, 0 failed"
