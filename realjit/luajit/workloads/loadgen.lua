-- loadgen.lua - code generated at run time with load(): 60 functions,
-- each with its own hot loop, compiled to their own traces.
local template = [[
local k = %d
return function(n)
	local s = 0
	for i = 1, n do
		if i %% (k %% 7 + 2) == 0 then s = s + i * k else s = s + (i %% k) end
	end
	return s
end
]]
local total = 0
for k = 1, 60 do
	local chunk = assert(load(string.format(template, k), "gen" .. k))
	local f = chunk()
	total = (total + f(3000)) % 1000000007
end
print("generated", total)
