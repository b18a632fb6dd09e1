# source: https://github.com/benkrause/dynamic-evaluation/issues/2
# framework: torch
# family: F
# kind: other-rnn-backward-in-eval
# pitfall: gradstat() collects gradient statistics of an AWD-LSTM language model on training data but switches the model to eval mode (to disable dropout) before every backward; on GPU cuDNN refuses the RNN backward
# expect: line 88 — loss.backward() through an LSTM run after model.eval() raises "backward_input can only be called in training mode" (cuDNN)
# checked: parse only (cuDNN-specific, needs the repository's data module and a trained model)
import argparse
import time
import math
import numpy as np
import os
import torch
import torch.nn as nn
from torch.autograd import Variable
import data

parser = argparse.ArgumentParser(description='PyTorch PennTreeBank RNN/LSTM Language Model')
parser.add_argument('--data', type=str, default='data/penn/',
                    help='location of the data corpus')
parser.add_argument('--model', type=str,
                    help='name of model to eval')
parser.add_argument('--batch_size', type=int, default=100,
                    help='batch size for gradient statistics')
parser.add_argument('--bptt', type=int, default=5,
                    help='sequence/truncation length')
parser.add_argument('--max_batches', type=int, default=-1,
                    help='maximum number of training batches for gradient statistics')
parser.add_argument('--QRNN', action='store_true',
                    help='Use if model is a QRNN')
args = parser.parse_args()
args.cuda = True
model_name=args.model
corpus = data.Corpus(args.data)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    data = data.view(bsz, -1).t().contiguous()
    if args.cuda:
        data = data.cuda()
    return data
#######################################################################

def repackage_hidden(h):
    """Wraps hidden states in new Variables, to detach them from their history."""
    if type(h) == Variable:
        return Variable(h.data)
    else:
        return tuple(repackage_hidden(v) for v in h)


def get_batch(source, i, evaluation=False):
    seq_len = min(args.bptt, len(source) - 1 - i)
    data = Variable(source[i:i+seq_len], volatile=evaluation)
    target = Variable(source[i+1:i+1+seq_len].view(-1))
    return data, target

def gradstat():

    if args.QRNN:
        model.reset()

    total_loss = 0
    start_time = time.time()
    ntokens = len(corpus.dictionary)
    hidden = model.init_hidden(args.batch_size)
    batch, i = 0, 0

    for param in model.parameters():
        param.MS = 0*param.data


    while i < train_data.size(0) - 1 - 1:
        seq_len = args.bptt
        model.eval()

        data, targets = get_batch(train_data, i)
        hidden = repackage_hidden(hidden)
        model.zero_grad()
        #assumes model has atleast 2 returns, and first is output and second is hidden
        returns = model(data, hidden)
        output = returns[0]
        hidden = returns[1]

        loss = criterion(output.view(-1, ntokens), targets)
        loss.backward()

        for param in model.parameters():
            param.MS = param.MS + param.grad.data*param.grad.data

        total_loss += loss.data

        batch += 1


        i += seq_len
        if args.max_batches>0:
            if batch>= args.max_batches:
                break
    gsum = 0
    count = 0

    for param in model.parameters():

        param.MS = torch.sqrt(param.MS/batch)

        gsum+=torch.mean(param.MS)
        count+=1
    gsum/=count

    for param in model.parameters():
        param.decrate = param.MS/gsum
        param.data0 = 1*param.data


with open(model_name, 'rb') as f:
    model = torch.load(f)

ntokens = len(corpus.dictionary)
criterion = nn.CrossEntropyLoss()
train_data = batchify(corpus.train, args.batch_size)

print('collecting gradient statistics')
gradstat()
