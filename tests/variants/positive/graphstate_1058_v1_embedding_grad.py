# source: variant of 1058_conv_y_grad_none_variable.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: adversarial-NLP style: the embedding output (an intermediate, not a leaf) is expected to hold a gradient after backward; emb.grad is None
# expect: line 27 — emb is the output of the embedding layer: emb.grad stays None (use emb.retain_grad())
# checked: ran, reproduces (AttributeError: 'NoneType' object has no attribute 'sign')
import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self, vocab=100, dim=16):
        super().__init__()
        self.embedding = nn.Embedding(vocab, dim)
        self.fc = nn.Linear(dim, 2)

    def forward_from_embeddings(self, emb):
        return self.fc(emb.mean(1))


model = Classifier()
tokens = torch.randint(0, 100, (2, 7))
emb = model.embedding(tokens)
loss = nn.functional.cross_entropy(model.forward_from_embeddings(emb), torch.tensor([0, 1]))
loss.backward()
perturb = emb.grad.sign()
