# a working program; --fix must not change what it prints (from the trust review's attack programs)
# safe-fix: none
import torch
from torch.autograd import gradcheck
torch.manual_seed(0)
x = torch.randn(6, requires_grad=True)
W = torch.randn(6, 6)
print(gradcheck(lambda v: W @ v, (x,), eps=1e-3, atol=1e-2, rtol=1e-2))
