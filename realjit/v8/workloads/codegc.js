// node-flags: --allow-natives-syntax --expose-gc
// expect-stderr: code-space=shrank
// Make baseline (Sparkplug) code, run some of it, drop it and collect it,
// round after round: enough code to fill several 256 KiB code pages, so
// that the collector frees whole pages and V8 takes them again.  stdout is the
// same under --jitless; stderr says whether a collection shrank the code
// space, how far it grew and how far it shrank.
const v8 = require('v8');
const jitless = process.execArgv.includes('--jitless');
const ROUNDS = 2, PER_ROUND = 40, STATEMENTS = 200;
function codeSpace() {
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === 'code_space').space_size;
}
let total = 0, largest = 0, smallest = Infinity;
for (let round = 0; round < ROUNDS; round++) {
  let made = [];
  for (let k = 0; k < PER_ROUND; k++) {
    let body = `let s = ${k};`;
    for (let j = 0; j < STATEMENTS; j++)
      body += `s = (s * 31 + x + ${round * 7 + j}) % 65521; if (s & 1) s = (s ^ ${k + j}) % 65521;`;
    const f = new Function('x', body + ' return s;');
    total = (total + f(3)) % 1000003;
    if (!jitless) %CompileBaseline(f); // refused without a JIT
    made.push(f);
  }
  // one function's baseline code runs a round, in pages the last round's
  // collection may have freed: running all of them costs a TCG guest
  // seconds of translating code that only had to be made
  total = (total + made[PER_ROUND - 1](5)) % 1000003;
  largest = Math.max(largest, codeSpace());
  made = null;
  gc();
  smallest = Math.min(smallest, codeSpace());
}
console.log(total);
console.error(`code-space=${smallest < largest ? 'shrank' : 'never-shrank'}`);
console.error(`code-space largest=${largest} after-gc=${smallest}`);
