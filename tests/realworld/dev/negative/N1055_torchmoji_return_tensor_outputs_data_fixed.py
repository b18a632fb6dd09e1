# source: https://github.com/huggingface/torchMoji/issues/21
# framework: torch
# family: A
# kind: data-on-loss-path
# negative: the fix from the thread: the return_tensor conversion to outputs.data is removed, so the loss is built on the model output itself
# mimics: positive/1055_torchmoji_return_tensor_outputs_data.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
from torch.autograd import Variable


class TorchMoji(nn.Module):
    def __init__(self, nb_classes, nb_tokens, embedding_dim=16, return_attention=False):
        super(TorchMoji, self).__init__()
        self.embed = nn.Embedding(nb_tokens, embedding_dim)
        self.lstm_0 = nn.LSTM(embedding_dim, 8, batch_first=True, bidirectional=True)
        self.output_layer = nn.Sequential(nn.Linear(16, nb_classes), nn.Sigmoid())

    def forward(self, input_seqs):
        return_numpy = False
        return_tensor = False
        if isinstance(input_seqs, (torch.LongTensor, torch.cuda.LongTensor)):
            input_seqs = Variable(input_seqs)
            return_tensor = True
        x = self.embed(input_seqs)
        lstm_out, _ = self.lstm_0(x)
        outputs = self.output_layer(lstm_out[:, -1])

        # Adapt return format if needed
        if return_numpy:
            outputs = outputs.data.numpy()
        return outputs


model = TorchMoji(nb_classes=1, nb_tokens=50)
loss_op = nn.BCELoss()
optim = torch.optim.Adam(model.parameters(), lr=0.001)
X = torch.randint(0, 50, (4, 10))
y = torch.randint(0, 2, (4, 1)).float()

model.train()
optim.zero_grad()
output = model(X)
loss = loss_op(output, y)
loss.backward()
optim.step()
