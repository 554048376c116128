// node-flags: --no-wasm-memory-protection-keys
// expect-stderr: engine=wasm
// wasm.js without V8's own protection keys: on a CPU with PKU (the
// guests) V8 then flips the module's code space between RX and RWX with
// mprotect, as it does where the CPU has none (this host).
require('./wasm.js');
