# source: variant of 1058_conv_y_grad_none_variable.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# negative: fixed twin: the tensor is made a leaf again (detach().requires_grad_()) or retain_grad() is called before backward
# expect: no finding
# checked: ran, grad is populated (exit 0)
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
emb.retain_grad()
loss = nn.functional.cross_entropy(model.forward_from_embeddings(emb), torch.tensor([0, 1]))
loss.backward()
perturb = emb.grad.sign()
