# source: https://github.com/lululxvi/deepxde/issues/2011
# framework: torch
# family: A
# kind: loss-under-no-grad
# negative: only the conversion of the inputs and the requires_grad_() flag are under torch.no_grad(); the network itself runs outside it, so the outputs (and the PDE residual built from their input derivatives) are differentiable
# mimics: a torch.no_grad() block in the forward path of training
# expect: no finding
# checked: ran, no error

import numpy as np
import torch


class Model:
    def __init__(self, net):
        self.net = net
        self.opt = torch.optim.Adam(net.parameters(), lr=1e-3)

    def _compile_pytorch(self):
        def outputs(training, inputs):
            self.net.train(mode=training)
            with torch.no_grad():
                if isinstance(inputs, tuple):
                    inputs = tuple(
                        map(lambda x: torch.as_tensor(x).requires_grad_(), inputs)
                    )
                else:
                    inputs = torch.as_tensor(inputs)
                    inputs.requires_grad_()
            return self.net(inputs), inputs

        def train_step(inputs):
            y, x = outputs(True, inputs)
            dy_x = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), create_graph=True)[0]
            loss = torch.mean((dy_x - torch.cos(x)) ** 2)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            return loss.item()

        self.train_step = train_step


model = Model(torch.nn.Sequential(torch.nn.Linear(1, 16), torch.nn.Tanh(), torch.nn.Linear(16, 1)))
model._compile_pytorch()
print(model.train_step(np.linspace(0, 1, 32, dtype=np.float32)[:, None]))
