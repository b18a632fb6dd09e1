# source: https://github.com/Lightning-AI/pytorch-lightning/issues/655
# framework: torch
# family: C
# kind: hidden-state-not-detached
# pitfall: the raw loop posted in the question: the hidden state returned by the model is detached right after the forward (`hidden = detach_tensors(hidden)`), before backward, so the next batch starts from a graph-free state.
# expect: no finding
# checked: ran (stub model/data): 4 steps train, no graph error. Loop verbatim from the question
import torch
import torch.nn as nn

# --- stubs (not from the thread): vocab, model with init_hidden, data iterator, detach helper ---
vocab_size, batch_size = 40, 4

class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, 16)
        self.rnn = nn.LSTM(16, 32)
        self.out = nn.Linear(32, vocab_size)
    def init_hidden(self, bsz):
        return (torch.zeros(1, bsz, 32), torch.zeros(1, bsz, 32))
    def forward(self, text, hidden):
        o, hidden = self.rnn(self.emb(text), hidden)
        return self.out(o), hidden

class Batch:
    def __init__(self):
        self.text = torch.randint(0, vocab_size, (10, batch_size))
        self.target = torch.randint(0, vocab_size, (10, batch_size))

def detach_tensors(h):
    return tuple(t.detach() for t in h)

model = LM()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train_iter = [Batch() for _ in range(4)]
# --- end stubs ---

model.train()
hidden = model.init_hidden(batch_size)
for data in train_iter:
  text, target = data.text, data.target
  model.zero_grad()
  output, hidden = model(text, hidden)
  hidden = detach_tensors(hidden)  # for truncated bptt
  loss = criterion(output.view(-1, vocab_size), target.view(-1))
  loss.backward()

  optimizer.step()
  print(loss.item())
