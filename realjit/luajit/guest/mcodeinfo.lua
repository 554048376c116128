-- guest/mcodeinfo.lua - loaded before a workload of the patched LuaJIT
-- (realjit/luajit/series/) with `luajit -l mcodeinfo`: at lua_close(), when its
-- finalizers run and before LuaJIT frees its machine code, one line on
-- stderr, from jit.util.mcodeinfo():
--   mcodeinfo mode=pkey|mprotect|rwx pkey=K|- retired=BYTES reused=BYTES
-- retired: bytes of areas the kernel refused to unmap (sealed) that no
-- new area reused, that is, never reused; reused: bytes reused.
local mcodeinfo = require("jit.util").mcodeinfo
local sentinel = newproxy(true)
getmetatable(sentinel).__gc = function()
	local info = mcodeinfo()
	io.stderr:write(string.format("mcodeinfo mode=%s pkey=%s retired=%d reused=%d\n",
		info.mode, tostring(info.pkey or "-"), info.retired, info.reused))
end
return sentinel -- kept in package.loaded until lua_close()
