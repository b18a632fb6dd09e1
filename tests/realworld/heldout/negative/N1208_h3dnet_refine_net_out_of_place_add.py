# source: https://github.com/zaiweizhang/H3DNet/issues/29
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# negative: the fix from the issue, applied by the maintainer (commit 81bd6af): net = net + original_feature leaves the saved ReLU output untouched
# mimics: positive/1208_h3dnet_refine_net_iadd_original_feature.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
import torch.nn.functional as F


class ProposalModuleRefine(nn.Module):
    def __init__(self, num_class=4, num_heading_bin=4, num_size_cluster=4, seed_feat_dim=32):
        super().__init__()
        self.num_class = num_class
        self.num_heading_bin = num_heading_bin
        self.num_size_cluster = num_size_cluster
        self.conv_refine1 = torch.nn.Conv1d(seed_feat_dim*18, 128, 1)
        self.conv_refine2 = torch.nn.Conv1d(128, 128, 1)
        self.conv_refine3 = torch.nn.Conv1d(128, 128, 1)
        self.conv_refine4 = torch.nn.Conv1d(128, 2+3+num_heading_bin*2+num_size_cluster*4+self.num_class, 1)
        self.bn_refine1 = torch.nn.BatchNorm1d(128)
        self.bn_refine2 = torch.nn.BatchNorm1d(128)
        self.bn_refine3 = torch.nn.BatchNorm1d(128)

    def forward(self, surface_features, line_features, original_feature, end_points):
        batch_size = surface_features.shape[0]
        object_proposal = surface_features.shape[-1] // 6

        surface_features = surface_features.view(batch_size, -1, 6, object_proposal).contiguous()
        line_features = line_features.view(batch_size, -1, 12, object_proposal).contiguous()

        # Combine all surface and line features
        surface_pool_feature = surface_features.view(batch_size, -1, object_proposal).contiguous()
        line_pool_feature = line_features.view(batch_size, -1, object_proposal).contiguous()
        
        combine_feature = torch.cat((surface_pool_feature, line_pool_feature), dim=1)

        net = F.relu(self.bn_refine1(self.conv_refine1(combine_feature)))
        net = net + original_feature
        net = F.relu(self.bn_refine2(self.conv_refine2(net)))
        net = F.relu(self.bn_refine3(self.conv_refine3(net)))
        net = self.conv_refine4(net) # (batch_size, 2+3+num_heading_bin*2+num_size_cluster*4, num_proposal)

        end_points['refined'] = net
        return end_points


module = ProposalModuleRefine()
original_feature = torch.randn(2, 128, 8, requires_grad=True)
surface = torch.randn(2, 32, 6 * 8, requires_grad=True)
line = torch.randn(2, 32, 12 * 8, requires_grad=True)
end_points = module(surface, line, original_feature, {})
end_points['refined'].sum().backward()
