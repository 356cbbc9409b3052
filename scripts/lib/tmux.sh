# Helpers for the real-terminal smoke tests, sourced by scripts/smoke-*.sh.
# The sourcing script sets label (its name in the output) and, before
# using them, installs tmux if it is missing (need_tmux). Each test runs
# on its own tmux server, removed at exit.

need_tmux() {
  if ! command -v tmux >/dev/null 2>&1; then
    echo "installing tmux"
    (apt-get update -qq && apt-get install -y -qq tmux) >/dev/null
  fi
}

sock="mentions-$label-$$"
t() { tmux -L "$sock" "$@"; }
passed=0
current=""

ok() { passed=$((passed + 1)); echo "$label: ok: $1"; }

fail() {
  echo "$label: FAIL: $1"
  echo "----- screen ($current) -----"
  t capture-pane -p -t "$current" || true
  echo "$label: $passed passed, 1 failed"
  exit 1
}

screen() { t capture-pane -p -t "$current"; }

# expect TEXT: wait up to 10 s for TEXT to be on the screen.
expect() {
  for _ in $(seq 100); do
    if screen | grep -qF -- "$1"; then return 0; fi
    sleep 0.1
  done
  fail "never saw: $1"
}

# expect_not TEXT: TEXT is not on the screen now.
expect_not() {
  if screen | grep -qF -- "$1"; then fail "saw what should not be there: $1"; fi
}
