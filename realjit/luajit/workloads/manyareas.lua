-- manyareas.lua - enough traces to fill several machine-code areas.
-- luajit-flags: -Osizemcode=16 -Omaxmcode=128
-- min-areas: 3
-- 16 KiB areas, at most 128 KiB in all: 400 generated functions with
-- unrolled bodies fill area after area, and reaching maxmcode makes LuaJIT
-- flush every trace and start again.
local template = [[
return function(n)
	local a, b, c = %d, 0, 0
	for i = 1, n do
		b = b + (i * a) %% 13
		c = c + (b %% 17) * (i %% 5)
		a = (a * 3 + i) %% 1009
		b = b + (c %% 11) - (a %% 3)
		c = c - (b %% 7) + (a %% 19)
	end
	return a + b + c
end
]]
local total = 0
for k = 1, 400 do
	local f = assert(load(string.format(template, k), "area" .. k))()
	total = (total + f(200)) % 1000000007
end
print("areas", total)
