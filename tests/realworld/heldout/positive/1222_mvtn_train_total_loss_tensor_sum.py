# source: https://github.com/ajhamdi/MVTN/issues/2
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: train() adds each batch's loss tensor into total_loss to report the epoch average; the running sum keeps every batch's graph (through the renderer and both networks) alive, and the process is killed for lack of memory in the second epoch
# expect: line 101 — total_loss += loss accumulates history across the epoch; the reporter's change, adopted by the author, is total_loss += loss.item()
# checked: ran, reproduces (the returned avg_loss carries a grad_fn); run_mvtn.py train() at bd90fbf verbatim except .cuda() and the TensorBoard logging block dropped; the MVTN view selector, differentiable renderer and multi-view network replaced by small stand-ins in models_bag

import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable


def regualarize_rendered_views(rendered_images, view_reg, augment_training, crop_ratio):
    return rendered_images


def clip_grads_(parameters, clip_value):
    torch.nn.utils.clip_grad_norm_(parameters, clip_value)


class MVTN(nn.Module):
    def __init__(self, nb_views=4):
        super().__init__()
        self.fc = nn.Linear(3, 3 * nb_views)
        self.nb_views = nb_views

    def forward(self, points, c_batch_size=1):
        out = self.fc(points.mean(1)).view(c_batch_size, 3, self.nb_views)
        return out[:, 0], out[:, 1], out[:, 2]


class MVRenderer(nn.Module):
    def forward(self, meshes, points, azim, elev, dist):
        images = meshes.unsqueeze(1) * (azim + elev + dist)[:, :, None, None, None]
        return images, None


class MVNetwork(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(8, num_classes)

    def forward(self, images):
        b, v = images.shape[:2]
        feats = self.conv(images.flatten(0, 1)).view(b, v, -1).max(1)[0]
        return (self.fc(feats),)


criterion = nn.CrossEntropyLoss()
setup = {"is_learning_views": True, "clip_grads": True, "mvtn_clip_grads_value": 30.0, "log_metrics": False,
         "print_freq": 50, "view_reg": 0.0, "augment_training": False, "crop_ratio": 0.3}
mvnetwork, mvtn, mvrenderer = MVNetwork(), MVTN(), MVRenderer()
optimizer = torch.optim.AdamW(mvnetwork.parameters(), lr=0.001, weight_decay=0.01)
mvtn_optimizer = torch.optim.AdamW(mvtn.parameters(), lr=0.0001, weight_decay=0.01)
models_bag = {"mvnetwork": mvnetwork, "optimizer": optimizer,
              "mvtn": mvtn, "mvtn_optimizer": mvtn_optimizer, "mvrenderer": mvrenderer}


def train(data_loader, models_bag, setup):
    train_size = len(data_loader)
    total = 0.0
    correct = 0.0

    total_loss = 0.0
    n = 0

    for i, (targets, meshes, points) in enumerate(data_loader):
        c_batch_size = targets.shape[0]
        models_bag["optimizer"].zero_grad()
        if setup["is_learning_views"]:
            models_bag["mvtn_optimizer"].zero_grad()

        azim, elev, dist = models_bag["mvtn"](
            points, c_batch_size=c_batch_size)
        rendered_images, _ = models_bag["mvrenderer"](
            meshes, points,  azim=azim, elev=elev, dist=dist)
        rendered_images = regualarize_rendered_views(
            rendered_images, setup["view_reg"], setup["augment_training"], setup["crop_ratio"])
        targets = Variable(targets)
        outputs = models_bag["mvnetwork"](rendered_images)[0]
        loss = criterion(outputs, targets)
        _, predicted = torch.max(outputs.data, 1)
        total += targets.size(0)

        loss.backward()

        models_bag["optimizer"].step()
        if setup["is_learning_views"]:
            models_bag["mvtn_optimizer"].step()
            if setup["clip_grads"]:
                clip_grads_(models_bag["mvtn"].parameters(),
                            setup["mvtn_clip_grads_value"])

        if (i + 1) % setup["print_freq"] == 0:
            print("\tIter [%d/%d] Loss: %.4f" %
                  (i + 1, train_size, loss.item()))
        correct += (predicted.cpu() == targets.cpu()).sum()
        total_loss += loss
        n += 1
    avg_loss = total_loss / n
    avg_train_acc = 100 * correct / total

    return avg_train_acc, avg_loss


data_loader = [(torch.randint(0, 5, (2,)), torch.rand(2, 3, 16, 16), torch.rand(2, 32, 3)) for _ in range(3)]
avg_train_acc, avg_loss = train(data_loader, models_bag, setup)
print('avg_loss keeps a graph:', avg_loss.grad_fn is not None)
