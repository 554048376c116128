// expect-stderr: engine=wasm
// A WebAssembly module built here byte by byte: one exported loop, called
// often enough to tier up from Liftoff to TurboFan.  Under --jitless V8
// has no WebAssembly; the same loop then runs as JavaScript, so stdout is
// the same; stderr says which ran.
function leb(n) {
  const out = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && (b & 0x40))) { out.push(b); return out; }
    out.push(b | 0x80);
  }
}
function section(id, bytes) { return [id, ...leb(bytes.length), ...bytes]; }
// (func (param $n i32) (result i32) (local $i i32) (local $s i32)
//   (loop (s = (s + i*3) % 1000003; i++; br_if (i < n))) s)
function moduleBytes() {
  const body = [1, 2, 0x7f,
    0x03, 0x40,
    0x20, 2, 0x20, 1, 0x41, ...leb(3), 0x6c, 0x6a, 0x41, ...leb(1000003), 0x70, 0x21, 2,
    0x20, 1, 0x41, 1, 0x6a, 0x22, 1, 0x20, 0, 0x49, 0x0d, 0,
    0x0b, 0x20, 2, 0x0b];
  return new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, [1, 0x60, 1, 0x7f, 1, 0x7f]),
    ...section(3, [1, 0]),
    ...section(7, [1, 1, 0x66, 0, 0]),
    ...section(10, [1, ...leb(body.length), ...body])]);
}
function inJs(n) {
  let s = 0, i = 0;
  do { s = (s + i * 3) % 1000003; i++; } while (i < n);
  return s;
}
const wasm = typeof WebAssembly === 'object';
const f = wasm ? new WebAssembly.Instance(new WebAssembly.Module(moduleBytes())).exports.f : inJs;
let total = 0;
for (let k = 1; k <= 300; k++) total = (total + f(k * 100)) % 1000003;
console.log(total);
console.error('engine=' + (wasm ? 'wasm' : 'javascript'));
