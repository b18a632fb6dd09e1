# source: https://github.com/spro/practical-pytorch/pull/29
# framework: torch
# family: C
# kind: history-kept-across-iterations
# negative: inside one training example the decoder losses are summed with loss += criterion(...) over time steps on purpose (backpropagation through time needs the whole graph); the function returns a plain number
# mimics: a loss accumulated with += inside a loop
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
from torch.autograd import Variable

SOS_token = 0
teacher_forcing_ratio = 1.0
clip = 5.0


class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size):
        super(EncoderRNN, self).__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size)

    def forward(self, word_inputs, hidden):
        embedded = self.embedding(word_inputs).view(len(word_inputs), 1, -1)
        output, hidden = self.gru(embedded, hidden)
        return output, hidden

    def init_hidden(self):
        return Variable(torch.zeros(1, 1, self.hidden_size))


class DecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size):
        super(DecoderRNN, self).__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size)
        self.out = nn.Linear(hidden_size, output_size)

    def forward(self, word_input, last_hidden):
        embedded = self.embedding(word_input).view(1, 1, -1)
        rnn_output, hidden = self.gru(embedded, last_hidden)
        return torch.log_softmax(self.out(rnn_output.squeeze(0)), dim=1), hidden


def train(input_variable, target_variable, encoder, decoder, encoder_optimizer, decoder_optimizer, criterion):
    encoder_optimizer.zero_grad()
    decoder_optimizer.zero_grad()
    loss = 0

    target_length = target_variable.size()[0]
    encoder_hidden = encoder.init_hidden()
    encoder_outputs, encoder_hidden = encoder(input_variable, encoder_hidden)

    decoder_input = Variable(torch.LongTensor([[SOS_token]]))
    decoder_hidden = encoder_hidden
    for di in range(target_length):
        decoder_output, decoder_hidden = decoder(decoder_input, decoder_hidden)
        loss += criterion(decoder_output, target_variable[di])
        decoder_input = target_variable[di]

    loss.backward()
    torch.nn.utils.clip_grad_norm_(encoder.parameters(), clip)
    torch.nn.utils.clip_grad_norm_(decoder.parameters(), clip)
    encoder_optimizer.step()
    decoder_optimizer.step()

    return loss.item() / target_length


encoder = EncoderRNN(10, 8)
decoder = DecoderRNN(8, 10)
encoder_optimizer = torch.optim.SGD(encoder.parameters(), lr=0.01)
decoder_optimizer = torch.optim.SGD(decoder.parameters(), lr=0.01)
criterion = nn.NLLLoss()
print_loss_total = 0
for epoch in range(3):
    input_variable = torch.randint(1, 10, (5,))
    target_variable = torch.randint(1, 10, (4, 1))
    print_loss_total += train(input_variable, target_variable, encoder, decoder, encoder_optimizer, decoder_optimizer, criterion)
