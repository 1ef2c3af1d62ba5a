-- editls for Neovim 0.7+ : start the server for the current buffer's project and attach it.
-- Put this file on your runtimepath (or :luafile it) and set EDITLS_JS to the bundle, e.g.
--   let $EDITLS_JS = expand('~/src/editls/dist/editls.js')
-- Call a command with :lua require('editls').exec('editls.edit', { file_path = ..., old_string = ..., new_string = ... })
local M = {}

local server = os.getenv('EDITLS_JS') or 'editls'

function M.start()
  local cmd = server:match('%.js$') and { 'node', server, '--stdio' } or { server, '--stdio' }
  local id = vim.lsp.start_client({
    name = 'editls',
    cmd = cmd,
    root_dir = vim.fn.getcwd(),
    init_options = { closedFiles = 'disk' },
  })
  if id then vim.lsp.buf_attach_client(0, id) end
  return id
end

--- Runs an editls command on the attached editls client and prints its summary line.
function M.exec(command, args)
  for _, client in pairs(vim.lsp.get_active_clients()) do
    if client.name == 'editls' then
      client.request('workspace/executeCommand', { command = command, arguments = { args } }, function(err, result)
        if err then
          vim.notify(('editls: %s (%s)'):format(err.message, err.data and err.data.kind or '?'), vim.log.levels.ERROR)
        elseif result then
          vim.notify(result.message or vim.inspect(result))
        end
      end, 0)
      return
    end
  end
  vim.notify('editls is not running (:lua require("editls").start())', vim.log.levels.WARN)
end

return M
