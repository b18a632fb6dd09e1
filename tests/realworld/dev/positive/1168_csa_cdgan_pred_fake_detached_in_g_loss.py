# source: https://github.com/wangle53/CSA-CDGAN/issues/5
# framework: torch
# family: A
# kind: detach-on-loss-path
# pitfall: the adversarial term of the generator loss is computed from netd(fake).detach(); detaching the discriminator output cuts the path back to the generator, so err_d_fake contributes nothing to err_g_total's gradient (the maintainer's reply confuses this with freezing the discriminator)
# expect: line 58 — pred_fake = netd(fake).detach() makes the adversarial loss a constant for the generator: "you detach the 'pred_fake', so the loss cannot update anything"
# checked: ran, reproduces (err_d_fake has requires_grad=False); train.py loop body from the repository, NetG/NetD/constants replaced by small stand-ins (reconstructed)
import torch
import torch.nn as nn
import torch.optim as optim
from types import SimpleNamespace

ct = SimpleNamespace(BATCH_SIZE=4, G_WEIGHT=1, D_WEIGHT=1, LR=2e-4)
device = torch.device('cpu')


class NetG(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(6, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 3, padding=1), nn.Sigmoid())

    def forward(self, x):
        return self.net(x)


class NetD(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 8, 4, 2, 1), nn.LeakyReLU(0.2), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 1), nn.Sigmoid())

    def forward(self, x):
        return self.net(x).view(-1)


netg = NetG().to(device=device)
netd = NetD().to(device=device)
l_con = nn.L1Loss()
l_bce = nn.BCELoss()
optimizer_d = optim.Adam(netd.parameters(), lr=ct.LR, betas=(0.5, 0.999))
optimizer_g = optim.Adam(netg.parameters(), lr=ct.LR, betas=(0.5, 0.999))

train_dataloader = [(torch.rand(4, 3, 32, 32), torch.rand(4, 3, 32, 32), torch.rand(4, 3, 32, 32)) for _ in range(2)]
for i, data in enumerate(train_dataloader):
    x1, x2, gt = data
    x1 = x1.to(device, dtype=torch.float)
    x2 = x2.to(device, dtype=torch.float)
    gt = gt.to(device, dtype=torch.float)
    gt = gt[:,0,:,:].unsqueeze(1)
    x = torch.cat((x1,x2),1)

    real_label = torch.ones (size=(x1.shape[0],), dtype=torch.float32, device=device)
    fake_label = torch.zeros(size=(x1.shape[0],), dtype=torch.float32, device=device)

    #forward

    fake = netg(x)
    pred_real = netd(gt)
    pred_fake = netd(fake).detach()
    err_d_fake = l_bce(pred_fake, fake_label)
    err_g = l_con(fake, gt)
    err_g_total = ct.G_WEIGHT*err_g + ct.D_WEIGHT*err_d_fake

    pred_fake_ = netd(fake.detach())
    err_d_real = l_bce(pred_real, real_label)
    err_d_fake_ = l_bce(pred_fake_, fake_label)
    err_d_total = (err_d_real + err_d_fake_) * 0.5

    #backward
    optimizer_g.zero_grad()
    err_g_total.backward(retain_graph = True)
    optimizer_g.step()
    optimizer_d.zero_grad()
    err_d_total.backward()
    optimizer_d.step()
