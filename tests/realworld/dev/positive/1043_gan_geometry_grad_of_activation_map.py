# source: https://github.com/Animadversio/GAN-Geometry/issues/4
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: torch.autograd.grad is asked for the gradient of a whole activation tensor (one value per perturbation) without grad_outputs
# expect: line 24 — autograd.grad of a non-scalar output without grad_outputs raises "grad can be implicitly created only for scalar outputs"
# checked: ran, reproduces

import torch
import torch.nn as nn


class GANForwardHVPOperator:
    def __init__(self, model, objective, preprocess=lambda x: x):
        self.model = model
        self.objective = objective
        self.preprocess = preprocess

    def apply(self, perturb_vecs):
        perturb_vecs = perturb_vecs.detach().requires_grad_(True)
        img = self.model(perturb_vecs)
        resz_img = self.preprocess(img)
        activs = self.objective(resz_img)  # , scaler=True
        ftgrad_both = torch.autograd.grad(activs, perturb_vecs, retain_graph=False, create_graph=False, only_inputs=True)[0]
        return ftgrad_both


G = nn.Sequential(nn.Linear(16, 32), nn.Tanh())
objective = nn.Linear(32, 4)
op = GANForwardHVPOperator(G, objective)
print(op.apply(torch.randn(3, 16)).shape)
