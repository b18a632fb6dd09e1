# source: variant of 1105_text_classification_no_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: loss comes out of a dict returned by the model, loop is a while over a step counter with next(iterator); gradients are never cleared
# expect: line 35 — out["loss"].backward() accumulates into the previous batches' gradients (no zero_grad)
# checked: ran, reproduces (post-accumulate hook: gradient seen by the 2nd step == 2x the single-batch gradient)
import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTMClassifier(nn.Module):
    def __init__(self, vocab_size=100, embedding_dim=16, hidden_dim=16, label_size=2):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim)
        self.hidden2label = nn.Linear(hidden_dim, label_size)

    def forward(self, sentence, label=None):
        lstm_out, _ = self.lstm(self.word_embeddings(sentence))
        logits = self.hidden2label(lstm_out[-1])
        out = {"logits": logits}
        if label is not None:
            out["loss"] = F.cross_entropy(logits, label)
        return out


def run(model, optimizer, train_iter, max_steps):
    it = iter(train_iter)
    step = 0
    while step < max_steps:
        text, label = next(it)
        out = model(text, label)
        out["loss"].backward()
        optimizer.step()
        step += 1


if __name__ == "__main__":
    model = LSTMClassifier()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.0)
    seen = []
    model.hidden2label.weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    b = (torch.randint(0, 100, (12, 4)), torch.randint(0, 2, (4,)))
    run(model, optimizer, [b, b], 2)
    print("accumulated:", torch.allclose(seen[1], 2 * seen[0]))
