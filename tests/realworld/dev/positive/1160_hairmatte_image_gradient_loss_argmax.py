# source: https://github.com/wonbeomjang/mobile-hair-segmentation-pytorch/issues/3
# framework: torch
# family: A
# kind: nondiff-op-on-loss-path
# pitfall: the image-gradient (edge consistency) loss first turns the predicted logits into a hard mask with argmax, so the loss has no gradient path to the network; added to the cross-entropy it silently contributes nothing, on its own backward fails
# expect: line 22 — pred.argmax(1) makes the mask a constant: ImageGradientLoss cannot train anything (the reporter's suggestion: use the foreground channel pred[:, 1, :, :] instead)
# checked: ran, reproduces (the image-gradient term alone has requires_grad=False); loss/loss.py at commit 38bcb41, the training lines at the bottom are reconstructed
import torch
import torch.nn as nn

from torch.nn.modules.loss import _Loss, _WeightedLoss
import torch.nn.functional as F


class ImageGradientLoss(_WeightedLoss):
    def __init__(self, size_average=None, reduce=None, reduction='mean'):
        super(ImageGradientLoss, self).__init__(size_average, reduce, reduction)
        self.device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

    def forward(self, pred, gray_image):
        size = pred.size()
        pred = pred.argmax(1).view(size[0], 1, size[2], size[3]).float()
        pred.argmax()
        gradient_tensor_x = torch.Tensor([[1.0, 0.0, -1.0],
                                          [2.0, 0.0, -2.0],
                                          [1.0, 0.0, -1.0]]).to(self.device).view((1, 1, 3, 3))

        gradient_tensor_y = torch.Tensor([[1.0, 2.0, 1.0],
                                          [0.0, 0.0, 0.0],
                                          [-1.0, -2.0, -1.0]]).to(self.device).view((1, 1, 3, 3))

        I_x = F.conv2d(gray_image, gradient_tensor_x)
        G_x = F.conv2d(pred, gradient_tensor_x)

        I_y = F.conv2d(gray_image, gradient_tensor_y)
        G_y = F.conv2d(pred, gradient_tensor_y)

        G = torch.sqrt(torch.pow(G_x, 2) + torch.pow(G_y, 2))

        gradient = 1 - torch.pow(I_x * G_x + I_y * G_y, 2)

        image_gradient_loss = torch.sum(torch.mul(G, gradient)) / torch.sum(G)

        image_gradient_loss = image_gradient_loss if image_gradient_loss > 0 else 0

        return image_gradient_loss


net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 2, 1))
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
image_gradient_criterion = ImageGradientLoss()

image = torch.rand(2, 3, 64, 64)
gray_image = image.mean(1, keepdim=True)
mask = (torch.rand(2, 64, 64) > 0.5).long()

pred = net(image)
image_loss = image_gradient_criterion(pred, gray_image)
loss = criterion(pred, mask) + 0.5 * image_loss
optimizer.zero_grad()
loss.backward()
optimizer.step()
