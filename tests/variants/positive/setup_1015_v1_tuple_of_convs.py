# source: variant of 1015_conv1d_filters_in_list.py
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: the convolution branches of a text CNN are kept in a tuple (generator expression), which nn.Module does not register
# expect: line 15 — self.convs = tuple(nn.Conv1d(...) for k in kernel_sizes): not registered
# checked: ran, reproduces (the listed layers are missing from model.parameters()/optimizer; weights unchanged after step)
import torch
import torch.nn as nn


class TextCNN(nn.Module):
    def __init__(self, emb_dim=16, kernel_sizes=(3, 4, 5), n_filters=2, n_classes=2):
        super().__init__()
        self.convs = tuple(nn.Conv1d(emb_dim, n_filters, k) for k in kernel_sizes)
        self.fc = nn.Linear(n_filters * len(kernel_sizes), n_classes)

    def forward(self, x):
        feats = [conv(x).max(dim=2)[0] for conv in self.convs]
        return self.fc(torch.cat(feats, dim=1))


if __name__ == "__main__":
    model = TextCNN()
    optimizer = torch.optim.Adam(model.parameters())
    print("params:", len(list(model.parameters())), "(fc only)")
