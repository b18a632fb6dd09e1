# source: https://github.com/phanideepgampa/stacked-capsule-networks/issues/15
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# negative: the change proposed in the issue: theta = theta * 2. * math.pi, an out-of-place product, so the split view of the pose is left alone
# mimics: positive/1201_scae_geometric_transform_theta_imul.py
# expect: no finding
# checked: ran, no error

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PCAE(nn.Module):
    def __init__(self, num_capsules=4, template_size=11, num_templates=4, num_feature_maps=24):
        super(PCAE,self).__init__()
        self.num_capsules = num_capsules
        self.num_feature_maps = num_feature_maps       
        self.capsules = nn.Sequential(nn.Conv2d(1,16,3,stride=2),
                            nn.ReLU(),
                        nn.Conv2d(16,num_capsules*num_feature_maps,1,stride=1))

        self.templates = nn.ParameterList([ nn.Parameter(torch.randn(1,template_size,template_size))
                            for _ in range(num_templates)])
        self.soft_max = nn.Softmax(1)
        self.relu = nn.ReLU()
        self.sigmoid = nn.Sigmoid()

    def forward(self,x,device):
        outputs = self.capsules(x)
        outputs = outputs.view(-1,self.num_capsules,self.num_feature_maps,*outputs.size()[2:])
        attention = outputs[:,:,-1,:,:].unsqueeze(2)
        attention_soft = self.soft_max(attention.view(*attention.size()[:3],-1)).view_as(attention)
        feature_maps = outputs[:,:,:-1,:,:]
        part_capsule_param = torch.sum(torch.sum(feature_maps*attention_soft,dim=-1),dim=-1)
        x_m = self.relu(part_capsule_param[:,:,:6])

        # Affine Transform
        B, _, _, target_size = x.size()
        transformed_templates = [F.grid_sample(self.templates[i].repeat(B,1,1,1).to(device),
                                               F.affine_grid(
                                                   self.geometric_transform(x_m[:,i,:]),  # pose
                                                   torch.Size((B, 1, target_size, target_size)),
                                                   align_corners=False
                                               ), align_corners=False)
                                 for i in range(self.num_capsules)]
        transformed_templates = torch.cat(transformed_templates, 1)
        return transformed_templates

    @staticmethod
    def geometric_transform(pose_tensor, similarity=False, nonlinear=True):
        """Convers paramer tensor into an affine or similarity transform."""

        scale_x, scale_y, theta, shear, trans_x, trans_y = torch.split(pose_tensor, 1, -1)

        if nonlinear:
            scale_x, scale_y = torch.sigmoid(scale_x) + 1e-2, torch.sigmoid(scale_y) + 1e-2
            trans_x, trans_y, shear = torch.tanh(trans_x * 5.),  torch.tanh(trans_y * 5.), torch.tanh(shear * 5.)
            theta = theta * 2. * math.pi
        else:
            scale_x, scale_y = (abs(i) + 1e-2 for i in (scale_x, scale_y))

        c, s = torch.cos(theta), torch.sin(theta)

        if similarity:
            scale = scale_x
            pose = [scale * c, -scale * s, trans_x, scale * s, scale * c, trans_y]

        else:
            pose = [
                scale_x * c + shear * scale_y * s, -scale_x * s + shear * scale_y * c,
                trans_x, scale_y * s, scale_y * c, trans_y
            ]

        pose = torch.cat(pose, -1)

        # convert to a matrix
        shape = list(pose.shape[:-1])
        shape += [2, 3]
        pose = torch.reshape(pose, shape)

        return pose


device = torch.device('cpu')
model = PCAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.rand(2, 1, 12, 12)
templates = model(x, device)
loss = ((templates.mean(1, keepdim=True) - x) ** 2).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
