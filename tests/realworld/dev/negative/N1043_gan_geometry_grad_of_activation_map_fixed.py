# source: https://github.com/Animadversio/GAN-Geometry/issues/4
# framework: torch
# family: F
# kind: backward-nonscalar
# negative: the fix the reporter applied and the author confirmed: the activations are reduced to a scalar with .mean() before autograd.grad
# mimics: positive/1043_gan_geometry_grad_of_activation_map.py
# expect: no finding
# checked: ran, no error

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
        ftgrad_both = torch.autograd.grad(activs.mean(), perturb_vecs, retain_graph=False, create_graph=False, only_inputs=True)[0]
        return ftgrad_both


G = nn.Sequential(nn.Linear(16, 32), nn.Tanh())
objective = nn.Linear(32, 4)
op = GANForwardHVPOperator(G, objective)
print(op.apply(torch.randn(3, 16)).shape)
