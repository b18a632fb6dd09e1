# source: variant of 3048_run_openai_gpt_no_zero_grad.py
# framework: torch
# family: C
# kind: missing-zero-grad
# pitfall: fine-tuning loop in a Trainer method; the scheduler is stepped after the optimizer, but zero_grad is never called
# expect: line 43 — self.optimizer.step() in the batch loop with no zero_grad
# checked: ran, reproduces (post-accumulate hook: gradient seen by the 2nd step == 2x the single-batch gradient)
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 8)
        self.lm_head = nn.Linear(8, 50)

    def forward(self, input_ids, labels):
        logits = self.lm_head(self.emb(input_ids))
        loss = nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten())
        return loss, logits


class FineTuner:
    def __init__(self, model, args):
        self.model = model
        self.args = args
        no_decay = ["bias", "LayerNorm.weight"]
        groups = [
            {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)], "weight_decay": 0.01},
            {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)], "weight_decay": 0.0},
        ]
        self.optimizer = torch.optim.AdamW(groups, lr=args.learning_rate)
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, lambda s: 1.0)

    def train(self, dataloader):
        self.model.train()
        for epoch in range(self.args.num_train_epochs):
            for step, batch in enumerate(dataloader):
                input_ids, labels = batch
                loss, _ = self.model(input_ids, labels)
                loss.backward()
                self.optimizer.step()
                self.scheduler.step()


if __name__ == "__main__":
    import argparse
    model = TinyLM()
    ft = FineTuner(model, argparse.Namespace(learning_rate=0.0, num_train_epochs=1))
    seen = []
    model.lm_head.weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    b = (torch.randint(0, 50, (2, 6)), torch.randint(0, 50, (2, 6)))
    ft.train([b, b])
    print("accumulated:", torch.allclose(seen[1], 2 * seen[0]))
