-- gradlint with nvim-lspconfig's setup() (Neovim 0.10, or configs written for lspconfig):
-- gradlint is not among lspconfig's bundled servers, so it is registered as a custom one.
local configs = require('lspconfig.configs')
if not configs.gradlint then
  configs.gradlint = {
    default_config = {
      cmd = { 'gradlint', 'lsp' },
      filetypes = { 'python' },
      root_dir = require('lspconfig.util').root_pattern('pyproject.toml', 'setup.cfg', 'setup.py', '.git'),
      single_file_support = true,
      settings = { gradlint = { dynamicChecks = true } },
    },
    docs = { description = 'gradlint: linter and gradient checker for autograd code (PyTorch, TensorFlow, JAX)' },
  }
end
require('lspconfig').gradlint.setup({})
