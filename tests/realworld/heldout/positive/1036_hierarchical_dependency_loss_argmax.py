# source: https://github.com/Ugenteraan/Deep_Hierarchical_Classification/issues/6
# framework: torch
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the dependency loss compares argmax predictions of two hierarchy levels and builds new FloatTensors from them, so the penalty never produces a gradient and beta has no effect on training
# expect: line 35 — torch.argmax of the softmax is not differentiable; dloss is built only from integer predictions and new constant tensors
# checked: ran, reproduces (dloss has no grad_fn)

import torch
import torch.nn as nn


class HierarchicalLossNetwork:
    def __init__(self, hierarchical_labels, device='cpu', total_level=2, alpha=1, beta=0.8, p_loss=3):
        self.total_level = total_level
        self.alpha = alpha
        self.beta = beta
        self.p_loss = p_loss
        self.device = device
        self.hierarchical_labels = hierarchical_labels

    def check_hierarchy(self, current_level, previous_level):
        bool_tensor = [not current_level[i] in self.hierarchical_labels[previous_level[i].item()] for i in range(previous_level.size()[0])]
        return torch.FloatTensor(bool_tensor).to(self.device)

    def calculate_lloss(self, predictions, true_labels):
        lloss = 0
        for l in range(self.total_level):
            lloss += nn.CrossEntropyLoss()(predictions[l], true_labels[l])
        return self.alpha * lloss

    def calculate_dloss(self, predictions, true_labels):
        dloss = 0
        for l in range(1, self.total_level):
            current_lvl_pred = torch.argmax(nn.Softmax(dim=1)(predictions[l]), dim=1)
            prev_lvl_pred = torch.argmax(nn.Softmax(dim=1)(predictions[l-1]), dim=1)

            D_l = self.check_hierarchy(current_lvl_pred, prev_lvl_pred)

            l_prev = torch.where(prev_lvl_pred == true_labels[l-1], torch.FloatTensor([0]).to(self.device), torch.FloatTensor([1]).to(self.device))
            l_curr = torch.where(current_lvl_pred == true_labels[l], torch.FloatTensor([0]).to(self.device), torch.FloatTensor([1]).to(self.device))

            dloss += torch.sum(torch.pow(self.p_loss, D_l*l_prev)*torch.pow(self.p_loss, D_l*l_curr) - 1)

        return self.beta * dloss


hln = HierarchicalLossNetwork({0: [0, 1], 1: [2, 3]})
head = nn.Linear(8, 6)
feats = torch.randn(5, 8)
out = head(feats)
predictions = [out[:, :2], out[:, 2:]]
true_labels = [torch.randint(0, 2, (5,)), torch.randint(0, 4, (5,))]
dloss = hln.calculate_dloss(predictions, true_labels)
lloss = hln.calculate_lloss(predictions, true_labels)
total_loss = lloss + dloss
total_loss.backward()
