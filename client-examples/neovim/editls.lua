-- editls for Neovim: starts editls next to your other language servers and adds user commands.
-- Works on Neovim 0.7-0.10 (vim.lsp.start_client, tested on 0.7.2 in editls's CI) and on 0.11+
-- (vim.lsp.config / vim.lsp.enable, written from the 0.11 docs; not run in CI).
--
-- Install: put this file on your runtimepath as lua/editls.lua (or :luafile it) and call
--   require('editls').setup({ cmd = { 'node', '/path/to/editls/dist/editls.js', '--stdio' } })
-- Every option is optional: `cmd` defaults to $EDITLS_JS (run with node) or `editls` on PATH;
-- `init_options` are editls settings (see the README), `root_markers` find the workspace folder.
--
-- Commands (each reports editls's one-line summary; errors show their kind):
--   :EditlsReplace           replace in the current file (asks for the text and the replacement;
--                            with a range, e.g. :'<,'>EditlsReplace, only in those lines)
--   :'<,'>EditlsStrReplace   replace the visual selection (asks for the new text)
--   :EditlsSearch {regex}    search the workspace (ripgrep syntax) into the quickfix list;
--                            unsaved buffers are searched as you see them
--   :EditlsSymbols [query]   workspace symbols into the quickfix list
--   :EditlsApplyPreview [id] apply the pending preview (default: the latest one)
--   :EditlsDiscardPreview [id]
--   :EditlsReplaceAll [-r] [-i] [-p] [-g GLOB] {search} {replace}
--                            replace in every file of the workspace: a preview whose matches fill
--                            the quickfix list (unsaved buffers included); :EditlsApplyPreview applies
--                            it all (one undo per buffer, closed files written to disk), :EditlsUndo!
--                            reverts it; -r regex, -i ignore case, -p preserve case, -g file glob;
--                            without {search} {replace} it asks for them
--   :EditlsUndo              revert the last editls change to the current file (also one written to
--                            disk while the file was closed); :EditlsUndo! reverts the last editls
--                            command, whatever file it changed
-- Previews also show as hint diagnostics with "editls: apply previewed edit …" / "discard" code
-- actions (vim.lsp.buf.code_action(), `gra` on 0.11), next to the no-input actions (trailing
-- whitespace, mixed line endings). One `u` undoes one editls command.
local M = {}

local has_011 = vim.fn.has('nvim-0.11') == 1

M.options = {
  cmd = nil,
  -- Helix-style feedback for every command; set to 'log' to keep quiet.
  init_options = { summary = 'message' },
  root_markers = { '.git', '.hg', 'package.json', 'pyproject.toml', 'Cargo.toml', 'go.mod' },
}

--- The newest previewId seen in a result (for :EditlsApplyPreview without an id).
M.last_preview = nil

local function default_cmd()
  local js = os.getenv('EDITLS_JS')
  if js and js ~= '' then return { 'node', js, '--stdio' } end
  return { 'editls', '--stdio' }
end

local function find_root(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local start = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  for _, marker in ipairs(M.options.root_markers) do
    local dir = vim.fn.finddir(marker, start .. ';')
    -- a found folder ends in '/' with :p, so :h:h is its parent; a found file's parent is :h
    if dir ~= '' then return vim.fn.fnamemodify(dir, ':p:h:h') end
    local file = vim.fn.findfile(marker, start .. ';')
    if file ~= '' then return vim.fn.fnamemodify(file, ':p:h') end
  end
  return vim.fn.getcwd()
end

--- The editls client attached to `bufnr` (or any running one).
function M.client(bufnr)
  local clients = has_011 and vim.lsp.get_clients({ name = 'editls' }) or vim.lsp.get_active_clients()
  local fallback
  for _, c in ipairs(clients) do
    if c.name == 'editls' then
      if bufnr and vim.lsp.buf_is_attached(bufnr, c.id) then return c end
      fallback = fallback or c
    end
  end
  return fallback
end

local function request(client, method, params, handler, bufnr)
  if has_011 then return client:request(method, params, handler, bufnr) end
  return client.request(method, params, handler, bufnr)
end

local function notify_error(err)
  local kind = type(err.data) == 'table' and err.data.kind or tostring(err.code)
  vim.notify(('editls: %s (%s)'):format(err.message, kind), vim.log.levels.ERROR)
end

--- Commands that read every open buffer: Neovim sends a buffer's pending (debounced) changes
--- before a request only for the buffer the request names, so these name none (all are flushed).
local WORKSPACE_WIDE = { ['editls.replaceInFiles'] = true, ['editls.searchFiles'] = true, ['editls.undo'] = true, ['editls.applyPreview'] = true }

--- Runs an editls command; `on_result(result)` gets the result, errors are shown with their kind.
--- Only the editls client receives it (vim.lsp.buf.execute_command would ask every server).
function M.exec(command, args, on_result, bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    vim.notify('editls is not running for this buffer', vim.log.levels.WARN)
    return
  end
  local for_buffer = not WORKSPACE_WIDE[command] and bufnr or nil
  request(client, 'workspace/executeCommand', { command = command, arguments = { args } }, function(err, result)
    if err then
      notify_error(err)
    elseif result then
      if result.previewId then M.last_preview = result.previewId end
      -- With summary = "message" editls already sent the summary as window/showMessage.
      if M.options.init_options.summary ~= 'message' and result.message then vim.notify(result.message) end
      if on_result then on_result(result) end
    end
  end, for_buffer)
end

local function buffer_path(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then
    vim.notify('editls: the buffer has no file name', vim.log.levels.WARN)
    return nil
  end
  return vim.fn.fnamemodify(name, ':p')
end

local function replace_in_file(opts)
  local bufnr = vim.api.nvim_get_current_buf()
  local path = buffer_path(bufnr)
  if not path then return end
  vim.ui.input({ prompt = 'editls replace: ' }, function(search)
    if not search or search == '' then return end
    vim.ui.input({ prompt = ('replace %q with: '):format(search) }, function(replace)
      if replace == nil then return end
      local args = { path = path, search = search, replace = replace }
      if opts.range > 0 then
        args.start_line, args.end_line = opts.line1, opts.line2
      end
      M.exec('editls.searchAndReplace', args, nil, bufnr)
    end)
  end)
end

--- The text of the last visual selection ('< to '>), charwise or linewise.
local function visual_text(bufnr)
  local s = vim.api.nvim_buf_get_mark(bufnr, '<')
  local e = vim.api.nvim_buf_get_mark(bufnr, '>')
  local lines = vim.api.nvim_buf_get_lines(bufnr, s[1] - 1, e[1], false)
  if #lines == 0 then return nil end
  if vim.fn.visualmode() == 'V' then return table.concat(lines, '\n') end
  -- charwise: '> is the 0-based byte of the last character's start; include the whole character
  local last = lines[#lines]
  local stop = e[2] + 1
  local char = vim.fn.strcharpart(last:sub(stop), 0, 1)
  lines[#lines] = last:sub(1, stop + #char - 1)
  lines[1] = lines[1]:sub(s[2] + 1)
  return table.concat(lines, '\n')
end

local function str_replace_selection()
  local bufnr = vim.api.nvim_get_current_buf()
  local path = buffer_path(bufnr)
  local old = visual_text(bufnr)
  if not path or not old or old == '' then return end
  vim.ui.input({ prompt = 'replace selection with: ', default = old }, function(new)
    if new == nil or new == old then return end
    M.exec('editls.strReplace', { path = path, replacements = { { old = old, new = new } } }, nil, bufnr)
  end)
end

local function search_workspace(opts)
  local regex = opts.args
  if regex == '' then
    vim.ui.input({ prompt = 'editls search (regex): ' }, function(r)
      if r and r ~= '' then search_workspace({ args = r }) end
    end)
    return
  end
  local client = M.client(vim.api.nvim_get_current_buf())
  if not client then return end
  M.exec('editls.searchFiles', { path = '.', regex = regex }, function(result)
    local root = client.config.root_dir or vim.fn.getcwd()
    local locations = {}
    for _, m in ipairs(result.matches or {}) do
      table.insert(locations, { uri = vim.uri_from_fname(root .. '/' .. m.path), range = m.range })
    end
    local items = vim.lsp.util.locations_to_items(locations, client.offset_encoding)
    -- locations_to_items reads the lines from disk; show editls's text (the unsaved buffer's) instead
    for i, m in ipairs(result.matches or {}) do
      if items[i] then items[i].text = m.text end
    end
    vim.fn.setqflist({}, ' ', { title = 'editls search: ' .. regex, items = items })
    if #items > 0 then vim.cmd('copen') end
    vim.notify(('editls: %d match%s%s'):format(#items, #items == 1 and '' or 'es', result.truncated and ' (truncated)' or ''))
  end)
end

local function preview_command(command)
  return function(opts)
    local id = opts.args ~= '' and opts.args or M.last_preview
    if not id then
      vim.notify('editls: no pending preview (run a command with apply = "preview" first)', vim.log.levels.WARN)
      return
    end
    M.exec(command, { id = id }, function()
      if M.last_preview == id then M.last_preview = nil end
    end)
  end
end

--- Quickfix items for a preview's WorkspaceEdit: one per changed range, showing the new text.
local function preview_items(result, client)
  local locations, texts = {}, {}
  local function add(uri, edits)
    for _, e in ipairs(edits) do
      table.insert(locations, { uri = uri, range = e.range })
      table.insert(texts, ('-> %s'):format((e.newText:gsub('\n', '\\n'))))
    end
  end
  local edit = result.edit or {}
  for _, change in ipairs(edit.documentChanges or {}) do
    if change.textDocument then add(change.textDocument.uri, change.edits) end
  end
  for uri, edits in pairs(edit.changes or {}) do add(uri, edits) end
  local items = vim.lsp.util.locations_to_items(locations, client.offset_encoding)
  for i, item in ipairs(items) do item.text = (item.text or '') .. '  ' .. (texts[i] or '') end
  return items
end

local function replace_all(opts)
  local args = { apply = 'preview' }
  local rest = {}
  local fargs = opts.fargs
  local i = 1
  while i <= #fargs do
    local a = fargs[i]
    if a == '-r' then args.use_regex = true
    elseif a == '-i' then args.ignore_case = true
    elseif a == '-p' then args.preserve_case = true
    elseif a == '-g' then i = i + 1; args.file_pattern = fargs[i]
    else table.insert(rest, a) end
    i = i + 1
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then return end
  local function run(search, replace)
    args.search, args.replace = search, replace
    M.exec('editls.replaceInFiles', args, function(result)
      local items = preview_items(result, client)
      vim.fn.setqflist({}, ' ', { title = ('editls replace %s -> %s (preview %s)'):format(search, replace, result.previewId or '-'), items = items })
      if #items > 0 then vim.cmd('copen') end
    end, bufnr)
  end
  if #rest >= 2 then return run(rest[1], table.concat(rest, ' ', 2)) end
  vim.ui.input({ prompt = 'editls replace in files: ', default = rest[1] }, function(search)
    if not search or search == '' then return end
    vim.ui.input({ prompt = ('replace %q everywhere with: '):format(search) }, function(replace)
      if replace ~= nil then run(search, replace) end
    end)
  end)
end

local function undo_last(opts)
  local bufnr = vim.api.nvim_get_current_buf()
  if opts.bang then
    M.exec('editls.undo', vim.empty_dict(), nil, bufnr)
    return
  end
  local path = buffer_path(bufnr)
  if path then M.exec('editls.undo', { path = path }, nil, bufnr) end
end

local function define_commands()
  local cmd = vim.api.nvim_create_user_command
  cmd('EditlsReplace', replace_in_file, { range = true, desc = 'editls: replace in the current file' })
  cmd('EditlsStrReplace', str_replace_selection, { range = true, desc = 'editls: replace the visual selection' })
  cmd('EditlsSearch', search_workspace, { nargs = '?', desc = 'editls: search the workspace into the quickfix list' })
  cmd('EditlsSymbols', function(opts) vim.lsp.buf.workspace_symbol(opts.args ~= '' and opts.args or nil) end, { nargs = '?', desc = 'editls: workspace symbols' })
  cmd('EditlsApplyPreview', preview_command('editls.applyPreview'), { nargs = '?', desc = 'editls: apply the pending preview' })
  cmd('EditlsDiscardPreview', preview_command('editls.discardPreview'), { nargs = '?', desc = 'editls: discard the pending preview' })
  cmd('EditlsReplaceAll', replace_all, { nargs = '*', desc = 'editls: replace in every file (a preview in the quickfix list)' })
  cmd('EditlsUndo', undo_last, { bang = true, desc = 'editls: undo the last editls change to this file (! = the last editls command)' })
end

--- Starts (or reuses) the editls client for the buffer's workspace and attaches it (0.7-0.10).
function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if vim.bo[bufnr].buftype ~= '' then return nil end
  local root = find_root(bufnr)
  for _, c in ipairs(vim.lsp.get_active_clients()) do
    if c.name == 'editls' and c.config.root_dir == root then
      vim.lsp.buf_attach_client(bufnr, c.id)
      return c.id
    end
  end
  local id = vim.lsp.start_client({
    name = 'editls',
    cmd = M.options.cmd or default_cmd(),
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = M.options.init_options,
  })
  if id then vim.lsp.buf_attach_client(bufnr, id) end
  return id
end

function M.setup(opts)
  M.options = vim.tbl_deep_extend('force', M.options, opts or {})
  define_commands()
  if has_011 then
    vim.lsp.config('editls', {
      cmd = M.options.cmd or default_cmd(),
      root_markers = M.options.root_markers,
      init_options = M.options.init_options,
      -- no `filetypes`: editls serves every file
    })
    vim.lsp.enable('editls')
    return
  end
  local group = vim.api.nvim_create_augroup('editls', { clear = true })
  vim.api.nvim_create_autocmd('BufReadPost', { group = group, callback = function(ev) M.attach(ev.buf) end })
  -- buffers that are already open
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.api.nvim_buf_get_name(b) ~= '' then M.attach(b) end
  end
end

return M
