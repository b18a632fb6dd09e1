# a gradient penalty differentiated without create_graph=True: GL203's fix changes the gradient
# the critic receives (that is the bug), so it is an editor fix, not applied by --fix
# safe-fix: none
import torch
torch.manual_seed(0)
critic = torch.nn.Linear(2, 1)
interp = torch.randn(4, 2).requires_grad_(True)
out = critic(interp)
grads = torch.autograd.grad(outputs=out, inputs=interp, grad_outputs=torch.ones_like(out))[0]
print("grad norm", [round(v, 5) for v in grads.norm(2, dim=1).tolist()])
penalty = ((grads.norm(2, dim=1) - 1) ** 2).mean()
(critic(torch.randn(8, 2)).mean() + 10 * penalty).backward()
print("ok")
