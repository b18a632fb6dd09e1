# a working program; --fix must not change what it prints (from the trust review's attack programs)
# safe-fix: none
import torch
torch.manual_seed(0)
critic = torch.nn.Linear(2, 1)
interp = torch.randn(4, 2).requires_grad_(True)
out = critic(interp)
grads = torch.autograd.grad(outputs=out, inputs=interp, grad_outputs=torch.ones_like(out))[0]
print("grad norm", grads.norm(2, dim=1).numpy())
penalty = ((grads.norm(2, dim=1) - 1) ** 2).mean()
(critic(torch.randn(8, 2)).mean() + 10 * penalty).backward()
print("ok")
