// node-flags: --allow-natives-syntax
// expect-stderr: worker=turbofan
// A worker thread (its own isolate, in the same code range): a hot loop
// TurboFan compiles in the worker, its answer posted back; stdout is the
// same under --jitless.  V8's flags are the process's: the worker gets
// no command line of its own (execArgv: []).
const { Worker, isMainThread, parentPort } = require('worker_threads');
if (isMainThread) {
  const w = new Worker(__filename, { execArgv: [] });
  w.on('message', (m) => {
    console.log(m.total);
    console.error('worker=' + m.tier);
  });
  w.on('error', (e) => { console.error('worker error ' + e); process.exitCode = 1; });
} else {
  function mix(n) {
    let s = 0;
    for (let i = 0; i < n; i++) s = (s + i * 5) % 1000003;
    return s;
  }
  const jitless = process.execArgv.includes('--jitless');
  %PrepareFunctionForOptimization(mix);
  let total = mix(100) + mix(100);
  if (!jitless) %OptimizeFunctionOnNextCall(mix); // refused without a JIT
  for (let round = 0; round < 40; round++) total = (total + mix(20000)) % 1000003;
  const status = %GetOptimizationStatus(mix);
  parentPort.postMessage({ total, tier: status & 64 ? 'turbofan' : status & 32 ? 'maglev' : 'other' });
}
