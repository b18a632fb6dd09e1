# source: variant of 1135_lstm_eval_mode_backward_cuda.py
# framework: torch
# family: F
# kind: other-rnn-backward-in-eval
# pitfall: a dynamic-evaluation routine on a Trainer puts the LSTM language model in eval mode (self.model.eval()) and then adapts it with backward on each test segment; on CUDA cuDNN's RNN backward only runs in training mode
# expect: line 40 — backward through the LSTM whose forward ran after self.model.eval(): "cudnn RNN backward can only be called in training mode"
# checked: parse only (cuDNN-specific; the CPU kernels accept the backward, and this machine has no GPU)

import torch
import torch.nn as nn
import torch.nn.functional as F


class LM(nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.LSTM(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens, hidden=None):
        h, hidden = self.rnn(self.emb(tokens), hidden)
        return self.out(h), hidden


class DynamicEvaluator:
    def __init__(self, model, lr=1e-4):
        self.model = model.cuda()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr)

    def evaluate(self, segments):
        self.model.eval()
        total, hidden = 0.0, None
        for inp, tgt in segments:
            inp, tgt = inp.cuda(), tgt.cuda()
            logits, hidden = self.model(inp, hidden)
            hidden = tuple(h.detach() for h in hidden)
            loss = F.cross_entropy(logits.flatten(0, 1), tgt.flatten())
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / len(segments)


if __name__ == "__main__":
    segs = [(torch.randint(0, 50, (1, 8)), torch.randint(0, 50, (1, 8))) for _ in range(2)]
    print(DynamicEvaluator(LM()).evaluate(segs))
