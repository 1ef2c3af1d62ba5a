-- editls for Neovim: starts editls next to your other language servers and adds user commands.
-- Works on Neovim 0.7-0.10 (vim.lsp.start_client, tested on 0.7.2 in editls's CI) and on 0.11+
-- (vim.lsp.config / vim.lsp.enable, written from the 0.11 docs; not run in CI).
--
-- Install:
--   npm install -g editls                 (puts `editls` on PATH; or use a checkout: see `cmd` below)
--   copy this file to ~/.config/nvim/lua/editls.lua and put in init.lua:
--     require('editls').setup()
--   or, without copying it:  :luafile /path/to/editls.lua  then  :lua require('editls').setup()
--   (loading the file registers it as the module 'editls').
-- Options (all optional): `cmd` defaults to $EDITLS_JS (run with node), else { 'editls', '--stdio' }
-- (from a checkout: cmd = { 'node', '/path/to/editls/dist/editls.js', '--stdio' }, or
-- { 'npx', 'editls', '--stdio' } inside a project that has it installed); `init_options` are editls
-- settings (see the README); `root_markers` find the workspace folder; `fit_messages` (default true)
-- shows each editls message on one line that fits the command line (no "Press ENTER"); the full
-- texts are kept for :EditlsMessages.
-- editls starts with the first file you open (BufReadPost); `:LspInfo` (nvim-lspconfig) or
-- `:lua print(vim.inspect(require('editls').client()))` shows it.
--
-- Commands (each reports editls's one-line summary once; errors show their kind, e.g. not_found):
--   :EditlsReplace[!]        replace in the current file (asks for the text and the replacement;
--                            with a range, e.g. :'<,'>EditlsReplace, only in those lines);
--                            ! makes a preview instead (hint diagnostics, :EditlsApplyPreview)
--   :'<,'>EditlsStrReplace[!] replace exactly the visual selection (v or V; the range, so one of five
--                            equal words is fine): a selection within a line asks for the new text,
--                            a several-line one opens it in a scratch buffer: edit it, :w replaces
--                            the selection (refused if it changed meanwhile), :q abandons; ! previews
--   :EditlsSearch {regex}    search the workspace (ripgrep syntax) into the quickfix list;
--                            unsaved buffers are searched as you see them
--   :EditlsSymbols [query]   workspace symbols into the quickfix list (works from any window)
--   :'<,'>EditlsCodeAction   editls's code actions for the selected lines (on 0.7 a visual range needs
--                            vim.lsp.buf.range_code_action(), which this calls; 0.8+: code_action{range})
--   :EditlsApplyPreview [id] apply the pending preview (default: the latest one)
--   :EditlsDiscardPreview [id]
--   :EditlsReplaceAll [-r] [-i] [-p] [-g GLOB] [-m N] {search} {replace}
--                            replace in every file of the workspace: a preview whose matches fill
--                            the quickfix list (unsaved buffers included); :EditlsApplyPreview applies
--                            it all (one undo per buffer, closed files written to disk), :EditlsUndo!
--                            reverts it; -r regex, -i ignore case, -p preserve case, -g file glob,
--                            -m N at most N changed files (default 1000; more is refused, unchanged);
--                            without {search} {replace} it asks for them
--   :EditlsUndo              revert the last editls change to the current file (also one written to
--                            disk while the file was closed); :EditlsUndo! reverts the last editls
--                            command, whatever file it changed
--   :EditlsMessages          editls's recent messages in full
-- Previews also show as hint diagnostics with "editls: apply previewed edit …" / "discard" code
-- actions (vim.lsp.buf.code_action(), `gra` on 0.11), next to the no-input actions (trailing
-- whitespace, mixed line endings). One `u` undoes one editls command.
local M = {}
-- `:luafile editls.lua` then `require('editls')` finds this same table.
package.loaded['editls'] = M

local has_011 = vim.fn.has('nvim-0.11') == 1

M.options = {
  cmd = nil,
  -- Helix-style feedback for every command; set to 'log' to keep quiet.
  init_options = { summary = 'message' },
  root_markers = { '.git', '.hg', 'package.json', 'pyproject.toml', 'Cargo.toml', 'go.mod' },
  -- One line that fits the command line per message (the full texts: :EditlsMessages).
  fit_messages = true,
}

--- Recent editls messages in full (newest last), for :EditlsMessages.
M.messages = {}

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

--- Shows one editls message: kept in full in M.messages, shown as one line that fits the command
--- line (a longer text would stop at "Press ENTER"), through vim.notify.
function M.show(msg, level)
  table.insert(M.messages, msg)
  if #M.messages > 100 then table.remove(M.messages, 1) end
  local line = msg
  if M.options.fit_messages then
    line = msg:gsub('%s*[\r\n]+%s*', ' ')
    local width = math.max((vim.v.echospace or vim.o.columns - 12) - 1, 20)
    if vim.fn.strdisplaywidth(line) > width then
      local n = width
      while n > 0 and vim.fn.strdisplaywidth(vim.fn.strcharpart(line, 0, n)) > width - 1 do n = n - 1 end
      line = vim.fn.strcharpart(line, 0, n) .. '…'
    end
  end
  vim.notify(line, level)
end

local function error_text(err)
  local kind = type(err.data) == 'table' and err.data.kind or nil
  -- the kind first: it survives when a long message is cut to fit
  return ('editls (%s): %s'):format(kind or ('error ' .. tostring(err.code)), err.message)
end

--- With summary = "message" editls itself reports every result and failure (window/showMessage,
--- failures with their kind), so the client shows nothing more; else it shows them here.
local function server_reports() return M.options.init_options.summary == 'message' end

local function notify_error(err)
  -- editls summarises the failures of its commands (they carry a kind); anything else is shown here
  local kind = type(err.data) == 'table' and err.data.kind or nil
  if not server_reports() or not kind then M.show(error_text(err), vim.log.levels.ERROR) end
end

local LEVELS = { vim.log.levels.ERROR, vim.log.levels.WARN, vim.log.levels.INFO, vim.log.levels.DEBUG }

--- The editls client's own handlers: its messages shown once and fitted, and the replies of commands
--- run from code actions (which Neovim 0.7 would show as "editls: -32803: ..." without the kind).
M.handlers = {
  ['window/showMessage'] = function(_, result)
    M.show(result.message, LEVELS[result.type] or vim.log.levels.INFO)
    return vim.NIL
  end,
  ['workspace/executeCommand'] = function(err, result)
    if err then
      notify_error(err)
    elseif type(result) == 'table' then
      if result.previewId then M.last_preview = result.previewId end
      if not server_reports() and result.message then M.show(result.message, vim.log.levels.INFO) end
    end
  end,
}

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
      if not server_reports() and result.message then M.show(result.message, vim.log.levels.INFO) end
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
      if opts.bang then args.apply = 'preview' end
      if opts.range > 0 then
        args.start_line, args.end_line = opts.line1, opts.line2
      end
      M.exec('editls.searchAndReplace', args, nil, bufnr)
    end)
  end)
