-- Headless Neovim (0.7.2) driver for test/editors/neovim.test.ts: loads the shipped
-- client-examples/neovim/editls.lua, opens the fixture, runs each scenario through Neovim's own
-- machinery (its applyEdit handler, code_action + vim.ui.select, quickfix, undo) and writes what
-- buffers and disk hold afterwards as JSON to $OUT. The test compares; this script only records.
-- Run: WS=... SERVER=dist/editls.js OUT=out.json REPO=. nvim --headless --clean -u NONE -c 'luafile test/editors/nvim-driver.lua'
local D = dofile(os.getenv('REPO') .. '/test/editors/nvim-common.lua')
local ws, server, repo, put, path, disk, wait = D.ws, D.server, D.repo, D.put, D.path, D.disk, D.wait

-- Record what reaches the user (window/showMessage and the example's notifications).
local notes = {}
vim.notify = function(msg) table.insert(notes, msg) end
local show_message = vim.lsp.handlers['window/showMessage']
vim.lsp.handlers['window/showMessage'] = function(e, result, ctx, config)
  table.insert(notes, result.message)
  return show_message(e, result, ctx, config)
end

local function bufnr_of(name)
  local b = vim.fn.bufnr(path(name))
  if b == -1 or not vim.api.nvim_buf_is_loaded(b) then return nil end
  return b
end
--- The buffer's text as Neovim sends it to servers, or nil when the file has no loaded buffer.
local function buf_text(name)
  local b = bufnr_of(name)
  return b and D.text_of(b) or nil
end
local function modified(name)
  local b = bufnr_of(name)
  return b ~= nil and vim.api.nvim_buf_get_option(b, 'modified')
end

local ok, err = pcall(function()
  local editls = dofile(repo .. '/client-examples/neovim/editls.lua')
  editls.setup({ cmd = { 'node', server, '--stdio' } })

  vim.cmd('edit ' .. vim.fn.fnameescape(path('a.txt')))
  local bufnr = vim.api.nvim_get_current_buf()
  local client
  put('attached', wait(10000, function()
    client = editls.client(bufnr)
    return client ~= nil and client.initialized == true and vim.lsp.buf_is_attached(bufnr, client.id)
  end))
  put('root_dir', client.config.root_dir)
  put('offset_encoding', client.offset_encoding)
  local commands = (client.server_capabilities.executeCommandProvider or {}).commands or {}
  local served = {}
  for _, c in ipairs(commands) do served[c] = true end

  -- A request to editls and its reply or error (editls's applyEdit is served meanwhile).
  local function exec(command, args)
    local done, res, e = false, nil, nil
    client.request('workspace/executeCommand', { command = command, arguments = { args } }, function(er, r)
      e, res, done = er, r, true
    end, bufnr)
    wait(30000, function() return done end)
    return res, e
  end
  local function result_fields(prefix, res, e)
    if e then
      put(prefix .. '.error', { code = e.code, message = e.message, kind = type(e.data) == 'table' and e.data.kind or vim.NIL })
    elseif res then
      put(prefix .. '.status', res.status)
      put(prefix .. '.via', res.files and res.files[1] and res.files[1].via or vim.NIL)
      put(prefix .. '.message', res.message)
      put(prefix .. '.previewId', res.previewId)
    end
  end
  local function editls_diagnostics(b)
    local n = 0
    for _, d in ipairs(vim.diagnostic.get(b)) do
      if d.source == 'editls' and d.severity == vim.diagnostic.severity.HINT then n = n + 1 end
    end
    return n
  end
  --- Runs vim.lsp.buf.code_action() and picks the action whose title starts with `prefix`, as a user would in the menu.
  local function code_action(prefix, done_when)
    local titles = {}
    vim.ui.select = function(items, opts, on_choice)
      local chosen
      for i, item in ipairs(items) do
        local title = opts.format_item and opts.format_item(item) or tostring(item)
        table.insert(titles, title)
        if not chosen and title:sub(1, #prefix) == prefix then chosen = i end
      end
      if chosen then on_choice(items[chosen], chosen) else on_choice(nil, nil) end
    end
    vim.lsp.buf.code_action()
    local changed = wait(30000, done_when)
    return changed, titles
  end

  -- 1. an edit in the open buffer on the line with é and 😀
  result_fields('s1', exec('editls.edit', { file_path = 'a.txt', old_string = 'target', new_string = 'TARGET' }))
  put('s1.buffer', buf_text('a.txt'))
  put('s1.disk', disk('a.txt'))
  put('s1.notified', wait(3000, function()
    for _, n in ipairs(notes) do
      if n:find('editls.edit: 1 replacement in a.txt; changed in the editor', 1, true) then return true end
    end
    return false
  end))

  -- 2. a user edit (unsaved), then a command that only makes sense on the edited text
  vim.api.nvim_buf_set_lines(bufnr, 1, 2, false, { 'second line typed' })
  result_fields('s2', exec('editls.edit', { file_path = 'a.txt', old_string = 'line typed', new_string = 'line TYPED' }))
  put('s2.buffer', buf_text('a.txt'))

  -- 3. a closed file: written to disk, no buffer left behind
  result_fields('s3', exec('editls.edit', { file_path = 'b.txt', old_string = 'one', new_string = 'ONE' }))
  put('s3.disk', disk('b.txt'))
  put('s3.buffer', buf_text('b.txt'))
  put('s3.modified', modified('b.txt'))

  -- 4. a preview changes nothing, shows hint diagnostics, and is applied through its code action
  result_fields('s4', exec('editls.proposeStrReplace', { path = 'a.txt', replacements = { { old = 'hello', new = 'HELLO' } } }))
  put('s4.buffer_after_preview', buf_text('a.txt'))
  put('s4.disk_after_preview', disk('a.txt'))
  wait(5000, function() return editls_diagnostics(bufnr) > 0 end)
  put('s4.diagnostics', editls_diagnostics(bufnr))
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  local applied, titles = code_action('editls: apply previewed edit', function() return (buf_text('a.txt') or ''):find('HELLO', 1, true) ~= nil end)
  put('s4.code_action_applied', applied)
  put('s4.titles', titles)
  put('s4.buffer', buf_text('a.txt'))
  wait(5000, function() return editls_diagnostics(bufnr) == 0 end)
  put('s4.diagnostics_after', editls_diagnostics(bufnr))

  -- 5. an error reaches the client with its kind
  result_fields('s5', exec('editls.edit', { file_path = 'a.txt', old_string = 'no such text', new_string = 'x' }))

  -- 6. one undo reverts one command (several edits in one buffer)
  vim.cmd('let &undolevels = &undolevels') -- what a keypress does: close the undo block
  local before_undo = buf_text('a.txt')
  result_fields('s6', exec('editls.edit', { file_path = 'a.txt', old_string = 'e', new_string = 'E', replace_all = true }))
  put('s6.before', before_undo)
  put('s6.after_command', buf_text('a.txt'))
  vim.cmd('silent undo')
  put('s6.after_one_undo', buf_text('a.txt'))

  -- 7. editls.searchAndReplace in a line range, through :EditlsReplace and vim.ui.input
  if served['editls.searchAndReplace'] then
    local answers = { 'line', 'LINE' }
    vim.ui.input = function(_, on_confirm) on_confirm(table.remove(answers, 1)) end
    local before = buf_text('a.txt')
    vim.cmd('2,2EditlsReplace')
    put('s7.changed', wait(30000, function() return buf_text('a.txt') ~= before end))
    put('s7.buffer', buf_text('a.txt'))
  end

  -- 8. editls.replaceRange with UTF-16 columns on the emoji line
  if served['editls.replaceRange'] then
    result_fields('s8', exec('editls.replaceRange', { filePath = 'a.txt', startLine = 3, startColumn = 6, endLine = 3, endColumn = 12, expectedText = 'TARGET', replacementText = 'target' }))
    put('s8.buffer', buf_text('a.txt'))
  end

  -- 9. :'<,'>EditlsStrReplace on a visual selection of "world"
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.cmd([[execute "normal! wviw\<Esc>"]])
  vim.ui.input = function(opts, on_confirm)
    put('s9.default', opts.default)
    on_confirm('World')
  end
  vim.cmd("'<,'>EditlsStrReplace")
  put('s9.changed', wait(30000, function() return (buf_text('a.txt') or ''):find('World', 1, true) ~= nil end))
  put('s9.buffer', buf_text('a.txt'))

  -- 9b. the example's :EditlsDiscardPreview / :EditlsApplyPreview on the latest preview
  local function run_example(command, args)
    local done = false
    editls.exec(command, args, function() done = true end, bufnr)
    wait(30000, function() return done end)
  end
  run_example('editls.edit', { file_path = 'a.txt', old_string = 'World', new_string = 'Earth', apply = 'preview' })
  put('s9b.preview', editls.last_preview)
  wait(5000, function() return editls_diagnostics(bufnr) > 0 end)
  put('s9b.diagnostics', editls_diagnostics(bufnr))
  vim.cmd('EditlsDiscardPreview')
  put('s9b.discarded', wait(10000, function() return editls_diagnostics(bufnr) == 0 and editls.last_preview == nil end))
  put('s9b.buffer_after_discard', buf_text('a.txt'))
  run_example('editls.edit', { file_path = 'a.txt', old_string = 'World', new_string = 'Earth', apply = 'preview' })
  vim.cmd('EditlsApplyPreview')
  put('s9b.applied', wait(30000, function() return (buf_text('a.txt') or ''):find('Earth', 1, true) ~= nil end))
  put('s9b.buffer', buf_text('a.txt'))

  -- 10. a no-input code action: remove trailing whitespace in a file
  vim.cmd('edit ' .. vim.fn.fnameescape(path('ws.txt')))
  local wsbuf = vim.api.nvim_get_current_buf()
  wait(5000, function() return vim.lsp.buf_is_attached(wsbuf, client.id) end)
  local trimmed = code_action('editls: remove trailing whitespace in this file', function() return buf_text('ws.txt') == 'trailing\nspaces\nnone\n' end)
  put('s10.applied', trimmed)
  put('s10.buffer', buf_text('ws.txt'))
  vim.cmd('buffer ' .. bufnr)

  -- 11. a search sees the unsaved buffer: :EditlsSearch fills the quickfix list
  if served['editls.searchFiles'] then
    vim.api.nvim_buf_set_lines(bufnr, -1, -1, false, { 'unsaved marker line' })
    vim.fn.setqflist({}, 'r')
    vim.cmd('EditlsSearch unsaved marker')
    wait(30000, function() return #vim.fn.getqflist() > 0 end)
    local items = {}
    for _, q in ipairs(vim.fn.getqflist()) do
      table.insert(items, { file = vim.fn.fnamemodify(vim.fn.bufname(q.bufnr), ':t'), lnum = q.lnum, col = q.col, text = q.text })
    end
    put('s11.items', items)
    put('s11.disk', disk('a.txt'))
    vim.cmd('cclose')
    vim.api.nvim_set_current_buf(bufnr)
  end

  -- 12. a workspace symbol through :EditlsSymbols (vim.lsp.buf.workspace_symbol -> quickfix)
  if client.server_capabilities.workspaceSymbolProvider then
    vim.fn.setqflist({}, 'r')
    vim.cmd('EditlsSymbols fooBarBaz')
    wait(30000, function() return #vim.fn.getqflist() > 0 end)
    local items = {}
    for _, q in ipairs(vim.fn.getqflist()) do
      table.insert(items, { file = vim.fn.fnamemodify(vim.fn.bufname(q.bufnr), ':t'), lnum = q.lnum, col = q.col, text = q.text })
    end
    put('s12.items', items)
    vim.cmd('cclose')
  end

  -- 13. mixed line endings: Neovim opens them with fileformat=unix, the CRs stay in the lines
  local function code_action_titles(b)
    local done, acts = false, nil
    client.request('textDocument/codeAction', { textDocument = { uri = vim.uri_from_bufnr(b) }, range = { start = { line = 0, character = 0 }, ['end'] = { line = 0, character = 0 } }, context = { diagnostics = {} } }, function(_, r) acts, done = r, true end, b)
    wait(10000, function() return done end)
    local titles = {}
    for _, a in ipairs(acts or {}) do table.insert(titles, a.title) end
    return titles
  end
  local function open_attached(name)
    vim.cmd('edit ' .. vim.fn.fnameescape(path(name)))
    local b = vim.api.nvim_get_current_buf()
    wait(5000, function() return vim.lsp.buf_is_attached(b, client.id) end)
    return b
  end
  local function exec_in(b, command, args)
    local done, res, e = false, nil, nil
    client.request('workspace/executeCommand', { command = command, arguments = { args } }, function(er, r) e, res, done = er, r, true end, b)
    wait(30000, function() return done end)
    return res, e
  end
  local function outcome(res, e)
    if e then return { error = type(e.data) == 'table' and e.data.kind or e.message, message = e.message } end
    return { status = res and res.status, notes = res and res.notes or vim.NIL }
  end
  local mixed = open_attached('mixed.txt')
  put('s13.fileformat', vim.api.nvim_buf_get_option(mixed, 'fileformat'))
  put('s13.titles_before', code_action_titles(mixed))
  put('s13.normalize', outcome(exec_in(mixed, 'editls.normalizeLineEndings', { path = 'mixed.txt' })))
  put('s13.buffer_normalized', buf_text('mixed.txt'))
  put('s13.edit', outcome(exec_in(mixed, 'editls.edit', { file_path = 'mixed.txt', old_string = 'three', new_string = 'THREE' })))
  put('s13.buffer', buf_text('mixed.txt'))
  vim.cmd('silent write')
  put('s13.disk', disk('mixed.txt'))
  vim.wait(300)
  put('s13.titles_after_save', code_action_titles(mixed))
  local crlf = open_attached('crlf.txt')
  put('s13.crlf_titles', code_action_titles(crlf))
  local crlf_outcome = outcome(exec_in(crlf, 'editls.normalizeLineEndings', { path = 'crlf.txt' }))
  put('s13.crlf_normalize', crlf_outcome)
  put('s13.crlf_buffer', buf_text('crlf.txt'))
  -- The advice in the refusal, run as the user would type it: every line CRLF on disk.
  local advice = (crlf_outcome.message or ''):match('run (:.*)$')
  put('s13.crlf_advice', advice or vim.NIL)
  if advice then vim.cmd(advice:sub(2)) end
  put('s13.crlf_after_advice', disk('crlf.txt'))

  -- 14. a 5-match searchAndReplace in an open buffer, 20 times (q -> Y, Y -> q, ...), pausing
  --     between runs as a user does: after a pause Neovim 0.7 sends the first change of the edit at
  --     once and the other four 150 ms later (debounce_text_changes, its default)
  local five = open_attached('five.txt')
  local before_text, after_text = 'one q\ntwo q\nthree q\nfour q\nfive q\nend\n', 'one Y\ntwo Y\nthree Y\nfour Y\nfive Y\nend\n'
  local wrong, bad_buffer, runs, answers = 0, 0, 0, {}
  for i = 1, 20 do
    vim.wait(200)
    local forward = i % 2 == 1
    local res, e = exec_in(five, 'editls.searchAndReplace', { path = 'five.txt', search = forward and 'q' or 'Y', replace = forward and 'Y' or 'q' })
    runs = runs + 1
    local ok_answer = not e and res and res.status == 'applied' and res.replacements == 5 and res.notes == nil
    if not ok_answer then
      wrong = wrong + 1
      table.insert(answers, e and e.message or vim.inspect(res and res.notes))
    end
    if buf_text('five.txt') ~= (forward and after_text or before_text) then bad_buffer = bad_buffer + 1 end
  end
  put('s14.runs', runs)
  put('s14.wrong', wrong)
  put('s14.bad_buffer', bad_buffer)
  put('s14.answers', answers)
end)

put('notes', notes)
D.finish(ok, err)
