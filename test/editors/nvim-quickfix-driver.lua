-- Headless Neovim (0.7.2) driver for test/editors/neovim-quickfix.test.ts: :EditlsSymbols and
-- :EditlsSearch on a tree where editls's order (symbols by rank; matches in path order, with an
-- unsaved buffer's text) is not the order Neovim sorts locations in. Records every quickfix item as
-- {file, line, col, text, line's text on disk or in the buffer}, so the test can check that each
-- label belongs to the line it opens.
local D = dofile(os.getenv('REPO') .. '/test/editors/nvim-common.lua')
local put, path, wait = D.put, D.path, D.wait

local function items()
  local out = {}
  for _, it in ipairs(vim.fn.getqflist()) do
    local name = vim.api.nvim_buf_get_name(it.bufnr)
    local line = vim.fn.getbufline(it.bufnr, it.lnum)[1]
    if line == nil then
      local f = io.open(name, 'r')
      local n = 0
      for l in f:lines() do
        n = n + 1
        if n == it.lnum then line = l break end
      end
      f:close()
    end
    table.insert(out, { file = vim.fn.fnamemodify(name, ':t'), lnum = it.lnum, col = it.col, text = it.text, line = line })
  end
  return out
end

local ok, err = pcall(function()
  local editls = dofile(D.repo .. '/client-examples/neovim/editls.lua')
  editls.setup({ cmd = { 'node', D.server, '--stdio' } })
  vim.cmd('edit ' .. vim.fn.fnameescape(path('zzz/last.js')))
  local bufnr = vim.api.nvim_get_current_buf()
  put('attached', wait(20000, function()
    local c = editls.client(bufnr)
    return c ~= nil and c.initialized == true
  end))
  -- An unsaved line, so that the search's text for this file comes from the buffer.
  vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, { '// needle unsaved in the buffer' })
  -- The index is built after initialized: wait for the query to see both symbols.
  local function qf_count() return #vim.fn.getqflist() end
  put('symbols_ready', wait(20000, function()
    vim.fn.setqflist({}, 'r')
    vim.cmd('silent EditlsSymbols target')
    wait(2000, function() return qf_count() >= 3 end)
    return qf_count() >= 3
  end))
  put('symbols', items())
  vim.cmd('cclose')
  vim.fn.setqflist({}, 'r')
  vim.cmd('silent EditlsSearch needle')
  wait(10000, function() return qf_count() >= 3 end)
  put('search', items())
end)
D.finish(ok, err)
