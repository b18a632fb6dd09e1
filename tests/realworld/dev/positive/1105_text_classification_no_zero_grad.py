# source: https://github.com/FreedomIntelligence/TextClassificationBenchmark/issues/20
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: the training loop of the benchmark calls loss.backward(), clips and steps for every batch without clearing the gradients, so each update uses the sum of all gradients so far
# expect: line 48 — no optimizer.zero_grad()/model.zero_grad() in the loop: backward accumulates into the previous batches' gradients
# checked: ran, reproduces (backward runs on stepped, uncleared gradients)

import torch
import torch.nn as nn
import torch.nn.functional as F


def clip_gradient(optimizer, grad_clip):
    for group in optimizer.param_groups:
        for param in group['params']:
            if param.grad is not None and param.requires_grad:
                param.grad.data.clamp_(-grad_clip, grad_clip)


class LSTMClassifier(nn.Module):
    def __init__(self, vocab_size=100, embedding_dim=16, hidden_dim=16, label_size=2):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim)
        self.hidden2label = nn.Linear(hidden_dim, label_size)

    def forward(self, sentence):
        lstm_out, _ = self.lstm(self.word_embeddings(sentence))
        return self.hidden2label(lstm_out[-1])


class Opt:
    max_epoch = 2
    grad_clip = 1e-1


opt = Opt()
model = LSTMClassifier()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
train_iter = [(torch.randint(0, 100, (12, 4)), torch.randint(0, 2, (4,))) for _ in range(3)]
model.train()
for epoch in range(opt.max_epoch):
    for iteration, batch in enumerate(train_iter):
        text, label = batch
        predicted = model(text)
        loss = F.cross_entropy(predicted, label)
        loss.backward()
        clip_gradient(optimizer, opt.grad_clip)
        optimizer.step()
