# source: https://github.com/skorch-dev/skorch/issues/481
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: the classifier wrapper expects softmax outputs and applies torch.log(y_pred) before NLLLoss; probabilities that saturate at 0 give -inf and NaN losses with RMSprop/Adam
# expect: line 31 — torch.log of softmax probabilities is -inf where they underflow; the NLL loss and its gradients become NaN
# checked: parse only (needs skorch)

import torch
from torch import nn
from skorch.net import NeuralNet


class ClassifierModule(nn.Module):
    def __init__(self, input_dim=784, hidden_dim=98, output_dim=10):
        super().__init__()
        self.hidden = nn.Linear(input_dim, hidden_dim)
        self.output = nn.Linear(hidden_dim, output_dim)

    def forward(self, X, **kwargs):
        X = torch.relu(self.hidden(X))
        X = torch.softmax(self.output(X), dim=-1)
        return X


class NeuralNetClassifier(NeuralNet):
    def __init__(self, module, *args, criterion=torch.nn.NLLLoss, **kwargs):
        super(NeuralNetClassifier, self).__init__(module, *args, criterion=criterion, **kwargs)

    def get_loss(self, y_pred, y_true, X=None, training=False):
        y_pred = torch.log(y_pred)
        return super().get_loss(y_pred, y_true, X=X, training=training)


net = NeuralNetClassifier(ClassifierModule, max_epochs=20, lr=0.1, optimizer=torch.optim.RMSprop)
