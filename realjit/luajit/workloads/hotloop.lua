-- hotloop.lua - hot numeric and table loops (one trace each, looping).
-- Prints checksums; matrix.sh compares them with `luajit -joff`.
local function sum_multiples(n)
	local s = 0
	for i = 1, n do
		if i % 3 == 0 or i % 5 == 0 then s = s + i end
	end
	return s
end

local function sieve(n)
	local composite, count = {}, 0
	for i = 2, n do
		if not composite[i] then
			count = count + 1
			for j = i * i, n, i do composite[j] = true end
		end
	end
	return count
end

local function string_hash(rounds)
	local h = 5381
	local text = "the quick brown fox jumps over the lazy dog"
	for _ = 1, rounds do
		for k = 1, #text do h = (h * 33 + text:byte(k)) % 4294967296 end
	end
	return h
end

local function matrix_trace(n)
	local m = {}
	for i = 1, n do
		m[i] = {}
		for j = 1, n do m[i][j] = (i * j) % 7 end
	end
	local t = 0
	for i = 1, n do t = t + m[i][i] * m[i][n - i + 1] end
	return t
end

print("sum_multiples", sum_multiples(200000))
print("sieve", sieve(100000))
print("string_hash", string_hash(2000))
print("matrix_trace", matrix_trace(120))
