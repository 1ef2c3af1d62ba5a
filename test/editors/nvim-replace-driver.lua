-- Headless Neovim (0.7.2) driver for test/editors/neovim-replace.test.ts: editls.replaceInFiles
-- through the shipped :EditlsReplaceAll (a preview in the quickfix list), :EditlsApplyPreview (one
-- undo step per buffer, closed files written to disk) and `u`; records buffers and disk as JSON.
-- Run: WS=... SERVER=dist/editls.js OUT=out.json REPO=. nvim --headless --clean -u NONE -c 'luafile test/editors/nvim-replace-driver.lua'
local D = dofile(os.getenv('REPO') .. '/test/editors/nvim-common.lua')
local ws, server, repo, put, path, disk, wait = D.ws, D.server, D.repo, D.put, D.path, D.disk, D.wait
local notes = {}
vim.notify = function(msg) table.insert(notes, msg) end

local buf_text = D.text_of

local ok, err = pcall(function()
  local editls = dofile(repo .. '/client-examples/neovim/editls.lua')
  editls.setup({ cmd = { 'node', server, '--stdio' } })

  local client
  local function open(name)
    vim.cmd('edit ' .. vim.fn.fnameescape(path(name)))
    local buf = vim.api.nvim_get_current_buf()
    local attached = wait(10000, function()
      client = editls.client(buf)
      return client ~= nil and client.initialized == true and vim.lsp.buf_is_attached(buf, client.id)
    end)
    return buf, attached
  end
  local a, a_attached = open('a.txt')
  local b, b_attached = open('b.txt')
  put('attached', a_attached and b_attached)
  -- an unsaved change in a.txt: the replace must see it
  vim.api.nvim_set_current_buf(a)
  vim.api.nvim_buf_set_lines(a, 1, 2, false, { 'second line world' })
  vim.cmd('let &undolevels = &undolevels') -- what a keypress does: close the undo block (of the current buffer)
  local a_before, b_before = buf_text(a), buf_text(b)
  put('a.before', a_before)

  -- 0. -m 2: three files would change, so it is refused and nothing changes; -m without a number is refused here
  vim.cmd('EditlsReplaceAll -m 2 -i world planet')
  put('limited.refused', wait(30000, function()
    for _, m in ipairs(editls.messages) do if m:find('more than max_files (2)', 1, true) then return true end end
    return false
  end))
  put('limited.preview', editls.last_preview or vim.NIL)
  put('limited.a', buf_text(a))
  vim.cmd('EditlsReplaceAll -m lots world planet')
  put('limited.bad', notes[#notes] or vim.NIL)

  -- 1. the preview: quickfix items, nothing changed anywhere
  vim.fn.setqflist({}, 'r')
  vim.cmd('EditlsReplaceAll -i -p world planet')
  put('preview.ready', wait(30000, function() return #vim.fn.getqflist() > 0 end))
  local items = {}
  for _, q in ipairs(vim.fn.getqflist()) do
    table.insert(items, { file = vim.fn.fnamemodify(vim.fn.bufname(q.bufnr), ':t'), lnum = q.lnum, col = q.col })
  end
  table.sort(items, function(x, y) return x.file < y.file or (x.file == y.file and (x.lnum < y.lnum or (x.lnum == y.lnum and x.col < y.col))) end)
  put('preview.items', items)
  put('preview.id', editls.last_preview)
  put('preview.a', buf_text(a))
  put('preview.disk_c', disk('c.txt'))
  vim.cmd('cclose')

  -- 2. apply it all: buffers change (unsaved), the closed file on disk
  vim.api.nvim_set_current_buf(a)
  vim.cmd('EditlsApplyPreview')
  put('applied', wait(30000, function() return (disk('c.txt') or ''):find('Planet', 1, true) ~= nil and buf_text(a):find('planet', 1, true) ~= nil end))
  wait(1000, function() return buf_text(b):find('planet', 1, true) ~= nil end)
  put('apply.a', buf_text(a))
  put('apply.b', buf_text(b))
  put('apply.disk_a', disk('a.txt'))
  put('apply.disk_c', disk('c.txt'))
  put('apply.a_modified', vim.api.nvim_buf_get_option(a, 'modified'))

  -- 3. one undo per buffer reverts that buffer's part
  vim.api.nvim_set_current_buf(a)
  vim.cmd('silent undo')
  put('undo.a', buf_text(a))
  vim.api.nvim_set_current_buf(b)
  vim.cmd('silent undo')
  put('undo.b', buf_text(b))
  put('undo.b_equals_before', buf_text(b) == b_before)
end)

put('notes', notes)
D.finish(ok, err)
