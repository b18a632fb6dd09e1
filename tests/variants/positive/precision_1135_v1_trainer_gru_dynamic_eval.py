# source: variant of 1135_lstm_eval_mode_backward_cuda.py
# framework: torch
# family: F
# kind: other-rnn-backward-in-eval
# pitfall: a language-model trainer's dynamic-evaluation method calls self.model.eval() and then backpropagates through the GRU to adapt the weights on the test stream; on CUDA the cuDNN RNN backward refuses eval mode
# expect: line 37 — backward through the GRU that ran after self.model.eval()
# checked: parse only (cuDNN-specific; the CPU kernels accept the backward)
import torch
import torch.nn as nn
import torch.nn.functional as F


class RNNLM(nn.Module):
    def __init__(self, vocab=50, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.rnn = nn.GRU(hidden, hidden, num_layers=2, dropout=0.2)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, tokens, h=None):
        y, h = self.rnn(self.embed(tokens), h)
        return self.out(y), h


class DynamicEvaluator:
    def __init__(self, model, lr=1e-3):
        self.model = model.cuda()
        self.opt = torch.optim.SGD(self.model.parameters(), lr=lr)

    def evaluate(self, stream):
        self.model.eval()
        total = 0.0
        for tokens, targets in stream:
            logits, _ = self.model(tokens.cuda())
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.cuda().view(-1))
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            total += loss.item()
        return total


stream = [(torch.randint(0, 50, (10, 2)), torch.randint(0, 50, (10, 2))) for _ in range(3)]
print(DynamicEvaluator(RNNLM()).evaluate(stream))
