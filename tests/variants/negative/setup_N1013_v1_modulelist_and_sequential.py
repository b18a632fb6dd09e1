# source: variant of 1013_module_layers_in_python_list.py
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: none — _make_layers() returns nn.Sequential(*layers); blocks in nn.ModuleList; a plain list only re-references already-registered layers
# checked: ran, correct (all layers in parameters())
import torch
import torch.nn as nn


class VGGLike(nn.Module):
    def __init__(self, cfg, num_classes=10):
        super().__init__()
        self.features = self._make_layers(cfg)
        self.blocks = nn.ModuleList([nn.Linear(cfg[-1], cfg[-1]) for _ in range(2)])
        self.classifier = nn.Linear(cfg[-1], num_classes)
        self.taps = [self.blocks[0], self.classifier]

    def _make_layers(self, cfg):
        layers = []
        in_c = 3
        for c in cfg:
            layers += [nn.Conv2d(in_c, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU(inplace=True)]
            in_c = c
        return nn.Sequential(*layers)

    def forward(self, x):
        x = self.features(x).mean((2, 3))
        for b in self.blocks:
            x = b(x)
        return self.classifier(x)


if __name__ == "__main__":
    model = VGGLike([4, 8])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    print("params:", len(list(model.parameters())))
