-- Headless Neovim (0.7.2) driver for test/editors/neovim-mcp.test.ts: editls runs on a.txt through
-- the shipped client-examples/neovim/editls.lua, the buffer gets an unsaved user change, then the
-- driver signals "ready" ($OUT.ready) and waits while the test's MCP client edits through `editls mcp`
-- (until $OUT.done);
-- it records buffer, 'modified' and disk, presses `u` once, records again and writes JSON to $OUT.
local D = dofile(os.getenv('REPO') .. '/test/editors/nvim-common.lua')
local ws, server, repo, put, path, disk, wait = D.ws, D.server, D.repo, D.put, D.path, D.disk, D.wait
local outfile = D.outfile
local buf_text = D.text_of

local ok, err = pcall(function()
  local editls = dofile(repo .. '/client-examples/neovim/editls.lua')
  editls.setup({ cmd = { 'node', server, '--stdio' } })
  vim.cmd('edit ' .. vim.fn.fnameescape(path('a.txt')))
  local bufnr = vim.api.nvim_get_current_buf()
  local client
  put('attached', vim.wait(10000, function()
    client = editls.client(bufnr)
    return client ~= nil and client.initialized == true and vim.lsp.buf_is_attached(bufnr, client.id)
  end, 10))
  -- An unsaved user change, closed as one undo step as a keypress would.
  vim.api.nvim_buf_set_lines(bufnr, 1, 2, false, { 'second line UNSAVED' })
  vim.cmd('let &undolevels = &undolevels')
  put('before', buf_text(bufnr))
  local f = assert(io.open(outfile .. '.ready', 'w'))
  f:write('ready')
  f:close()
  put('agent_edit_seen', vim.wait(60000, function() return buf_text(bufnr):find('AGENT', 1, true) ~= nil end, 20))
  -- The test says when its call has returned ($OUT.done), so editls is not stopped under it.
  put('agent_done', vim.wait(60000, function() return vim.loop.fs_stat(outfile .. '.done') ~= nil end, 20))
  put('buffer', buf_text(bufnr))
  put('modified', vim.api.nvim_buf_get_option(bufnr, 'modified'))
  put('disk', disk('a.txt'))
  vim.cmd('silent undo')
  put('after_one_undo', buf_text(bufnr))
end)
D.finish(ok, err)
