# source: https://github.com/huggingface/transformers/issues/340
# framework: torch
# family: C
# kind: missing-zero-grad
# pitfall: The fine-tuning loop of run_openai_gpt.py calls loss.backward(); optimizer.step() with no zero_grad between minibatches.
# expect: line 72 — optimizer.step() in the batch loop with no zero_grad
# checked: ran, reproduces (lm_head grad norm doubles on the 2nd identical batch: [g, 2g])
import argparse
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, RandomSampler, TensorDataset

trange = lambda n, desc=None: range(n)  # stubs for tqdm
tqdm = lambda it, desc=None: it


class OpenAIGPTDoubleHeadsModel(nn.Module):
    # stub: returns (lm_loss, mc_loss) when labels are given
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 8)
        self.lm_head = nn.Linear(8, 50)
        self.mc_head = nn.Linear(8, 1)

    def forward(self, input_ids, mc_token_ids, lm_labels, mc_labels):
        h = self.emb(input_ids)                                    # (B, C, L, H)
        lm_loss = nn.functional.cross_entropy(self.lm_head(h).flatten(0, 2), lm_labels.flatten())
        mc_logits = self.mc_head(h.mean(2)).squeeze(-1)            # (B, C)
        mc_loss = nn.functional.cross_entropy(mc_logits, mc_labels)
        return lm_loss, mc_loss


def main():
    # stub for argparse defaults of examples/run_openai_gpt.py
    args = argparse.Namespace(do_train=True, num_train_epochs=1, train_batch_size=1, learning_rate=0.0, lm_coef=0.9)
    device = torch.device("cpu")
    model = OpenAIGPTDoubleHeadsModel()
    model.to(device)

    n = 2  # two identical examples, so every step sees the same per-batch gradient
    train_data = TensorDataset(torch.randint(0, 50, (1, 2, 6)).repeat(n, 1, 1), torch.zeros(n, 2, dtype=torch.long),
                               torch.randint(0, 50, (1, 2, 6)).repeat(n, 1, 1), torch.randint(0, 2, (1,)).repeat(n))
    train_sampler = RandomSampler(train_data)
    train_dataloader = DataLoader(train_data, sampler=train_sampler, batch_size=args.train_batch_size)

    # Prepare optimizer
    param_optimizer = list(model.named_parameters())
    no_decay = ['bias', 'LayerNorm.bias', 'LayerNorm.weight']
    optimizer_grouped_parameters = [
        {'params': [p for n, p in param_optimizer if not any(nd in n for nd in no_decay)], 'weight_decay': 0.01},
        {'params': [p for n, p in param_optimizer if any(nd in n for nd in no_decay)], 'weight_decay': 0.0}
        ]
    optimizer = torch.optim.Adam(optimizer_grouped_parameters,  # stub for OpenAIAdam(...)
                                 lr=args.learning_rate)

    grad_norms = []
    model.lm_head.weight.register_post_accumulate_grad_hook(lambda p: grad_norms.append(p.grad.norm().item()))

    if args.do_train:
        nb_tr_steps = 0
        tr_loss = 0
        model.train()
        for _ in trange(int(args.num_train_epochs), desc="Epoch"):
            tr_loss = 0
            nb_tr_examples, nb_tr_steps = 0, 0
            for step, batch in enumerate(tqdm(train_dataloader, desc="Iteration")):
                batch = tuple(t.to(device) for t in batch)
                input_ids, mc_token_mask, lm_labels, mc_labels = batch
                losses = model(input_ids, mc_token_mask, lm_labels, mc_labels)
                loss = args.lm_coef * losses[0] + losses[1]
                loss.backward()
                optimizer.step()
                tr_loss += loss.item()
                nb_tr_examples += input_ids.size(0)
                nb_tr_steps += 1

    print("lm_head grad norm seen by each step:", [round(g, 3) for g in grad_norms])


if __name__ == '__main__':
    main()
