#!/usr/bin/env bash
# Usage: bash scripts/aosp-adb-tests.sh   (from the project root; npm test runs it)
# Runs Google's adb device tests (test_device.py of android-14.0.0_r50, in
# ../shared/tools/aosp-adb-tests, with Debian's adb and AOSP's Python adb module) against the
# simulated device, and compares each result with device/test/aosp-adb-tests.expected: every test
# must pass but those listed there, and those must still not pass. Prints one line per test that
# didn't pass, then "aosp adb tests: N of T passed, U unexpected"; exits 1 on any unexpected result.
set -uo pipefail
cd "$(dirname "$0")/.."
tests=../shared/tools/aosp-adb-tests
[ -f "$tests/run.sh" ] || { echo "aosp adb tests: $tests is missing (../shared beside the project)"; exit 1; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# A clean clone's first device builds mksh and toybox (30 s and more beside npm test's other
# stages), longer than run.sh waits for the device to listen: build them first (at once when
# cached; another process's build is waited for).
node --import tsx --input-type=module -e '
  (await import("./device/src/sandbox/programs.ts")).shellPrograms();
  (await import("./device/src/sandbox/native.ts")).nativePrograms();' >"$log" 2>&1 \
  || { echo "aosp adb tests: the device's programs did not build:"; tail -20 "$log"; exit 1; }
# run_tests [TEST-PREFIX...]: runs the tests into $out (their results.json and logs), or exits 1.
run_tests() {
  bash "$tests/run.sh" "$@" >"$log" 2>&1
  local status=$?
  out=$(sed -n 's/^logs: //p' "$log" | tail -1)
  if [ -z "$out" ] || [ ! -f "$out/results.json" ]; then
    echo "aosp adb tests: the run did not finish (exit $status):"
    tail -20 "$log"
    exit 1
  fi
}
run_tests
# SocketTest.test_socket_flush sleeps 1 s, then must read 1 MiB from the host adb server within
# the 1 s the server drains a closing socket before it closes it (deferred_close in sockets.cpp),
# 512 bytes per recv while a second Python thread keeps writing to the socket: a real phone leaves
# the same unread bytes when it closes (the server acknowledges only what the reader took). On the
# loaded 2-core CI machine the reader missed that in about one run of six, losing the last bytes to
# the reset, and once (2026-12-08) also on its first rerun, by 14 bytes. When it is the only
# unexpected result it runs again, alone, up to three times, and the first pass decides.
TIMING_BOUND=SocketTest.test_socket_flush
compare() {
node -e '
  const fs = require("fs");
  const results = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  const expected = new Map();
  for (const line of fs.readFileSync("device/test/aosp-adb-tests.expected", "utf8").split("\n")) {
    if (!line.trim() || line.startsWith("#")) continue;
    const [name, result, ...reason] = line.trim().split(/\s+/);
    expected.set(name, {result, reason: reason.join(" ")});
  }
  let passed = 0, unexpected = 0;
  for (const [name, value] of Object.entries(results)) {
    const result = value.split(" ")[0];
    const want = expected.get(name);
    if (result === "ok" && !want) { passed++; continue; }
    if (want && want.result === result) { console.log(`  ${name}: ${value} (expected: ${want.reason})`); continue; }
    unexpected++;
    console.log(`  UNEXPECTED ${name}: ${value}${want ? ` (expected ${want.result}: ${want.reason})` : ""}; log: ${process.argv[2]}/${name}.log`);
  }
  for (const name of expected.keys()) if (!(name in results)) { unexpected++; console.log(`  UNEXPECTED ${name}: not run`); }
  console.log(`aosp adb tests: ${passed} of ${Object.keys(results).length} passed, ${unexpected} unexpected`);
  process.exit(unexpected ? 1 : 0);
' "$out/results.json" "$out"
}
compare > "$log.report"
status=$?
cat "$log.report"
if [ "$status" -ne 0 ] && [ "$(grep -c UNEXPECTED "$log.report")" = 1 ] && grep -q "UNEXPECTED $TIMING_BOUND:" "$log.report"; then
  first=$out
  for attempt in 1 2 3; do
    echo "aosp adb tests: $TIMING_BOUND again, alone, attempt $attempt of 3 (timing-bound, see scripts/aosp-adb-tests.sh):"
    run_tests "$TIMING_BOUND"
    result=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[process.argv[2]])' "$out/results.json" "$TIMING_BOUND")
    echo "  $TIMING_BOUND: $result; log: $out/$TIMING_BOUND.log (first run's: $first)"
    if [ "${result%% *}" = ok ]; then status=0; break; fi
  done
fi
rm -f "$log.report"
exit "$status"
