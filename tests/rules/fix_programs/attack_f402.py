# a working program; --fix must not change what it prints (from the trust review's attack programs)
# safe-fix: none
import torch
from torch.autograd import gradcheck
torch.manual_seed(0)
lin = torch.nn.Linear(5, 3)
x = torch.randn(2, 5, requires_grad=True)
print("gradcheck:", gradcheck(lin, (x,), eps=1e-3, atol=1e-2, rtol=1e-2))
