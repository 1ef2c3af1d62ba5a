-- What every headless Neovim driver in test/editors/ shares: the environment ($WS, $SERVER, $OUT,
-- $REPO), recording results (put), a file's bytes on disk, a buffer's text as Neovim sends it to
-- servers, waiting, and writing what was recorded as JSON to $OUT before quitting (finish).
local D = {}
D.ws, D.server, D.outfile, D.repo = os.getenv('WS'), os.getenv('SERVER'), os.getenv('OUT'), os.getenv('REPO')
D.R = {}

function D.put(k, v)
  if v == nil then v = vim.NIL end
  D.R[k] = v
end

function D.path(name) return D.ws .. '/' .. name end

function D.disk(name)
  local f = io.open(D.path(name), 'rb')
  if not f then return nil end
  local s = f:read('*a')
  f:close()
  return s
end

--- The buffer's text as Neovim sends it to servers (lines joined, final newline per 'eol').
function D.text_of(b)
  local text = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n')
  if vim.api.nvim_buf_get_option(b, 'eol') then text = text .. '\n' end
  return text
end

function D.wait(ms, cond) return vim.wait(ms, cond, 10) end

--- Records whether the driver's scenarios ran through, writes everything as JSON to $OUT, quits.
function D.finish(ok, err)
  D.put('ok', ok)
  if not ok then D.put('error', tostring(err)) end
  local f = assert(io.open(D.outfile, 'w'))
  f:write(vim.fn.json_encode(D.R))
  f:close()
  vim.cmd('qall!')
end

return D
