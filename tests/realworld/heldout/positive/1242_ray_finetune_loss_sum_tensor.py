# source: https://github.com/ray-project/ray/pull/40940
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the fine-tuning loop keeps an epoch total loss_sum = torch.tensor(0.0) and adds each step's loss tensor to it (loss_sum += loss); the sum carries the autograd history of every step, so the graphs cannot be freed and memory grows through the epoch (the leak the PR fixes)
# expect: line 66 — loss_sum += loss keeps every step's graph alive until the end of the epoch; the merged fix adds loss.item()
# checked: ran, reproduces (loss_sum carries a grad_fn after the epoch); doc/source/templates/04_finetuning_llms_with_deepspeed/finetune_hf_llm.py training loop before #40940, reduced (accelerate replaced by a minimal stand-in with the same calls, a small causal LM, no Ray reporting, evaluation or checkpointing)

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
                loss_sum += loss
                e_fwd = time.time()
                fwd_time_sum += e_fwd - s_fwd
                accelerator.backward(loss)

                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()

        accelerator.print("avg_train_loss_epoch", loss_sum.item() / (step + 1))
    return loss_sum


loss_sum = training_function()
print('loss_sum keeps a graph:', loss_sum.grad_fn is not None)
