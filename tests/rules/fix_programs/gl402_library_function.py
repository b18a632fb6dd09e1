# gradcheck of a library function: float64 inputs make the check precise and it still passes
# safe-fix: GL402
import torch
from torch.autograd import gradcheck
torch.manual_seed(0)
x = torch.randn(6, requires_grad=True)
print("gradcheck:", gradcheck(torch.sigmoid, (x,), eps=1e-3, atol=1e-2, rtol=1e-2))
