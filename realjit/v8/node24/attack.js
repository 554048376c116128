// node-flags: --allow-natives-syntax --perf-basic-prof-only-functions --logfile=/dev/null
// realjit/v8/node24/attack.js SCENARIO | --list - the attacker inside Node.js 24:
// realjit/v8/attack/attack.js's (one function optimized by TurboFan, its machine
// code found in the perf map V8 writes for Linux perf, ONE corrupted call
// on it from sealjit-attack.node, the function run again), with V8 13.6's
// perf map names ("JS:*NAME": TurboFan code) and the attacks on the key
// (realjit/v8/attack/key-attacks.h) beside those on the mapping
// (realjit/attack/live-code.h).  Prints and exits as realjit/v8/attack/attack.js;
// every verdict line ends with pkey=K, the code's protection key (0: none).
'use strict';
const fs = require('fs');
const path = require('path');
const EXIT_SETUP = 4;
const addon = process.env.SEALJIT_ATTACK_ADDON || path.join(__dirname, 'sealjit-attack.node');
const attack = require(addon);
const scenarios = [...attack.scenarios(), ...attack.keyScenarios()].sort();

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
  %PrepareFunctionForOptimization(victim);
  victim(N); victim(N);
  %OptimizeFunctionOnNextCall(victim);
  victim(N);
  // %GetOptimizationStatus (V8 13.6): 1<<6 TurboFan code
  if (!(%GetOptimizationStatus(victim) & 64)) setupFailed('the victim was not optimized (is the JIT on?)');
  const map = `/tmp/perf-${process.pid}.map`;
  let lines;
  try {
    lines = fs.readFileSync(map, 'utf8').split('\n');
  } catch (e) {
    setupFailed(`no perf map ${map} (run with --perf-basic-prof-only-functions)`);
  }
  fs.rmSync(map, { force: true });
  // "START SIZE JS:*victim FILE:LINE:COL", hexadecimal; * = TurboFan (a
  // ' after it on some: V8 logs the code it installs last, the newest)
  const found = lines.filter((l) => / JS:\*'?victim /.test(l)).pop();
  if (!found) setupFailed('the perf map names no TurboFan victim');
  const [start, size] = found.split(' ');
  return { address: parseInt(start, 16), size: parseInt(size, 16) };
}

// The protection key of the mapping that holds address (smaps'
// ProtectionKey; 0: none), before the attack changes anything.
function codeKey(address) {
  let inside = false;
  for (const l of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const range = /^([0-9a-f]+)-([0-9a-f]+) /.exec(l);
    if (range) inside = parseInt(range[1], 16) <= address && address < parseInt(range[2], 16);
    else if (inside && l.startsWith('ProtectionKey:')) return parseInt(l.split(/\s+/)[1], 10);
  }
  return 0;
}

if (process.argv[2] === '--list') {
  process.stdout.write(scenarios.join('\n') + '\n');
  process.exit(0);
}
const name = process.argv[2];
if (!scenarios.includes(name)) {
  process.stderr.write(`usage: attack.js SCENARIO (${scenarios.join(' ')}) | --list\n`);
  process.exit(2);
}
const code = optimizedCode();
const key = codeKey(code.address);
// the addon writes the verdict itself before it returns: some attacks take
// away the code this script runs in (mprotect-rw, mremap-move in the control)
attack.run(name, code.address, code.size, attack.keyScenarios().includes(name) ? '' : ` pkey=${key}`);
const value = victim(N);
process.stdout.write('rerun value=' + (value === EXPECTED ? 'ok' : 'wrong:' + value) + '\n');
process.exit(0);
