# source: https://github.com/NJUNLP/GTS/issues/13
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: the optimizer lists the BERT encoder and the classification layer explicitly but leaves out model.feature_linear, which is used in forward, so that layer stays at its random initialisation
# expect: line 38 — the explicit parameter groups omit model.feature_linear; it receives gradients but is never updated
# checked: ran, reproduces (feature_linear does not change after a step)

import torch


class MultiInferBert(torch.nn.Module):
    def __init__(self, args):
        super(MultiInferBert, self).__init__()
        self.args = args
        self.bert = torch.nn.Linear(16, args.bert_feature_dim)
        self.cls_linear = torch.nn.Linear(args.bert_feature_dim * 2, args.class_num)
        self.feature_linear = torch.nn.Linear(args.bert_feature_dim * 2 + args.class_num * 3, args.bert_feature_dim * 2)
        self.dropout_output = torch.nn.Dropout(0.1)

    def forward(self, tokens):
        features = self.bert(tokens)
        pair = torch.cat([features, features], dim=-1)
        logits = self.cls_linear(pair)
        probs = torch.cat([pair, logits, logits, logits], dim=-1)
        pair = self.feature_linear(probs)
        return self.cls_linear(self.dropout_output(pair))


class Args:
    bert_feature_dim = 8
    class_num = 4
    lr = 5e-5


def train(args):
    model = MultiInferBert(args)
    optimizer = torch.optim.Adam([
        {'params': model.bert.parameters(), 'lr': 5e-5},
        {'params': model.cls_linear.parameters()}
    ], lr=5e-5)
    before = model.feature_linear.weight.clone()
    preds = model(torch.randn(2, 16))
    loss = torch.nn.functional.cross_entropy(preds, torch.tensor([0, 1]))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return torch.equal(before, model.feature_linear.weight)


unchanged = train(Args())
