-- The user's editor for the agent tests: headless Neovim 0.7.2 listening on $NVIM_LISTEN, editls
-- set up through the shipped client-examples/neovim/editls.lua (init_options from $EDITLS_INIT, JSON),
-- the files in $OPEN (comma-separated) opened, each given an unsaved line "UNSAVED <name>" at its
-- end as a user's typing would (one undo step), and those in $CLEAN opened as they are on disk. Review prompts (window/showMessageRequest) go through
-- Neovim's own handler (inputlist()); before it blocks, the prompt's message is appended to
-- $WS/.prompts, so the test knows when to answer by typing its number. Writes $WS/.editor-ready.
local ws = os.getenv('WS')
local repo = os.getenv('REPO')
local editls = dofile(repo .. '/client-examples/neovim/editls.lua')
_G.editls_client = editls -- the test reads its messages in full (:EditlsMessages)
local init = vim.fn.json_decode(os.getenv('EDITLS_INIT') or '{}')
editls.setup({ cmd = { 'node', os.getenv('SERVER'), '--stdio' }, init_options = init })

local original = vim.lsp.handlers['window/showMessageRequest']
editls.handlers['window/showMessageRequest'] = function(err, result, ctx, config)
  local f = assert(io.open(ws .. '/.prompts', 'a'))
  f:write(result.message .. '\n')
  f:close()
  return original(err, result, ctx, config)
end

-- Written whole, then renamed into place: the test reads a file as soon as it exists.
local function write(name, text)
  local f = assert(io.open(ws .. '/' .. name .. '.tmp', 'w'))
  f:write(text)
  f:close()
  assert(os.rename(ws .. '/' .. name .. '.tmp', ws .. '/' .. name))
end

local ok, err = pcall(function()
  local first
  local clean = {}
  for name in string.gmatch(os.getenv('CLEAN') or '', '[^,]+') do clean[name] = true end
  local names = {}
  for name in string.gmatch(os.getenv('OPEN') or '', '[^,]+') do table.insert(names, name) end
  for name in string.gmatch(os.getenv('CLEAN') or '', '[^,]+') do table.insert(names, name) end
  for _, name in ipairs(names) do
    vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/' .. name))
    local bufnr = vim.api.nvim_get_current_buf()
    first = first or bufnr
    local ready = vim.wait(20000, function()
      local c = editls.client(bufnr)
      return c ~= nil and c.initialized == true and vim.lsp.buf_is_attached(bufnr, c.id)
    end, 10)
    if not ready then error('editls did not attach to ' .. name) end
    if not clean[name] then
      local n = vim.api.nvim_buf_line_count(bufnr)
      vim.api.nvim_buf_set_lines(bufnr, n, n, false, { 'UNSAVED ' .. name })
      vim.cmd('let &undolevels = &undolevels')
    end
  end
  if first then vim.api.nvim_set_current_buf(first) end
  -- The discovery record is written after initialized: wait for it so that agents find this editor.
  local dir = os.getenv('XDG_RUNTIME_DIR') .. '/editls'
  local pid = nil
  for _, c in ipairs(vim.lsp.get_active_clients()) do
    if c.name == 'editls' then pid = c.rpc.pid end
  end
  if pid and not vim.wait(20000, function() return vim.loop.fs_stat(dir .. '/' .. pid .. '.json') ~= nil end, 20) then
    error('no discovery record from editls (pid ' .. pid .. ')')
  end
end)
write('.editor-ready', ok and 'ok' or ('error: ' .. tostring(err)))
