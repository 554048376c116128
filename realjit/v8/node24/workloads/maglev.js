// node-flags: --allow-natives-syntax
// expect-stderr: tier=maglev
// V8's mid-tier compiler (Maglev): a function with objects and calls,
// warmed and compiled by Maglev, run again; its tier on stderr.  stdout
// is the same under --jitless.
function Point(x, y) { this.x = x; this.y = y; }
function walk(n) {
  let p = new Point(1, 2), s = 0;
  for (let i = 0; i < n; i++) {
    p = new Point(p.y, (p.x + p.y + i) % 65521);
    s = (s + p.x * 7 + p.y) % 1000003;
  }
  return s;
}
const jitless = process.execArgv.includes('--jitless');
%PrepareFunctionForOptimization(walk);
let total = walk(100) + walk(100);
if (!jitless) %OptimizeMaglevOnNextCall(walk); // refused without a JIT
total = (total + walk(2000)) % 1000003;
const status = %GetOptimizationStatus(walk); // before TurboFan takes over
for (let round = 0; round < 20; round++) total = (total + walk(2000)) % 1000003;
console.log(total);
console.error('tier=' + (status & 32 ? 'maglev' : status & 64 ? 'turbofan' : 'other'));
