// node-flags: --allow-natives-syntax --perf-basic-prof-only-functions
// realjit/v8/attack/attack.js SCENARIO | --list - the attacker inside Debian's
// Node.js: one function optimized by TurboFan, its machine code found in
// the perf map V8 writes for Linux perf (/tmp/perf-PID.map, the
// --perf-basic-prof-only-functions flag), ONE corrupted mm call on the
// mapping that holds it (sealjit-attack.node: realjit/attack/live-code.c),
// then the function run again.
//
// Prints (stdout):
//   attack scenario=S call=ok|ERRNO outcome=LANDED|BLOCKED|ERROR errno=E changed=WHAT area=.. code=..
//   rerun value=ok|wrong:N
// A process that exits 65 ran the attacker's payload; one killed by a
// signal ran what the attack left there.  Exits 0 after the rerun,
// through process.exit(): V8's teardown (which frees its code range) is
// the workloads' to show, not the attack's.  2 on misuse, 4 when the
// attacker's own setup failed (the case proves nothing).
'use strict';
const fs = require('fs');
const path = require('path');
const EXIT_SETUP = 4;
const addon = process.env.SEALJIT_ATTACK_ADDON || path.join(__dirname, 'sealjit-attack.node');
const attack = require(addon);

function setupFailed(what) {
  process.stdout.write(`attack setup-failed: ${what}\n`);
  process.exit(EXIT_SETUP);
}

// The victim: one loop; its answer is known in closed form.
function victim(n) {
  let s = 0;
  for (let i = 1; i <= n; i++) s += i * 3;
  return s;
}
const N = 1000;
const EXPECTED = 3 * N * (N + 1) / 2;

// TurboFan code for the victim, and where the perf map says it is.
function optimizedCode() {
  victim(N); victim(N);
  %OptimizeFunctionOnNextCall(victim);
  victim(N);
  if (!(%GetOptimizationStatus(victim) & 64)) setupFailed('the victim was not optimized (is the JIT on?)');
  const map = `/tmp/perf-${process.pid}.map`;
  let lines;
  try {
    lines = fs.readFileSync(map, 'utf8').split('\n');
  } catch (e) {
    setupFailed(`no perf map ${map} (run with --perf-basic-prof-only-functions)`);
  }
  fs.rmSync(map, { force: true });
  // "START SIZE LazyCompile:*victim FILE:LINE", hexadecimal; * = optimized
  const found = lines.filter((l) => / LazyCompile:\*victim /.test(l)).pop();
  if (!found) setupFailed(`the perf map names no optimized victim`);
  const [start, size] = found.split(' ');
  return { address: parseInt(start, 16), size: parseInt(size, 16) };
}

if (process.argv[2] === '--list') {
  process.stdout.write(attack.scenarios().join('\n') + '\n');
  process.exit(0);
}
const name = process.argv[2];
if (!attack.scenarios().includes(name)) {
  process.stderr.write(`usage: attack.js SCENARIO (${attack.scenarios().join(' ')}) | --list\n`);
  process.exit(2);
}
const code = optimizedCode();
process.stdout.write(attack.run(name, code.address, code.size) + '\n');
const value = victim(N);
process.stdout.write('rerun value=' + (value === EXPECTED ? 'ok' : 'wrong:' + value) + '\n');
process.exit(0);
