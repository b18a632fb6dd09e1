# source: https://github.com/pytorch/pytorch/issues/42368
# framework: torch
# family: F
# kind: func-transform-data-dependent
# pitfall: a model ensemble is run with vmap(functional_call(...)) over stacked parameters; forward converts the per-model letter index to NumPy (letter_index.clone().cpu().numpy()) to pick from a Python list, which is impossible on a batched tensor
# expect: line 29 — .numpy() on a tensor inside a vmap-transformed forward (data-dependent Python indexing is not supported)
# checked: ran, reproduces (RuntimeError under vmap)

import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import vmap
from torch.func import stack_module_state
from torch.func import functional_call

torch.manual_seed(0)


class SimpleMLP(nn.Module):
    def __init__(self):
        super(SimpleMLP, self).__init__()
        self.fc1 = nn.Linear(784, 128)
        self.fc2 = nn.Linear(128, 128)
        self.fc3 = nn.Linear(128, 10)

    def forward(self, x, letter_index, letters):
        letter_choice = letter_index.clone().cpu().numpy()
        print(letters[letter_choice])
        x = x.flatten(1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        x = F.relu(x)
        x = self.fc3(x)
        return x


device = 'cpu'
num_models = 10
letter_list = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']
data = torch.randn(100, 64, 1, 28, 28, device=device)
minibatches = data[:num_models]

models = [SimpleMLP().to(device) for _ in range(num_models)]
letter_nums = torch.arange(num_models)
params, buffers = stack_module_state(models)
base_model = copy.deepcopy(models[0]).to('meta')


def fmodel(params, buffers, x, letter_index):
    return functional_call(base_model, (params, buffers), (x, letter_index, letter_list))


predictions = vmap(fmodel)(params, buffers, minibatches, letter_nums)
