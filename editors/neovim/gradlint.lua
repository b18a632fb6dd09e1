-- gradlint for Neovim 0.11+ (built-in LSP client): put this in init.lua, or copy the table
-- passed to vim.lsp.config into ~/.config/nvim/lsp/gradlint.lua and keep only vim.lsp.enable.
-- Needs `gradlint` on PATH (pip install gradlint-autograd; or set cmd to
-- { '/path/to/venv/bin/gradlint', 'lsp' }). Not `python -m gradlint lsp`: -m would import
-- modules from the folder Neovim was started in (docs/security.md).
vim.lsp.config('gradlint', {
  cmd = { 'gradlint', 'lsp' },
  filetypes = { 'python' },
  root_markers = { 'pyproject.toml', 'setup.cfg', 'setup.py', '.git' },
  -- Section `gradlint` (docs/lsp.md); rule selection otherwise comes from [tool.gradlint].
  settings = {
    gradlint = {
      -- select = { 'GL1', 'GL2' }, ignore = { 'GL403' },
      -- interpreter = '/path/to/venv/bin/python', -- runs "Check gradients" (default: the server's)
      dynamicChecks = true, -- "Check gradients of NAME" runs your code; false to never allow it
    },
  },
})
vim.lsp.enable('gradlint')
