-- patterns.lua: the differential test of t0200-lua-sandbox: the sandbox's own
-- string.find/match/gmatch/gsub/rep and table.insert/remove/move must give
-- what stock Lua 5.4 gives. The output is one print() of every result.
local out = {}
local function p(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = (tostring(t[i]):gsub("\0", "\\0")) end
  out[#out + 1] = table.concat(t, "\t")
end

local cases = {
  {"hello world", "o w"}, {"hello", "l+"}, {"hello", "^h(.-)o$"},
  {" key = value ", "(%w+)%s*=%s*(%w+)"}, {"THE (quick) fox", "%((%a+)%)"},
  {"f(a(b)c)d", "%b()"}, {"THE (quick) fox", "%f[%a]%a+"}, {"abc", "()b()"},
  {"aaa", "a-b"}, {"aaab", "a-b"}, {"x = 1, y = 2", "(%w+) = (%w+)"},
  {"[]]", "[]]"}, {"a]b", "[^]]"}, {"a.b", "%."}, {"a+b", "[+-]"},
  {"2024-01-02", "(%d+)-(%d+)-(%d+)"}, {"hello hello", "(h%a+) %1"},
  {"", ".*"}, {"abc", ""}, {"abc", "$"}, {"a$b", "$b"}, {"abc", "^"},
  {"aaa", "^a*$"}, {"abc", "[a-b]+"}, {"ABCdef", "%u+"}, {"ABCdef", "%U+"},
  {"a1b2", "[%d]"}, {"a-b", "[a%-]+"}, {"foo.bar", "[^.]+$"}, {"a\0b", "%z"},
  {"a\0b", "\0"}, {"one two  three", "%s*(%S+)"}, {"x", "x?x?x"}, {"ab", "a?b?c?"},
  {"((a))", "%b()"}, {"abcabc", "(a)(b)(c)%3"}, {"THE END", "%f[%w]%w+%f[%W]"},
  {"aXb", "%x"}, {"key=val", "^(%w+)=(%w*)$"}, {"MatMulV2", "^MatMul"},
  {"SoftmaxV2", "Softmax"}, {"layer.3.attn/q_proj", "^layer%.(%d+)%.attn/"},
  {"a.b.c", "%.(%a)"}, {"tab\there", "%c"}, {"x,y,,z", "([^,]*)"},
  {"aaa", "()a*()"}, {"hello", "(l)(l)"}, {"[test]", "[%[%]]"}, {"a^b", "[%^]"},
  {"caret^", "^c.-%^$"}, {"%d", "%%d"}, {"x-y", "x%-y"}, {"éé", "[\128-\255]+"},
}
for i, c in ipairs(cases) do
  p(i, "find", string.find(c[1], c[2]))
  p(i, "find2", string.find(c[1], c[2], 2))
  p(i, "find-2", string.find(c[1], c[2], -2))
  p(i, "find99", string.find(c[1], c[2], 99))
  p(i, "plain", string.find(c[1], c[2], 1, true))
  p(i, "match", string.match(c[1], c[2]))
  p(i, "match3", string.match(c[1], c[2], 3))
  p(i, "gsub", string.gsub(c[1], c[2], "<%0>"))
  p(i, "gsub1", string.gsub(c[1], c[2], "[%1]", 1))
  local t = {}
  for a, b in string.gmatch(c[1], c[2]) do t[#t + 1] = tostring(a) .. "/" .. tostring(b) end
  p(i, "gmatch", table.concat(t, ","))
  t = {}
  for a in string.gmatch(c[1], c[2], 2) do t[#t + 1] = tostring(a) end
  p(i, "gmatch2", table.concat(t, ","))
  p(i, "method", (c[1]):find(c[2]))
end
p(string.gsub("hello world", "%w+", "%0 %0", 1))
p(string.gsub("hello world", "(%w+)", function(w) return w:upper() end))
p(string.gsub("hello world", "(%w+)", function(w) if w == "world" then return false end return 7 end))
p(string.gsub("$name is $age", "%$(%w+)", {name = "bob", age = 42}))
p(string.gsub("abc", "%w", {a = false}))
p(string.gsub("abc", "", "-"))
p(string.gsub("abc", ".", "%%"))
p(string.gsub("abc", "()", "%1"))
p(string.gsub("abc", "b", 5))
p(string.gsub("hello", "l", "L", 0))
p(string.gsub("hello", "^h", "H"))
p(("x"):rep(3, ","), ("ab"):rep(0), ("ab"):rep(2), ("ab"):rep(1, "--"), ("ab"):rep(-1), (""):rep(5, ","))
for _, f in ipairs{
  function() return string.gsub("abc", "(", "x") end,
  function() return string.find("abc", "[a") end,
  function() return string.find("abc", "[^") end,
  function() return string.find("abc", "%") end,
  function() return string.gsub("abc", "a", "%2") end,
  function() return string.gsub("abc", "a", "%x") end,
  function() return string.match("abc", "%1") end,
  function() return string.match("abc", "(a)%2") end,
  function() return string.find("abc", "%f") end,
  function() return string.find("abc", "%b") end,
  function() return string.find("abc", "%ba") end,
  function() return string.match("abc", "(a") end,
  function() return string.match("abc", "a)") end,
  function() return string.gsub("abc", "a", true) end,
  function() return string.gsub("abc", "a", {a = {}}) end,
  function() return string.gsub("abc", "a", function() return {} end) end,
  function() return string.match(("a"):rep(100), ("(a)"):rep(33)) end,
  function() return string.rep("x", -1) end,
  function() return string.find(nil, "x") end,
  function() return string.gmatch("abc")() end,
} do
  p(pcall(f))
end
p(xpcall(function(a, b) return a + b, "two" end, print, 1, 2))
p(xpcall(error, function(m) return "H:" .. tostring(m) end, "x"))
p(pcall(xpcall, error))
p(string.gmatch("abc", "^b")())
p(string.gmatch("hello world from lua", "%a+")())
do
  local t = {1, 2, 3}
  table.insert(t, 4); table.insert(t, 1, 0)
  p(table.concat(t, ","))
  p(table.remove(t), table.remove(t, 1), table.concat(t, ","))
  p(pcall(table.insert, t, 10, 1))
  p(pcall(table.insert, t))
  p(pcall(table.insert, t, 1, 2, 3))
  p(pcall(table.insert, t, 4, 9), table.concat(t, ","))
  p(pcall(table.remove, t, 7))
  p(table.remove(t, #t + 1), table.concat(t, ","))
  p(table.remove({}), table.remove({}, 0), #t)
  p(table.concat(table.move({1, 2, 3, 4, 5}, 2, 4, 1), ","))
  p(table.concat(table.move({1, 2, 3, 4, 5}, 1, 3, 3), ","))
  p(table.concat(table.move({1, 2, 3}, 1, 3, 1, {}), ","))
  p(table.concat(table.move({1, 2, 3}, 3, 1, 1), ","))
  p(pcall(table.move, {}, 1, math.maxinteger, 2))
  p(pcall(table.move, {}, -1, math.maxinteger, 2))
  p(pcall(table.move, {1}, 1, 1, "x"))
  local proxy = setmetatable({}, {__index = function(_, k) return k * 10 end, __len = function() return 3 end})
  p(table.remove(proxy, 1))
end
print(table.concat(out, "\n"))
