# source: https://github.com/laekov/fastmoe/issues/49
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: the Megatron patch collects each MoE layer's gate balance loss and combines them with torch.tensor(loss_list, ...).mean(); torch.tensor copies the values into a new leaf without history, so bal_loss adds to the reported loss but sends no gradient to the gates and the balance loss is never optimised
# expect: line 94 — torch.tensor(loss_list) drops the grad_fn of every balance loss; the merged fix (913d712) is torch.cat(loss_list).mean() * args.balance_loss_weight
# checked: ran, reproduces (the gate weights get no gradient from bal_loss); fmoe/megatron/balance.py patch_forward_step at 295a615 reduced (Megatron's get_args/is_pipeline_last_stage replaced by a namespace, no distributed averaging; a two-layer stand-in model whose gates keep a balance loss)

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
            (
                torch.tensor(
                    loss_list, device=loss_list[0].device
                ).mean()
                * args.balance_loss_weight
            ).float(),
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
