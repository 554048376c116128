-- recursion.lua - recursive calls: up-recursion and tail calls traced.
local function fib(n)
	if n < 2 then return n end
	return fib(n - 1) + fib(n - 2)
end

local function ackermann(m, n)
	if m == 0 then return n + 1 end
	if n == 0 then return ackermann(m - 1, 1) end
	return ackermann(m - 1, ackermann(m, n - 1))
end

local function tree(depth)
	if depth == 0 then return { value = 1 } end
	return { left = tree(depth - 1), right = tree(depth - 1), value = depth }
end

local function tree_sum(node)
	if not node.left then return node.value end
	return node.value + tree_sum(node.left) + tree_sum(node.right)
end

local function count_down(n, acc)
	if n == 0 then return acc end
	return count_down(n - 1, acc + n % 9)
end

print("fib", fib(25))
print("ackermann", ackermann(2, 300))
print("tree", tree_sum(tree(14)))
print("tailcall", count_down(300000, 0))
