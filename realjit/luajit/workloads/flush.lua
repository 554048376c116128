-- flush.lua - jit.flush() in a loop: every round's machine code is freed
-- (LuaJIT munmaps its areas) and compiled again.
local function work(round)
	local s = 0
	for i = 1, 20000 do
		if (i + round) % 4 == 0 then s = s + i else s = s + 1 end
	end
	return s
end
local total = 0
for round = 1, 25 do
	total = total + work(round)
	jit.flush()
end
print("flushed", total)
