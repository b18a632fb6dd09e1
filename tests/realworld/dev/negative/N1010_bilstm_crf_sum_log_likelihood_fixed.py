# source: https://github.com/pytorch/pytorch/issues/1840
# framework: torch
# family: C
# kind: history-kept-across-iterations
# negative: the accepted fix: the running sum adds neg_log_likelihood.data, which carries no history
# mimics: positive/1010_bilstm_crf_sum_log_likelihood.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
import torch.optim as optim


def prepare_sequence(seq, to_ix):
    idxs = [to_ix[w] for w in seq]
    return torch.LongTensor(idxs)


class BiLSTM_CRF(nn.Module):
    def __init__(self, vocab_size, tag_to_ix, embedding_dim, hidden_dim):
        super(BiLSTM_CRF, self).__init__()
        self.word_embeds = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim // 2, num_layers=1, bidirectional=True)
        self.hidden2tag = nn.Linear(hidden_dim, len(tag_to_ix))

    def neg_log_likelihood(self, sentence, tags):
        embeds = self.word_embeds(sentence).view(len(sentence), 1, -1)
        lstm_out, _ = self.lstm(embeds)
        feats = self.hidden2tag(lstm_out.view(len(sentence), -1))
        return nn.functional.cross_entropy(feats, tags, reduction="sum")


training_data = [("the wall street journal reported today".split(), "B I I I O O".split())]
word_to_ix = {}
for sentence, tags in training_data:
    for word in sentence:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)
tag_to_ix = {"B": 0, "I": 1, "O": 2}

model = BiLSTM_CRF(len(word_to_ix), tag_to_ix, 5, 4)
optimizer = optim.SGD(model.parameters(), lr=0.01, weight_decay=1e-4)

sum_log_likelihood = 0
for epoch in range(3):
    for sentence, tags in training_data:
        model.zero_grad()
        sentence_in = prepare_sequence(sentence, word_to_ix)
        targets = torch.LongTensor([tag_to_ix[t] for t in tags])
        neg_log_likelihood = model.neg_log_likelihood(sentence_in, targets)
        sum_log_likelihood += neg_log_likelihood.data
        neg_log_likelihood.backward()
        optimizer.step()
print(sum_log_likelihood)
