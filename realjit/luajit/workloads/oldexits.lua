-- oldexits.lua - side traces whose parents live in older machine-code areas.
-- luajit-flags: -Osizemcode=16 -Omaxmcode=2048
-- min-areas: 3
-- Phase 1 compiles a loop whose second branch stays cold; phase 2 fills
-- new 16 KiB areas with generated code; phase 3 makes the old branch hot,
-- so LuaJIT compiles a side trace into the newest area and patches the
-- parent's exit in an older one (lj_mcode_patch: that area made writable
-- again, long after LuaJIT moved on from it).
local function mixed(n, cut)
	local s = 0
	for i = 1, n do
		if i % 100 < cut then s = s + i % 13 else s = s - i % 7 end
	end
	return s
end

local template = [[
return function(n)
	local a, b = %d, 0
	for i = 1, n do
		b = b + (i * a) %% 13
		a = (a * 3 + b) %% 1009
		b = b - (a %% 5) + (i %% 3)
	end
	return a + b
end
]]

local out = {}
out[#out + 1] = mixed(20000, 100)
local total = 0
for k = 1, 120 do
	total = (total + assert(load(string.format(template, k), "fill" .. k))()(300)) % 1000000007
end
out[#out + 1] = total
out[#out + 1] = mixed(20000, 50)
out[#out + 1] = mixed(20000, 0)
print("oldexits", table.concat(out, " "))
