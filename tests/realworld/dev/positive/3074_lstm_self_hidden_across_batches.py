# source: https://github.com/pytorch/pytorch/issues/2769
# framework: torch
# family: C
# kind: hidden-state-not-detached
# pitfall: The model keeps `self.hidden` from the previous batch and feeds it back into `self.lstm` without detaching, so every batch's graph is chained to all previous ones (time/memory grow per iteration; on current PyTorch the 2nd backward raises "Trying to backward through the graph a second time").
# expect: line 34 — `lstm_out,self.hidden=self.lstm(x,self.hidden)` feeds the un-detached hidden state of the previous batch into this step and stores the new one
# checked: ran (small sizes, random data), reproduces on torch 2.13: 2nd iteration loss.backward() raises 'Trying to backward through the graph a second time' (the 2017 report saw per-iteration time growth). Model verbatim; train() after 'target_v' is truncated in the stored thread and was completed with the standard imagenet-example body; 'cuda(async=True)' (a syntax error on py3.7+) written as non_blocking=True
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

use_cuda = torch.cuda.is_available()


class LSTM(nn.Module):
    def __init__(self,
                 input_len=1024,
                 hidden_len=1024,
                 model_len=12,
                 target_size=101,
                 is_softmax=True):
        super(LSTM,self).__init__()
        self.hidden_len=hidden_len
        self.is_softmax=is_softmax
        self.lstm=nn.LSTM(input_len,hidden_len,batch_first=True)
        self.target_size=target_size
        self.hidden2class=nn.Linear(hidden_len,target_size)
        self.hidden=self.init_hidden()
    def init_hidden(self):
        return (Variable(torch.zeros(1, 1, self.hidden_len)),
            Variable(torch.zeros(1, 1, self.hidden_len)))
    def forward(self,x):
        lstm_out,self.hidden=self.lstm(
            x,self.hidden
        )
        cls_scores=self.hidden2class(lstm_out[:,-1,:]).view(-1,self.target_size)
        if self.is_softmax:
            cls_scores=F.log_softmax(cls_scores)
        return cls_scores


def train(train_data,model,criterion,optimizer,epoch):
    model.train()
    for i,(input,target) in enumerate(train_data):

        if use_cuda:
            target=target.cuda(non_blocking=True)
        input_var=torch.autograd.Variable(input)
        target_var=torch.autograd.Variable(target)

        # (rest of the loop: the thread's copy is truncated here; standard imagenet-example body)
        output=model(input_var)
        loss=criterion(output,target_var)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print('Epoch: [{0}][{1}/{2}]\tLoss {3:.4f}'.format(epoch, i, len(train_data), loss.item()))


# --- driver with random data and small sizes (not from the thread) ---
if __name__ == "__main__":
    torch.manual_seed(0)
    model = LSTM(input_len=32, hidden_len=32, target_size=5)
    train_data = [(torch.randn(1, 12, 32), torch.randint(0, 5, (1,))) for _ in range(3)]
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    train(train_data, model, nn.NLLLoss(), optimizer, 0)