end

--- The last visual selection ('< to '>) as an editls.replaceRange range: 1-based lines, 1-based
--- UTF-16 columns, exclusive end; `text` exactly as the server holds it (a 'dos' buffer's \r\n).
--- Charwise (v) selects from the first character to the end of the last; linewise (V) whole lines
--- without the last line break. Blockwise (CTRL-V) is not a range: nil and why.
local function visual_range(bufnr)
  local mode = vim.fn.visualmode()
  if mode ~= 'v' and mode ~= 'V' then return nil, 'select with v or V (a block is not one range)' end
  local s = vim.api.nvim_buf_get_mark(bufnr, '<')
  local e = vim.api.nvim_buf_get_mark(bufnr, '>')
  local lines = vim.api.nvim_buf_get_lines(bufnr, s[1] - 1, e[1], false)
  if #lines == 0 then return nil, 'no selection' end
  local first, last = lines[1], lines[#lines]
  local start_byte, end_byte
  if mode == 'V' then
    start_byte, end_byte = 0, #last
  else
    start_byte = math.min(s[2], #first)
    -- '> is the 0-based byte where the last character starts: include the whole character
    local stop = math.min(e[2], #last)
    end_byte = stop + #vim.fn.strcharpart(last:sub(stop + 1), 0, 1)
  end
  local eol = vim.bo[bufnr].fileformat == 'dos' and '\r\n' or (vim.bo[bufnr].fileformat == 'mac' and '\r' or '\n')
  local parts = vim.deepcopy(lines)
  parts[#parts] = last:sub(1, end_byte)
  parts[1] = parts[1]:sub(start_byte + 1)
  local _, start_col = vim.str_utfindex(first, start_byte)
  local _, end_col = vim.str_utfindex(last, end_byte)
  return {
    startLine = s[1], startColumn = start_col + 1, endLine = e[1], endColumn = end_col + 1,
    text = table.concat(parts, eol), lines = parts, eol = eol,
  }
end

local function replace_range(bufnr, path, range, new, preview, on_done)
  local args = {
    filePath = path, startLine = range.startLine, startColumn = range.startColumn,
    endLine = range.endLine, endColumn = range.endColumn,
    expectedText = range.text, replacementText = new,
  }
  if preview then args.apply = 'preview' end
  M.exec('editls.replaceRange', args, on_done, bufnr)
end

local scratch_count = 0

--- A several-line selection is edited in a scratch buffer; :w sends it as the replacement.
local function edit_in_scratch(bufnr, path, range, preview)
  scratch_count = scratch_count + 1
  vim.cmd('belowright new')
  local scratch = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_name(scratch, ('editls://replace/%d/%s'):format(scratch_count, vim.fn.fnamemodify(path, ':t')))
  vim.bo[scratch].buftype = 'acwrite'
  vim.bo[scratch].bufhidden = 'wipe'
  vim.bo[scratch].swapfile = false
  vim.bo[scratch].filetype = vim.bo[bufnr].filetype
  vim.api.nvim_buf_set_lines(scratch, 0, -1, false, range.lines)
  vim.bo[scratch].modified = false
  vim.api.nvim_create_autocmd('BufWriteCmd', {
    buffer = scratch,
    callback = function()
      local new = table.concat(vim.api.nvim_buf_get_lines(scratch, 0, -1, false), range.eol)
      replace_range(bufnr, path, range, new, preview, function()
        if vim.api.nvim_buf_is_valid(scratch) then
          vim.bo[scratch].modified = false
          local win = vim.fn.bufwinid(scratch)
          if win ~= -1 and #vim.api.nvim_list_wins() > 1 then vim.api.nvim_win_close(win, true) end
        end
      end)
    end,
  })
end

local function str_replace_selection(opts)
  local bufnr = vim.api.nvim_get_current_buf()
  local path = buffer_path(bufnr)
  if not path then return end
  local range, why = visual_range(bufnr)
  if not range then
    vim.notify('editls: ' .. why, vim.log.levels.WARN)
    return
  end
  if range.text == '' then
    vim.notify('editls: the selection is empty', vim.log.levels.WARN)
    return
  end
  if #range.lines > 1 then return edit_in_scratch(bufnr, path, range, opts.bang) end
  vim.ui.input({ prompt = 'replace selection with: ', default = range.text }, function(new)
    if new == nil or new == range.text then return end
    replace_range(bufnr, path, range, new, opts.bang)
  end)
end

--- One quickfix item for one location, labelled `text`. Each location on its own: locations_to_items
--- sorts what it is given by file and line, so labels matched by index would land on other lines
--- (editls ranks symbols; its search results come in path order already).
local function item_at(location, client, text)
  local item = vim.lsp.util.locations_to_items({ location }, client.offset_encoding)[1]
  if item then item.text = text end
  return item
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
    local items = {}
    for _, m in ipairs(result.matches or {}) do
      -- editls's text (the unsaved buffer's line), not the disk's that locations_to_items reads
      local item = item_at({ uri = vim.uri_from_fname(root .. '/' .. m.path), range = m.range }, client, m.text)
      if item then table.insert(items, item) end
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
    elseif a == '-m' then
      i = i + 1
      local n = tonumber(fargs[i] or '')
      if not n or n < 1 or n % 1 ~= 0 then
        vim.notify('editls: -m takes a whole number of files, 1 or more (e.g. -m 5000)', vim.log.levels.ERROR)
        return
      end
      args.max_files = n
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

--- workspace/symbol from editls itself (not through the current buffer, which may be the quickfix
--- window's), into the quickfix list.
local function symbols(opts)
  local query = opts.args
  if query == '' then
    vim.ui.input({ prompt = 'editls symbols: ' }, function(q)
      if q and q ~= '' then symbols({ args = q }) end
    end)
    return
  end
  local client = M.client(vim.api.nvim_get_current_buf())
  if not client then
    vim.notify('editls is not running', vim.log.levels.WARN)
    return
  end
  request(client, 'workspace/symbol', { query = query }, function(err, result)
    if err then return M.show(error_text(err), vim.log.levels.ERROR) end
    local items = {}
    for _, sym in ipairs(result or {}) do
      if sym.location and sym.location.range then
        local kind = vim.lsp.protocol.SymbolKind[sym.kind] or 'Symbol'
        local label = ('[%s] %s%s'):format(kind, sym.name, sym.containerName and sym.containerName ~= '' and (' in ' .. sym.containerName) or '')
        local item = item_at(sym.location, client, label)
        if item then table.insert(items, item) end
      end
    end
    vim.fn.setqflist({}, ' ', { title = 'editls symbols: ' .. query, items = items })
    if #items > 0 then vim.cmd('botright copen') else vim.notify(('editls: no symbol matches %q'):format(query)) end
  end, nil)
end

--- Code actions for the lines of a range (0.7 needs range_code_action for a visual range).
local function code_action(opts)
  if opts.range == 0 then return vim.lsp.buf.code_action() end
  local last = vim.api.nvim_buf_get_lines(0, opts.line2 - 1, opts.line2, false)[1] or ''
  local s, e = { opts.line1, 0 }, { opts.line2, #last }
  if vim.fn.has('nvim-0.8') == 1 then
    vim.lsp.buf.code_action({ range = { start = s, ['end'] = e } })
  else
    vim.lsp.buf.range_code_action(nil, s, e)
  end
end

local function show_messages()
  if #M.messages == 0 then return vim.notify('editls: no messages yet') end
  vim.cmd('botright new')
  local b = vim.api.nvim_get_current_buf()
  vim.bo[b].buftype = 'nofile'
  vim.bo[b].bufhidden = 'wipe'
  local lines = {}
  for _, m in ipairs(M.messages) do vim.list_extend(lines, vim.split(m, '\n', { plain = true })) end
  vim.api.nvim_buf_set_lines(b, 0, -1, false, lines)
  vim.bo[b].modifiable = false
end

local function define_commands()
  local cmd = vim.api.nvim_create_user_command
  cmd('EditlsReplace', replace_in_file, { range = true, bang = true, desc = 'editls: replace in the current file (! = preview)' })
  cmd('EditlsStrReplace', str_replace_selection, { range = true, bang = true, desc = 'editls: replace the visual selection (! = preview)' })
  cmd('EditlsSearch', search_workspace, { nargs = '?', desc = 'editls: search the workspace into the quickfix list' })
  cmd('EditlsSymbols', symbols, { nargs = '?', desc = 'editls: workspace symbols into the quickfix list' })
  cmd('EditlsCodeAction', code_action, { range = true, desc = 'editls: code actions (for the selected lines with a range)' })
  cmd('EditlsMessages', show_messages, { desc = 'editls: recent messages in full' })
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
    handlers = M.handlers,
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
      handlers = M.handlers,
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
