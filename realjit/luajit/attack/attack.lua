-- attack/attack.lua SCENARIO | --list - the attacker inside an unmodified
-- LuaJIT: LuaJIT's glue to the one attacker every real JIT calls,
-- realjit/attack/live-code.c (libsealjit-attack.so, through FFI; V8's
-- addon calls the same code through N-API).
--
-- One hot function is compiled to one trace (jit.off() follows, so that
-- no second trace is ever compiled: policies that seal permissions would
-- stop LuaJIT at its second trace, before the attack).  The glue finds the
-- trace's machine code with jit.util.tracemc() and hands its address and
-- length to live_code_attack_trace(), which snapshots the mapping that
-- holds it, makes ONE corrupted mm call (syscall(2) itself, as a
-- corrupted pointer reaching the kernel would: the preload library's
-- wrappers see only LuaJIT's own calls) plus, where a real exploit would,
-- the ordinary follow-up that plants its bytes, and snapshots again; the
-- glue prints its line and runs the trace again.
--
-- Prints (stdout, flushed before the trace runs again):
--   attack scenario=S call=ok|ERRNO outcome=LANDED|BLOCKED|ERROR errno=E changed=WHAT
--          area=ADDR+LEN trace=ADDR+LEN pkey=K
--   rerun value=ok|wrong
-- (live-code.h says what each field is; a store that faulted, where the
-- code's protection key still write-disables it, is errno SIGSEGV.)  The
-- attacker's bytes are `mov edi, 65; mov eax, 231; syscall`:
-- exit_group(65).  A process that exits 65 ran them; one killed by a
-- signal ran what the attack left there (zeros, nothing).
-- Exits 0 after the rerun, 2 on misuse, 4 when the attacker's own setup
-- failed (the case proves nothing).
-- The library: $SEALJIT_ATTACK_LIB, else libsealjit-attack.so beside this
-- file (the guest package), else the tree's build/realjit/.
local ffi = require("ffi")
local jutil = require("jit.util")

local EXIT_SETUP = 4

ffi.cdef([[
const char *live_code_scenario_all(size_t index);
int live_code_attack_trace(const char *scenario, uintptr_t address, size_t size,
			   char *line, size_t line_len);
]])

local function setup_failed(what)
	io.stdout:write("attack setup-failed: ", what, "\n")
	io.stdout:flush()
	os.exit(EXIT_SETUP)
end

local here = (arg[0]:match("^(.*)/[^/]*$") or ".")
local function readable(path)
	local f = io.open(path, "rb")
	if f then f:close() return true end
	return false
end
local lib_path = os.getenv("SEALJIT_ATTACK_LIB")
if not lib_path or lib_path == "" then
	lib_path = here .. "/libsealjit-attack.so"
	if not readable(lib_path) then lib_path = here .. "/../../../build/realjit/libsealjit-attack.so" end
end
local ok, attacker = pcall(ffi.load, lib_path)
if not ok then
	io.stderr:write("attack.lua: cannot load ", lib_path, " (make realjit-bin): ", tostring(attacker), "\n")
	os.exit(EXIT_SETUP)
end

local function scenarios()
	local names = {}
	local i = 0
	while true do
		local name = attacker.live_code_scenario_all(i)
		if name == nil then return names end
		names[#names + 1] = ffi.string(name)
		i = i + 1
	end
end

-- The victim: one loop, one trace.  Its answer is known in closed form.
local function victim(n)
	local s = 0
	for i = 1, n do s = s + i * 3 end
	return s
end
local N = 1000
local EXPECTED = 3 * N * (N + 1) / 2

local function hot_trace()
	for _ = 1, 4 do victim(N) end
	jit.off()
	for tr = 1, 16 do
		local mcode, address = jutil.tracemc(tr)
		if mcode then return address, #mcode end
	end
	setup_failed("no trace was compiled (is the JIT on?)")
end

if arg[1] == "--list" then
	print(table.concat(scenarios(), "\n"))
	os.exit(0)
end
local name = arg[1]
local known = false
for _, s in ipairs(scenarios()) do known = known or s == name end
if not known then
	io.stderr:write("usage: attack.lua SCENARIO (", table.concat(scenarios(), " "), ") | --list\n")
	os.exit(2)
end
local address, size = hot_trace()
local line = ffi.new("char[512]")
if attacker.live_code_attack_trace(name, address, size, line, 512) ~= 0 then
	io.stderr:write("attack.lua: ", ffi.string(line), "\n")
	os.exit(2)
end
io.stdout:write(ffi.string(line), "\n")
io.stdout:flush()
local value = victim(N)
io.stdout:write("rerun value=", value == EXPECTED and "ok" or ("wrong:" .. tostring(value)), "\n")
