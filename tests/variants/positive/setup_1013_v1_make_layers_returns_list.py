# source: variant of 1013_module_layers_in_python_list.py
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: a VGG-style _make_layers() helper returns a plain Python list of layers and __init__ stores it as is (nn.Sequential(*layers) forgotten), so those layers are not registered
# expect: line 15 — self.features = self._make_layers(cfg): a plain list of modules, not registered
# checked: ran, reproduces (the listed layers are missing from model.parameters()/optimizer; weights unchanged after step)
import torch
import torch.nn as nn


class VGGLike(nn.Module):
    def __init__(self, cfg, num_classes=10):
        super().__init__()
        self.features = self._make_layers(cfg)
        self.classifier = nn.Linear(cfg[-1], num_classes)

    def _make_layers(self, cfg):
        layers = []
        in_c = 3
        for c in cfg:
            layers += [nn.Conv2d(in_c, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU(inplace=True)]
            in_c = c
        return layers

    def forward(self, x):
        for layer in self.features:
            x = layer(x)
        return self.classifier(x.mean((2, 3)))


if __name__ == "__main__":
    model = VGGLike([4, 8])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    print("params in optimizer:", sum(len(g["params"]) for g in optimizer.param_groups), "(classifier only)")
