# source: https://github.com/ray-project/ray/pull/40940
# framework: torch
# family: C
# kind: history-kept-across-iterations
# negative: the merged fix (#40940): loss_sum += loss.item(), so the running total holds no graph and each step's graph is freed after its backward
# mimics: positive/1242_ray_finetune_loss_sum_tensor.py
# expect: no finding
# checked: ran, no error

import contextlib
import time
from types import SimpleNamespace

import torch
import torch.nn as nn
import torch.nn.functional as F


class Accelerator:
    device = torch.device("cpu")
    is_main_process = True

    def prepare(self, *objs):
        return objs

    def accumulate(self, model):
        return contextlib.nullcontext()

    def backward(self, loss):
        loss.backward()

    def print(self, *args):
        print(*args)


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, input_ids, labels):
        logits = self.head(self.emb(input_ids))
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1))
        return SimpleNamespace(loss=loss, logits=logits)


def training_function(num_epochs=1, steps=5):
    accelerator = Accelerator()
    model = TinyCausalLM()
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-6)
    lr_scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: 1.0)
    model, optimizer, lr_scheduler = accelerator.prepare(model, optimizer, lr_scheduler)

    for epoch in range(num_epochs):
        fwd_time_sum, bwd_time_sum, optim_step_time_sum = 0, 0, 0
        model.train()
        loss_sum = torch.tensor(0.0).to(accelerator.device)

        train_dataloader = [{"input_ids": ids, "labels": ids} for ids in torch.randint(0, 50, (steps, 2, 12))]

        for step, batch in enumerate(train_dataloader):
            with accelerator.accumulate(model):
                s_fwd = time.time()
                outputs = model(**batch)
                loss = outputs.loss
                loss_sum += loss.item()
                e_fwd = time.time()
                fwd_time_sum += e_fwd - s_fwd
                accelerator.backward(loss)

                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()

        accelerator.print("avg_train_loss_epoch", loss_sum.item() / (step + 1))
    return loss_sum


loss_sum = training_function()
print('loss_sum:', loss_sum)
