# source: https://github.com/JIA-Lab-research/DecoupleNet/issues/3
# framework: torch
# family: C
# kind: history-kept-across-iterations
# negative: inside one training iteration the logged loss values are summed as tensors (loss_seg_value += loss_seg / iter_size, loss_D1_value += ...), but they are reset to 0 at the start of every iteration and turned into floats with .item() at its end; the maintainer's answer: the graphs are freed before the next step, so nothing accumulates across iterations
# mimics: loss tensors summed into a running value
# expect: no finding
# checked: ran, no error (the logged values are floats after each iteration); train_phase1.py's iteration structure at HEAD reduced to one segmenter and one feature discriminator (no AMP scaler, DDP all_reduce or target self-training branch)

import torch
import torch.nn as nn
import torch.nn.functional as F

iter_size, num_steps = 2, 3
source_label, target_label = 0, 1
lambda_adv_src = 0.001

model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 4, 1))
model_D1 = nn.Sequential(nn.Conv2d(4, 8, 3, stride=2, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 3, padding=1))
optimizer = torch.optim.SGD(model.parameters(), lr=2.5e-4, momentum=0.9)
optimizer_D1 = torch.optim.Adam(model_D1.parameters(), lr=1e-4, betas=(0.9, 0.99))
seg_loss = nn.CrossEntropyLoss(ignore_index=255)
bce_loss = nn.BCEWithLogitsLoss()

for i_iter in range(num_steps):
    loss_seg_value = 0
    loss_adv_src_value = 0
    loss_D1_value = 0

    optimizer.zero_grad()
    optimizer_D1.zero_grad()

    for sub_i in range(iter_size):
        # train G
        for param in model_D1.parameters():
            param.requires_grad = False

        images, labels = torch.rand(2, 3, 16, 16), torch.randint(0, 4, (2, 16, 16))
        pred = model(images)
        loss_seg = seg_loss(pred, labels)

        D_out = model_D1(F.softmax(pred, 1))
        loss_adv_src = lambda_adv_src * bce_loss(D_out, torch.FloatTensor(D_out.data.size()).fill_(target_label))
        loss = loss_seg + loss_adv_src

        # proper normalization
        loss = loss / iter_size
        loss_seg_value += loss_seg / iter_size
        loss_adv_src_value += loss_adv_src / iter_size

        loss.backward()

        # train D
        # bring back requires_grad
        for param in model_D1.parameters():
            param.requires_grad = True

        src_D1_pred = model_D1(F.softmax(pred.detach(), 1))
        loss_D1_src = 0.5 * bce_loss(src_D1_pred, torch.FloatTensor(src_D1_pred.data.size()).fill_(source_label)) / iter_size
        loss_D1_value += loss_D1_src

        loss_D1_src.backward()

    loss_seg_value = loss_seg_value.item()
    loss_adv_src_value = loss_adv_src_value.item()
    loss_D1_value = loss_D1_value.item()

    optimizer.step()
    optimizer_D1.step()
