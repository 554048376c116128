-- sideexits.lua - many traces linked through side exits: a hot loop whose
-- branches turn hot one after another, and values whose types change, so
-- LuaJIT grows side traces and patches the exits of older ones.
local function classify(n)
	local counts = { 0, 0, 0, 0, 0, 0, 0, 0 }
	for i = 1, n do
		local r = i % 97
		if r < 10 then counts[1] = counts[1] + 1
		elseif r < 20 then counts[2] = counts[2] + 2
		elseif r < 35 then counts[3] = counts[3] + (i % 5)
		elseif r < 50 then counts[4] = counts[4] + (i % 11)
		elseif r < 60 then counts[5] = counts[5] + 1
		elseif r < 75 then counts[6] = counts[6] + (r % 3)
		elseif r < 90 then counts[7] = counts[7] + (r % 4)
		else counts[8] = counts[8] + 7 end
	end
	return table.concat(counts, " ")
end

local function polymorphic(n)
	local values = { 1, 2.5, "3", true, { 4 }, 6, "seven", 8.25 }
	local acc = 0
	for i = 1, n do
		local v = values[i % #values + 1]
		local t = type(v)
		if t == "number" then acc = acc + math.floor(v * 4)
		elseif t == "string" then acc = acc + #v
		elseif t == "boolean" then acc = acc + 3
		else acc = acc + v[1] end
	end
	return acc
end

local function phases(n)
	local s = 0
	for phase = 1, 6 do
		for i = 1, n do
			if i % phase == 0 then s = s + phase else s = s - 1 end
		end
	end
	return s
end

print("classify", classify(300000))
print("polymorphic", polymorphic(200000))
print("phases", phases(50000))
