# source: https://github.com/laekov/fastmoe/issues/49
# framework: torch
# family: A
# kind: tensor-rewrap
# negative: the merged fix (913d712, 'use cat instead of creating new tensor'): torch.cat(loss_list).mean() keeps the balance losses in the graph, so they reach the gates
# mimics: positive/1227_fastmoe_balance_loss_torch_tensor_of_losses.py
# expect: no finding
# checked: ran, no error; the gates receive the balance-loss gradient

from types import SimpleNamespace

import torch
import torch.nn as nn


ARGS = SimpleNamespace(balance_strategy="gshard", balance_loss_weight=1.0)


def get_args():
    return ARGS


class Gate(nn.Module):
    def __init__(self, d_model=8, num_expert=4):
        super().__init__()
        self.gate = nn.Linear(d_model, num_expert)
        self.loss = None

    def forward(self, x):
        score = torch.softmax(self.gate(x), dim=-1)
        self.loss = (score.mean(0) * num_tokens_per_expert(score)).sum().unsqueeze(0)
        return score

    def get_loss(self, clear=True):
        loss = self.loss
        if clear:
            self.loss = None
        return loss


def num_tokens_per_expert(score):
    return torch.nn.functional.one_hot(score.argmax(-1), score.shape[-1]).float().mean(0)


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Module()
        self.mlp.gate = Gate()

    def forward(self, x):
        return x * self.mlp.gate(x).sum(-1, keepdim=True)


class GPTModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.language_model = nn.Module()
        self.language_model.transformer = nn.Module()
        self.language_model.transformer.layers = nn.ModuleList([Layer(), Layer()])

    def forward(self, x):
        for layer in self.language_model.transformer.layers:
            x = layer(x)
        return x


def forward_step(data_iterator, model, input_tensor):
    x = next(data_iterator)
    loss = model(x).pow(2).mean()
    return loss, {"lm loss": loss.detach()}


def patch_forward_step(forward_step_func):
    r"""
    Patch model's forward_step_func to support balance loss
    """

    if not get_args().balance_strategy:
        return forward_step_func

    def forward_step_with_balance_loss(data_iterator, model, input_tensor):
        args = get_args()
        output = forward_step_func(data_iterator, model, input_tensor)

        loss_name = args.balance_strategy + "_loss"

        if hasattr(model, 'module'):
            model = model.module

        loss_list = [l.mlp.gate.get_loss(clear=False) for l in model.language_model.transformer.layers]
        (loss, state_dict), bal_loss = (
            output,
            torch.cat(loss_list).mean() * args.balance_loss_weight
        )

        averaged_bal_loss = bal_loss.clone().detach()

        loss += bal_loss
        state_dict[loss_name] = averaged_bal_loss

        return loss, state_dict

    return forward_step_with_balance_loss


model = GPTModel()
step = patch_forward_step(forward_step)
loss, state = step(iter([torch.randn(16, 8)]), model, None)
loss.backward()
