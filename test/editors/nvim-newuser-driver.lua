-- Headless Neovim (0.7.2) driver for test/editors/neovim-newuser.test.ts: the shipped example as a
-- new user meets it — :luafile + require, :EditlsStrReplace on one of five equal words and on a
-- linewise selection (scratch buffer, :w), :EditlsReplace! (a preview), one fitted message per error
-- (with its kind, also from a code action's command), :EditlsSymbols from the quickfix window,
-- :'<,'>EditlsCodeAction. Records buffers, messages and quickfix items as JSON in $OUT.
-- Run: WS=... SERVER=dist/editls.js OUT=out.json REPO=. nvim --headless --clean -u NONE -c 'luafile test/editors/nvim-newuser-driver.lua'
local D = dofile(os.getenv('REPO') .. '/test/editors/nvim-common.lua')
local ws, server, repo, put, path, disk, wait = D.ws, D.server, D.repo, D.put, D.path, D.disk, D.wait
-- What reaches the user: vim.notify (the example's channel) and the message history.
local notes = {}
vim.notify = function(msg) table.insert(notes, msg) end
-- Neovim's own handlers, in case something still goes through them.
for _, m in ipairs({ 'window/showMessage', 'workspace/executeCommand' }) do
  local h = vim.lsp.handlers[m]
  vim.lsp.handlers[m] = function(e, result, ctx, config)
    table.insert(notes, 'default-handler:' .. m .. ':' .. (e and (tostring(e.code) .. ': ' .. e.message) or (type(result) == 'table' and tostring(result.message) or '')))
    return h(e, result, ctx, config)
  end
end
local buf_text = D.text_of
vim.o.hidden = true
--- A user command; a failure is recorded and the next scenario still runs.
local cmd_errors = {}
local function try(c)
  local fine, e = pcall(vim.cmd, c)
  if not fine then table.insert(cmd_errors, c .. ': ' .. tostring(e)) end
end
local function notes_with(s)
  local n = 0
  for _, m in ipairs(notes) do if m:find(s, 1, true) then n = n + 1 end end
  return n
end

local ok, err = pcall(function()
  -- 1. the header's :luafile instructions
  vim.cmd('luafile ' .. vim.fn.fnameescape(repo .. '/client-examples/neovim/editls.lua'))
  local found, editls = pcall(require, 'editls')
  put('luafile_require', found)
  if not found then editls = dofile(repo .. '/client-examples/neovim/editls.lua') end
  editls.setup({ cmd = { 'node', server, '--stdio' } })

  local client
  local function open(name)
    vim.cmd('edit ' .. vim.fn.fnameescape(path(name)))
    local buf = vim.api.nvim_get_current_buf()
    wait(10000, function()
      client = editls.client(buf)
      return client ~= nil and client.initialized == true and vim.lsp.buf_is_attached(buf, client.id)
    end)
    return buf
  end
  local answers = {}
  vim.ui.input = function(_, on_confirm) on_confirm(table.remove(answers, 1)) end

  -- 2. one of five equal words, selected charwise: replaced by its range
  local five = open('words.txt')
  put('attached', client ~= nil and vim.lsp.buf_is_attached(five, client.id))
  vim.cmd('normal! 1G0wwviw\27')
  answers = { 'THIRD' }
  try("'<,'>EditlsStrReplace")
  wait(10000, function() return buf_text(five):find('THIRD', 1, true) ~= nil end)
  put('word.buffer', buf_text(five))

  -- 3. a linewise selection: edited in a scratch buffer, :w replaces exactly those lines
  local lines = open('lines.txt')
  vim.cmd('normal! 2GVj\27')
  try("'<,'>EditlsStrReplace")
  local scratch = vim.api.nvim_get_current_buf()
  put('scratch.opened', scratch ~= lines)
  put('scratch.text', vim.api.nvim_buf_get_lines(scratch, 0, -1, false))
  vim.api.nvim_buf_set_lines(scratch, 0, -1, false, { 'TWO', 'two and a half', 'THREE' })
  try('write')
  wait(10000, function() return not vim.api.nvim_buf_is_valid(scratch) or vim.fn.bufwinid(scratch) == -1 end)
  put('lines.buffer', buf_text(lines))
  put('scratch.closed', not vim.api.nvim_buf_is_valid(scratch) or vim.fn.bufwinid(scratch) == -1)
  vim.cmd('silent! only!')
  vim.cmd('buffer! ' .. lines)

  -- 3b. the same in a 'dos' buffer (the range's text carries \r\n) and after 😀 and é (UTF-16 columns)
  local dos = open('dos.txt')
  put('dos.fileformat', vim.bo[dos].fileformat)
  vim.cmd('normal! 1GVj\27')
  try("'<,'>EditlsStrReplace")
  local scratch2 = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_lines(scratch2, 0, -1, false, { 'A', 'B' })
  try('write')
  wait(10000, function() return not vim.api.nvim_buf_is_valid(scratch2) or vim.fn.bufwinid(scratch2) == -1 end)
  try('silent! only!')
  try('buffer! ' .. dos)
  try('write')
  local emoji = open('emoji.txt')
  vim.cmd('normal! 1G$viw\27')
  answers = { 'LAST' }
  try("'<,'>EditlsStrReplace")
  wait(10000, function() return buf_text(emoji):find('LAST', 1, true) ~= nil end)
  put('emoji.buffer', buf_text(emoji))

  -- 4. :EditlsReplace! previews: nothing changes, a hint appears, :EditlsApplyPreview applies it
  local a = open('a.txt')
  editls.last_preview = nil
  answers = { 'hello', 'howdy' }
  try('EditlsReplace!')
  wait(10000, function() return editls.last_preview ~= nil end)
  put('preview.id', editls.last_preview)
  put('preview.buffer', buf_text(a))
  wait(5000, function() return #vim.diagnostic.get(a) > 0 end)
  local hints = {}
  for _, d in ipairs(vim.diagnostic.get(a)) do table.insert(hints, d.message) end
  put('preview.hints', hints)
  try('EditlsApplyPreview')
  wait(10000, function() return buf_text(a):find('howdy', 1, true) ~= nil end)
  put('preview.applied', buf_text(a))

  -- 5. an error is shown once, with its kind, on one line that fits (no "Press ENTER")
  notes = {}
  editls.exec('editls.edit', { file_path = 'a.txt', old_string = 'no such text anywhere in this file, which is a rather long thing to look for', new_string = 'x' })
  wait(10000, function() return notes_with('not_found') > 0 end)
  vim.wait(500)
  put('error.notes', vim.deepcopy(notes))
  put('error.echospace', vim.v.echospace)
  local widths = {}
  for _, m in ipairs(notes) do table.insert(widths, vim.fn.strdisplaywidth(m)) end
  put('error.widths', widths)
  put('error.full', editls.messages[#editls.messages])

  -- 6. a command run as a code action's is (client.request without a handler): its error has its kind
  notes = {}
  client.request('workspace/executeCommand', { command = 'editls.edit', arguments = { { file_path = 'a.txt', old_string = 'absent', new_string = 'x' } } }, nil, a)
  wait(10000, function() return #notes > 0 end)
  vim.wait(500)
  put('action_error.notes', vim.deepcopy(notes))

  -- 7. :EditlsSymbols from the quickfix window
  vim.fn.setqflist({}, ' ', { title = 'something else', items = { { filename = path('a.txt'), lnum = 1, text = 'x' } } })
  vim.cmd('copen')
  put('symbols.from_buftype', vim.bo.buftype)
  vim.fn.setqflist({}, 'r', { title = 'cleared', items = {} })
  try('EditlsSymbols fooBarBaz')
  wait(10000, function() return #vim.fn.getqflist() > 0 end)
  local items = {}
  for _, q in ipairs(vim.fn.getqflist()) do
    table.insert(items, { file = vim.fn.fnamemodify(vim.fn.bufname(q.bufnr), ':t'), lnum = q.lnum, text = q.text })
  end
  put('symbols.items', items)
  vim.cmd('cclose')

  -- 8. :'<,'>EditlsCodeAction offers the actions for the selected lines (0.7: range_code_action)
  local wsbuf = open('ws.txt')
  local titles = {}
  local picked = false
  vim.ui.select = function(choices, opts, on_choice)
    for _, c in ipairs(choices) do table.insert(titles, opts.format_item and opts.format_item(c) or tostring(c)) end
    picked = true
    on_choice(nil, nil)
  end
  vim.cmd('normal! 1GVj\27')
  try("'<,'>EditlsCodeAction")
  wait(10000, function() return picked end)
  put('code_action.titles', titles)
  put('code_action.buf', buf_text(wsbuf))
end)

put('notes', notes)
put('cmd_errors', cmd_errors)
D.finish(ok, err)
