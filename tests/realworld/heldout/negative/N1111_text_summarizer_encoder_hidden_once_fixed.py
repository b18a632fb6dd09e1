# source: https://github.com/JulesBelveze/text-summarizer/pull/8
# framework: torch
# family: C
# kind: hidden-state-not-detached
# negative: the merged fix: the encoder's hidden state is re-initialised for every batch, so no graph crosses batches
# mimics: positive/1111_text_summarizer_encoder_hidden_once.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


class EncoderRNN(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(vocab_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)

    def forward(self, input, hidden):
        return self.gru(self.embedding(input), hidden)

    def init_hidden(self, batch_size):
        return torch.zeros(1, batch_size, self.hidden_size)


encoder = EncoderRNN(50, 16)
decoder = nn.Linear(16, 50)
optimizer = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()))
criterion = nn.CrossEntropyLoss()
batch_size = 4
train_loader = [(torch.randint(0, 50, (batch_size, 12)), torch.randint(0, 50, (batch_size,))) for _ in range(3)]

for article, summary in train_loader:
    encoder_hidden = encoder.init_hidden(batch_size)
    optimizer.zero_grad()
    encoder_outputs, encoder_hidden = encoder(article, encoder_hidden)
    loss = criterion(decoder(encoder_outputs[:, -1]), summary)
    loss.backward()
    optimizer.step()
