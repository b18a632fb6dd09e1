-- Headless Neovim 0.11: load editors/neovim/gradlint.lua as a user would, open a Python file,
-- wait for gradlint's diagnostics and write them (and the negotiated encoding) as JSON to OUT.
-- env: SNIPPET, FILE, OUT, TIMEOUT_MS
local out = assert(io.open(os.getenv('OUT'), 'w'))
local function finish(obj, code)
  out:write(vim.json.encode(obj))
  out:close()
  for _, c in ipairs(vim.lsp.get_clients()) do c:stop(true) end
  vim.wait(3000, function() return #vim.lsp.get_clients() == 0 end, 20)
  vim.cmd(code == 0 and 'qall!' or ('cquit ' .. code))
end

local detached = false -- the server exited (or never started): stop waiting
vim.api.nvim_create_autocmd('LspDetach', { callback = function() detached = true end })

dofile(os.getenv('SNIPPET'))
vim.cmd.edit(vim.fn.fnameescape(os.getenv('FILE')))
local buf = vim.api.nvim_get_current_buf()
vim.bo[buf].filetype = 'python' -- -u NONE does no filetype detection; this fires FileType

local timeout = tonumber(os.getenv('TIMEOUT_MS') or '30000')
local got = vim.wait(timeout, function()
  return #vim.diagnostic.get(buf) > 0 or detached
end, 50) and not detached
local client = vim.lsp.get_clients({ bufnr = buf, name = 'gradlint' })[1]
if not got then
  local log = table.concat(vim.fn.readfile(vim.lsp.get_log_path(), '', -20), '\n')
  return finish({ error = 'no diagnostics', attached = client ~= nil, detached = detached, lsp_log = log }, 2)
end
local diags = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(diags, { lnum = d.lnum, col = d.col, end_col = d.end_col, code = d.code,
                        source = d.source, severity = d.severity, message = d.message })
end
finish({ diagnostics = diags, encoding = client and client.offset_encoding or vim.NIL,
         root_dir = client and client.root_dir or vim.NIL }, 0)
