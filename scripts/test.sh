#!/usr/bin/env bash
# Usage: npm test   (or: bash scripts/test.sh)
# Runs every test of the site: type-check, lint and format, unit tests, code-sample check, production build,
# and the browser tests (Playwright with Debian's Chromium against the served build).
# Installs what it needs from Debian when missing and it runs as root (chromium; adb; bubblewrap,
# a C compiler, make and xz for the simulated device's sandbox); otherwise says what to install. Prints, as its last line, "total: N passed, F failed; samples run: N passed, F failed, K not run".
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0
failed=0
# Each stage's wall time and CPU time (its processes and their children), printed by `time`: on
# the 2-core CI machine the CPU seconds of all stages together set how long npm test takes.
TIMEFORMAT='(%R s wall, %U s user + %S s system CPU)'
stage() { printf '\n=== %s (at %d s) ===\n' "$1" "$SECONDS"; }
count() { passed=$((passed + $1)); failed=$((failed + $2)); }
# count_stage PASSED FAILED STATUS: adds a stage's counts; a stage that exited non-zero without
# counting a failure (a spec file that does not load, a crash before the summary) counts one.
count_stage() {
  local stage_failed=$2
  if [ "$3" -ne 0 ] && [ "$stage_failed" -eq 0 ]; then
    echo "(this stage exited with status $3 without counting a failure: counted as 1 failed)"
    stage_failed=1
  fi
  count "$1" "$stage_failed"
}
finish() {
  printf '\nnpm test took %d s\n' "$SECONDS"
  printf '\ntotal: %d passed, %d failed; %s\n' "$passed" "$failed" "${samples_run:-samples run: not reached}"
  [ "$failed" -eq 0 ] && [ "${1:-0}" -eq 0 ]
  exit $?
}

# Prints the first Chromium or Chrome binary found ($CHROMIUM_PATH first); fails when none is.
find_chromium() {
  local candidate
  for candidate in "${CHROMIUM_PATH:-}" /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome-stable /usr/bin/google-chrome; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then echo "$candidate"; return 0; fi
  done
  return 1
}

stage "browser, adb and the device's sandbox"
# Debian's chromium runs the browser tests; Debian's adb (Google's ADB server) reaches the
# simulated device in device/test/adb-server.test.ts and Google's device tests; bubblewrap, gcc,
# make, xz and acl build and run the device's sandbox (device/README.md). They are installed when
# missing and this runs as root; otherwise the command to run is printed.
missing=()
chromium=$(find_chromium) || missing+=(chromium)
command -v adb >/dev/null || missing+=(adb)
command -v bwrap >/dev/null || missing+=(bubblewrap)
command -v cc >/dev/null || missing+=(gcc)
command -v make >/dev/null || missing+=(make)
command -v xz >/dev/null || missing+=(xz-utils)
command -v script >/dev/null || missing+=(bsdutils)
command -v setfacl >/dev/null || missing+=(acl)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's ${missing[*]}."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null \
      || { echo "apt-get install ${missing[*]} failed"; count 0 1; finish 1; }
    chromium=$(find_chromium) || { echo "chromium installed but not found"; count 0 1; finish 1; }
    for program in adb bwrap cc make xz script setfacl; do
      command -v "$program" >/dev/null || { echo "$program installed but not found"; count 0 1; finish 1; }
    done
  else
    echo "Missing: ${missing[*]}. Install with: sudo apt-get install -y ${missing[*]}"
    echo "(CHROMIUM_PATH may point at another Chromium or Chrome binary), then run npm test again."
    count 0 1; finish 1
  fi
fi
echo "Chromium: $chromium ($("$chromium" --version 2>/dev/null))"

# The unit tests (tests/unit/one-process.ts beside tests/unit/own-process/), the code-sample
# check and the production builds start at once, in the background, beside the type-check, lint
# and format check: every stage before the browser tests is CPU-bound on the 2-core CI machine, so
# the order among them hardly matters (starting the builds 60 s earlier left the browser tests'
# start where it was), but each background stage's `time` now counts its own CPU alone: a `time`
# in this shell also counted the background jobs it reaped meanwhile (the builds once read 300
# CPU-s; alone they take ~100).
# Each background stage's output is printed when it ends, below.
stage "unit tests, code samples and production builds, in the background"
unit_log=$(mktemp)
( time npm run --silent test:unit ) >"$unit_log" 2>&1 &
unit_pid=$!

