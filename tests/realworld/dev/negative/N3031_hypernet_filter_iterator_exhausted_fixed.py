# source: https://github.com/SSL92/hyperIQA/issues/32
# framework: torch
# family: A
# kind: params-not-in-optimizer
# pitfall: Fix proposed in the thread: materialise the filter with list(...) so it can be reused when the optimizer is rebuilt.
# expect: no finding
# checked: ran, hyper-net params present after every rebuild
import torch
import torch.nn as nn


class models:
    # stub for models.py: HyperNet = ResNet backbone (self.res) + hyper head generating TargetNet weights
    class HyperNet(nn.Module):
        def __init__(self, *sizes):
            super().__init__()
            self.res = nn.Linear(8, 16)
            self.hyper_fc = nn.Linear(16, 16 + 1)

        def forward(self, img):
            feat = torch.relu(self.res(img))
            w = self.hyper_fc(feat)
            return {'target_in_vec': feat, 'target_fc_w': w[:, :16], 'target_fc_b': w[:, 16:]}

    class TargetNet(nn.Module):
        def __init__(self, paras):
            super().__init__()
            self.w, self.b = paras['target_fc_w'], paras['target_fc_b']

        def forward(self, x):
            return (x * self.w).sum(1, keepdim=True) + self.b


class HyperIQASolver(object):
    """Solver for training and testing hyperIQA"""
    def __init__(self, config, path, train_idx, test_idx):

        self.epochs = config.epochs
        self.test_patch_num = config.test_patch_num

        self.model_hyper = models.HyperNet(16, 112, 224, 112, 56, 28, 14, 7)
        self.model_hyper.train(True)

        self.l1_loss = torch.nn.L1Loss()

        backbone_params = list(map(id, self.model_hyper.res.parameters()))
        self.hypernet_params = list(filter(lambda p: id(p) not in backbone_params, self.model_hyper.parameters()))
        self.lr = config.lr
        self.lrratio = config.lr_ratio
        self.weight_decay = config.weight_decay
        paras = [{'params': self.hypernet_params, 'lr': self.lr * self.lrratio},
                 {'params': self.model_hyper.res.parameters(), 'lr': self.lr}
                 ]
        self.solver = torch.optim.Adam(paras, weight_decay=self.weight_decay)

        # stub for data_loader.DataLoader(...).get_data()
        self.train_data = [(torch.randn(4, 8), torch.rand(4)) for _ in range(2)]

    def train(self):
        """Training"""
        for t in range(self.epochs):
            epoch_loss = []
            pred_scores = []
            gt_scores = []

            for img, label in self.train_data:

                self.solver.zero_grad()

                # Generate weights for target network
                paras = self.model_hyper(img)  # 'paras' contains the network weights conveyed to target network

                # Building target network
                model_target = models.TargetNet(paras)
                for param in model_target.parameters():
                    param.requires_grad = False

                # Quality prediction
                pred = model_target(paras['target_in_vec'])  # while 'paras['target_in_vec']' is the input to target net
                pred_scores = pred_scores + pred.cpu().tolist()
                gt_scores = gt_scores + label.cpu().tolist()

                loss = self.l1_loss(pred.squeeze(), label.float().detach())
                epoch_loss.append(loss.item())
                loss.backward()
                self.solver.step()

            # Update optimizer
            lr = self.lr / pow(10, (t // 6))
            if t > 8:
                self.lrratio = 1
            self.paras = [{'params': self.hypernet_params, 'lr': lr * self.lrratio},
                          {'params': self.model_hyper.res.parameters(), 'lr': self.lr}
                          ]
            self.solver = torch.optim.Adam(self.paras, weight_decay=self.weight_decay)
            print('epoch', t + 1, 'hyper-net params in optimizer:', len(self.solver.param_groups[0]['params']))


if __name__ == "__main__":
    import argparse
    config = argparse.Namespace(epochs=3, test_patch_num=1, lr=2e-5, lr_ratio=10, weight_decay=5e-4)
    solver = HyperIQASolver(config, None, None, None)
    print('epoch 0 hyper-net params in optimizer:', len(solver.solver.param_groups[0]['params']))
    solver.train()
