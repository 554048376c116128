// node-flags: --allow-natives-syntax
// expect-stderr: generated=turbofan
// Code generation: 60 functions made from source text at run time (new
// Function), each warmed, and the last one compiled by TurboFan; stdout is
// the same under --jitless.
const jitless = process.execArgv.includes('--jitless');
let total = 0, last;
for (let k = 0; k < 60; k++) {
  const f = new Function('n', `let s = ${k}; for (let i = 0; i < n; i++) s = (s * 33 + i + ${k}) % 1000003; return s;`);
  for (let r = 0; r < 5; r++) total = (total + f(500 + r)) % 1000003;
  last = f;
}
%PrepareFunctionForOptimization(last);
last(10);
if (!jitless) %OptimizeFunctionOnNextCall(last); // refused without a JIT
total = (total + last(100000)) % 1000003;
console.log(total);
console.error('generated=' + (%GetOptimizationStatus(last) & 64 ? 'turbofan' : 'not-optimized'));
