// node-flags: --allow-natives-syntax
// expect-stderr: tier=turbofan
// A compute loop hot enough for V8's optimizing compiler (TurboFan: on
// stack replacement, then the function, asked for), and the tier it reached, on
// stderr: stdout is the same under --jitless, where nothing is compiled.
function mix(n) {
  let s = 0;
  for (let i = 0; i < n; i++) s = (s + i * 3) % 1000003;
  return s;
}
const jitless = process.execArgv.includes('--jitless');
let total = 0;
for (let round = 0; round < 20; round++) total = (total + mix(20000)) % 1000003;
%PrepareFunctionForOptimization(mix);
if (!jitless) %OptimizeFunctionOnNextCall(mix); // refused without a JIT
for (let round = 0; round < 40; round++) total = (total + mix(20000)) % 1000003;
console.log(total);
// %GetOptimizationStatus bits (V8 13.6, src/runtime/runtime.h): 1<<6
// TurboFan code, 1<<5 Maglev code, 1<<15 Sparkplug (baseline) code.
const status = %GetOptimizationStatus(mix);
console.error('tier=' + (status & 64 ? 'turbofan' : status & 32 ? 'maglev' : status & 32768 ? 'baseline' : 'interpreted'));
