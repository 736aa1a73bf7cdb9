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
bash "$tests/run.sh" >"$log" 2>&1
status=$?
out=$(sed -n 's/^logs: //p' "$log" | tail -1)
if [ -z "$out" ] || [ ! -f "$out/results.json" ]; then
  echo "aosp adb tests: the run did not finish (exit $status):"
  tail -20 "$log"
  exit 1
fi
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
