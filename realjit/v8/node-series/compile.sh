#!/usr/bin/env bash
# realjit/v8/node-series/compile.sh - compile what of the series can be compiled
# here: the translation unit 0001 adds to (NodeThreadIsolatedAllocator, its
# declaration and definitions, taken from the patch as it stands) against
# the official Node.js 24 binary's own headers (fetch-node24.sh:
# include/node, V8 13.6's v8-platform.h), C++20, -Wall -Wextra -Werror,
# and link it into a program that asks it for a key and checks what V8
# would see: Type() kPkey, Pkey() the key, Valid() true, or, without PKU
# (this host), Valid() false and Pkey() -1 (NodePlatform then gives V8
# no allocator).  The rest of node_platform.{h,cc} and the build files
# need Node's internal headers (env-inl.h and the forty it includes), and
# a Node build takes hours here: the cover letter says so.
# Prints one TAP line per step; exits 1 when one fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$("$here/../fetch-node24.sh")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
patch=$here/0001-src-give-V8-a-thread-isolated-allocator.patch

# The added lines of the class (node_platform.h) and of its definitions
# and includes (node_platform.cc), without the patch's "+".
{
	echo '#include <cstdlib>'
	echo '#include <v8-platform.h>'
	sed -n '/^+#if defined(__linux__)$/,/^+#endif$/s/^+//p' "$patch"
	echo 'namespace node {'
	sed -n '/^+\/\/ V8.s thread-isolated allocator/,/^+};$/s/^+//p' "$patch"
	sed -n '/^+NodeThreadIsolatedAllocator::NodeThreadIsolatedAllocator() {$/,/^+bool NodeThreadIsolatedAllocator::Valid/s/^+//p' "$patch"
	echo '}  // namespace node'
} >"$work/allocator.cc"
cat >"$work/check.cc" <<'CHECK'
#include <cstdio>
#include <v8-platform.h>
namespace node {
class NodeThreadIsolatedAllocator : public v8::ThreadIsolatedAllocator {
 public:
  NodeThreadIsolatedAllocator();
  ~NodeThreadIsolatedAllocator() override;
  void* Allocate(size_t size) override;
  void Free(void* object) override;
  enum Type Type() const override;
  int Pkey() const override;
  bool Valid() const;
 private:
  int pkey_ = -1;
};
}  // namespace node
int main() {
  node::NodeThreadIsolatedAllocator a;
  void* p = a.Allocate(64);
  a.Free(p);
  bool ok = a.Type() == v8::ThreadIsolatedAllocator::Type::kPkey &&
            (a.Valid() ? a.Pkey() >= 0 : a.Pkey() == -1);
  printf("valid=%d pkey=%d\n", a.Valid(), a.Pkey());
  return ok ? 0 : 1;
}
CHECK
n=0 rc=0
step() {
	n=$((n + 1))
	if out=$("$@" 2>&1); then echo "ok $n - $what"; else
		echo "not ok $n - $what"; echo "$out" | sed 's/^/# /'; rc=1; fi
}
echo "1..3"
what="0001's NodeThreadIsolatedAllocator compiles against Node $("$root/bin/node" -v)'s headers (C++20, -Wall -Wextra -Werror)"
step g++ -std=c++20 -Wall -Wextra -Werror -isystem "$root/include/node" -c -o "$work/allocator.o" "$work/allocator.cc"
what="it links with a caller that uses it as V8 would"
step g++ -std=c++20 -Wall -Wextra -Werror -isystem "$root/include/node" -o "$work/check" "$work/check.cc" "$work/allocator.o"
what="it gives a write-disabled key, or none without PKU (Valid() false, Pkey() -1)"
step "$work/check"
[ "$rc" = 0 ] && echo "# $("$work/check")"
exit "$rc"
