# source: https://github.com/yunjey/pytorch-tutorial/issues/90
# framework: torch
# family: C
# kind: hidden-state-not-detached
# pitfall: the tutorial the issue asks about: the (h, c) state is carried across mini-batches but re-bound through a `detach(states)` helper before each forward (truncated BPTT); clipping sits between backward() and step().
# expect: no finding
# checked: ran (sizes shrunk, Corpus replaced by random ids): all 5 truncated-BPTT steps train. Code = tutorials/02-intermediate/language_model/main.py as stored today (the issue quotes the earlier Variable-era version of the same loop, with the same states = detach(states) line); sampling/saving tail omitted
import torch
import torch.nn as nn
import numpy as np
from torch.nn.utils import clip_grad_norm_


# Device configuration
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')

# Hyper-parameters (shrunk)
embed_size = 16
hidden_size = 32
num_layers = 1
num_epochs = 1
batch_size = 4
seq_length = 10
learning_rate = 0.002

# --- stub for data_utils.Corpus (not from the thread): random word ids ---
vocab_size = 50
ids = torch.randint(0, vocab_size, (batch_size, 61))
num_batches = ids.size(1) // seq_length
# --- end stub ---


# RNN based language model
class RNNLM(nn.Module):
    def __init__(self, vocab_size, embed_size, hidden_size, num_layers):
        super(RNNLM, self).__init__()
        self.embed = nn.Embedding(vocab_size, embed_size)
        self.lstm = nn.LSTM(embed_size, hidden_size, num_layers, batch_first=True)
        self.linear = nn.Linear(hidden_size, vocab_size)
        
    def forward(self, x, h):
        # Embed word ids to vectors
        x = self.embed(x)
        
        # Forward propagate LSTM
        out, (h, c) = self.lstm(x, h)
        
        # Reshape output to (batch_size*sequence_length, hidden_size)
        out = out.reshape(out.size(0)*out.size(1), out.size(2))
        
        # Decode hidden states of all time steps
        out = self.linear(out)
        return out, (h, c)

model = RNNLM(vocab_size, embed_size, hidden_size, num_layers).to(device)

# Loss and optimizer
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

# Truncated backpropagation
def detach(states):
    return [state.detach() for state in states] 

# Train the model
for epoch in range(num_epochs):
    # Set initial hidden and cell states
    states = (torch.zeros(num_layers, batch_size, hidden_size).to(device),
              torch.zeros(num_layers, batch_size, hidden_size).to(device))
    
    for i in range(0, ids.size(1) - seq_length, seq_length):
        # Get mini-batch inputs and targets
        inputs = ids[:, i:i+seq_length].to(device)
        targets = ids[:, (i+1):(i+1)+seq_length].to(device)
        
        # Forward pass
        states = detach(states)
        outputs, states = model(inputs, states)
        loss = criterion(outputs, targets.reshape(-1))
        
        # Backward and optimize
        optimizer.zero_grad()
        loss.backward()
        clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()

        step = (i+1) // seq_length
        if step % 1 == 0:
            print ('Epoch [{}/{}], Step[{}/{}], Loss: {:.4f}, Perplexity: {:5.2f}'
                   .format(epoch+1, num_epochs, step, num_batches, loss.item(), np.exp(loss.item())))