# The code-sample check type-checks every sample of every version, then runs the samples against
# the simulated device (Google's ADB server on port 5037 for those that use it) and compares what
# they print with their recordings.
samples_log=$(mktemp)
( time CHROMIUM_PATH="$chromium" npm run --silent check:samples -- --run ) >"$samples_log" 2>&1 &
samples_pid=$!

# Google's adb device tests (test_device.py) against the simulated device: every test passes but
# those device/test/aosp-adb-tests.expected lists, with why.
aosp_log=$(mktemp)
( time bash scripts/aosp-adb-tests.sh ) >"$aosp_log" 2>&1 &
aosp_pid=$!

# build/: the site as served, plus the test-only route; build-analytics/: the home pages of the
# latest version's four sidebars only, with a placeholder analytics ID, for the analytics tests
# (which visit nothing else and need no Markdown twins): 12 CPU-s against 58 for the whole version.
builds_log=$(mktemp)
ANALYTICS_DOCS=tango/index.mdx,api/index.mdx,scrcpy/index.mdx,internal/index.mdx
(
  start=$SECONDS
  time TANGO_TEST_ROUTES=1 GTAG_TRACKING_ID= npm run --silent build \
    && time GTAG_TRACKING_ID=G-TANGOTEST TANGO_LATEST_ONLY=1 TANGO_ONLY_DOCS=$ANALYTICS_DOCS TANGO_LLMS_TXT=off \
      npm run --silent build -- --out-dir build-analytics \
    && echo "builds: $((SECONDS - start)) s"
) >"$builds_log" 2>&1 &
builds_pid=$!

stage "type-check"
if time npm run --silent typecheck; then count 1 0; else count 0 1; fi

stage "lint and format"
if time npm run --silent lint; then count 1 0; else count 0 1; fi
if time npm run --silent format:check; then count 1 0; else count 0 1; fi

stage "production builds"
if wait "$builds_pid"; then builds_ok=1; else builds_ok=0; fi
cat "$builds_log"

stage "unit tests"
wait "$unit_pid"
unit_status=$?
cat "$unit_log"
unit_pass=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$unit_log" | tail -1)
unit_fail=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$unit_log" | tail -1)
count_stage "${unit_pass:-0}" "${unit_fail:-1}" "$unit_status"

stage "Google's adb device tests"
if wait "$aosp_pid"; then count 1 0; else count 0 1; fi
cat "$aosp_log"

stage "code samples"
wait "$samples_pid"
samples_status=$?
cat "$samples_log"
# The type-check counts as one test; each sample run counts as one.
typecheck_failed=$(sed -n 's/^samples: .* \([0-9]*\) failed$/\1/p' "$samples_log" | tail -1)
samples_run=$(grep -a '^samples run: ' "$samples_log" | tail -1)
read -r run_passed run_failed < <(sed -n 's/^samples run: \([0-9]*\) passed, \([0-9]*\) failed, .*/\1 \2/p' <<<"$samples_run")
if [ "${typecheck_failed:-1}" = 0 ]; then count 1 0; else count 0 1; fi
count_stage "${run_passed:-0}" "${run_failed:-1}" "$samples_status"
if [ "$builds_ok" = 1 ]; then count 1 0; else count 0 1; finish 1; fi

stage "browser tests"
# A report left by an earlier run must not be read as this run's.
rm -f test-results/e2e.json
# In a subshell: `time` counts the CPU of the children its shell reaps while it runs.
( time CHROMIUM_PATH="$chromium" npx playwright test )
e2e_status=$?
if [ -f test-results/e2e.json ]; then
  # Time per spec file (the sum of its tests' durations), slowest first.
  node -e '
    const seconds = {};
    const walk = (suite, file) => {
      for (const spec of suite.specs ?? []) for (const t of spec.tests) for (const r of t.results)
        seconds[spec.file ?? file] = (seconds[spec.file ?? file] ?? 0) + r.duration / 1000;
      for (const child of suite.suites ?? []) walk(child, suite.file ?? file);
    };
    for (const suite of require("./test-results/e2e.json").suites) walk(suite, suite.file);
    for (const [file, s] of Object.entries(seconds).sort((a, b) => b[1] - a[1])) console.log(`${s.toFixed(0).padStart(5)} s  ${file}`);'
  read -r e2e_pass e2e_fail < <(node -e '
    const s = require("./test-results/e2e.json").stats;
    console.log(s.expected + s.flaky, s.unexpected);')
  count_stage "$e2e_pass" "$e2e_fail" "$e2e_status"
elif [ "$e2e_status" -ne 0 ]; then
  count 0 1
fi
finish "$e2e_status"
