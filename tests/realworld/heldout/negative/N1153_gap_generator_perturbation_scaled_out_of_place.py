# source: https://github.com/OmidPoursaeed/Generative_Adversarial_Perturbations/issues/4
# framework: torch
# family: D
# kind: data-mutation
# negative: the maintainers' fix (commits 82fdf94 and 6fd761e, answering the issue): shift, normalise, rescale and clamp with ordinary autograd-tracked operations instead of through .data
# mimics: positive/1153_gap_generator_perturbation_scaled_via_data.py
# expect: no finding
# checked: parse only (needs CUDA, the pretrained classifier and ImageNet); GAP_clf.py before commit 82fdf94, argument parsing and evaluation trimmed
from __future__ import print_function
import argparse
import os
from math import log10
import matplotlib.pyplot as plt
plt.switch_backend('agg')
import torchvision
import torch
import torch.nn as nn
import torch.optim as optim
from torch.autograd import Variable
from torch.utils.data import DataLoader
#from models import ResnetGenerator, weights_init
from material.models.generators import ResnetGenerator, weights_init
from data import get_training_set, get_test_set
import torch.backends.cudnn as cudnn
import math
import torchvision.transforms as transforms
import numpy as np

opt = argparse.Namespace(foolmodel='vgg16', batchSize=30, testBatchSize=16, target=-1, optimizer='adam',
                         lr=0.0002, perturbation_type='imdep', mag_in=10.0, gpu_ids='0')

gpulist = [int(i) for i in opt.gpu_ids.split(',')]
n_gpu = len(gpulist)

mean_arr = [0.485, 0.456, 0.406]
stddev_arr = [0.229, 0.224, 0.225]
mag_in = opt.mag_in
MaxIter = 1000
itr_accum = 0
train_loss_history = []


def train(epoch):
    netG.train()
    global itr_accum
    global optimizerG

    for itr, (image, _) in enumerate(training_data_loader, 1):
        if itr > MaxIter:
            break

        if opt.target == -1:
            # least likely class in nontargeted case
            pretrained_label_float = pretrained_clf(Variable(image).cuda(gpulist[0]))
            _, target_label = torch.min(pretrained_label_float, 1)
        else:
            # targeted case
            target_label = torch.LongTensor(image.size(0))
            target_label.fill_(opt.target)
            target_label = Variable(target_label.cuda(gpulist[0]))

        itr_accum += 1
        if opt.optimizer == 'sgd':
            lr_mult = (itr_accum // 1000) + 1
            optimizerG = optim.SGD(netG.parameters(), lr=opt.lr/lr_mult, momentum=0.9)

        image = Variable(image)
        image = image.cuda(gpulist[0])

        ## generate per image perturbation from fixed noise
        if opt.perturbation_type == 'universal':
            delta_im = netG(noise_tr)
        else:
            delta_im = netG(image)

        delta_im = normalize_and_scale(delta_im, 'train')

        netG.zero_grad()

        recons = torch.add(image.cuda(gpulist[0]), delta_im.cuda(gpulist[0]))

        # do clamping per channel
        for cii in range(3):
            recons[:,cii,:,:] = recons[:,cii,:,:].clone().clamp(image[:,cii,:,:].min(), image[:,cii,:,:].max())

        output_pretrained = pretrained_clf(recons.cuda(gpulist[0]))

        # attempt to get closer to least likely class, or target
        loss = torch.log(criterion_pre(output_pretrained, target_label))

        loss.backward()
        optimizerG.step()

        train_loss_history.append(loss.item())
        print("===> Epoch[{}]({}/{}) loss: {:.4f}".format(epoch, itr, len(training_data_loader), loss.item()))



def normalize_and_scale(delta_im, mode='train'):
    if opt.foolmodel == 'incv3':
        delta_im = nn.ConstantPad2d((0,-1,-1,0),0)(delta_im) # crop slightly to match inception

    delta_im = delta_im + 1 # now 0..2
    delta_im = delta_im * 0.5 # now 0..1

    # normalize image color channels
    for c in range(3):
        delta_im[:,c,:,:] = (delta_im[:,c,:,:] - mean_arr[c]) / stddev_arr[c]

    # threshold each channel of each image in deltaIm according to inf norm
    # do on a per image basis as the inf norm of each image could be different
    bs = opt.batchSize if (mode == 'train') else opt.testBatchSize
    for i in range(bs):
        # do per channel l_inf normalization
        for ci in range(3):
            l_inf_channel = delta_im[i,ci,:,:].detach().abs().max()
            mag_in_scaled_c = mag_in/(255.0*stddev_arr[ci])
            gpu_id = gpulist[1] if n_gpu > 1 else gpulist[0]
            delta_im[i,ci,:,:] = delta_im[i,ci,:,:] * np.minimum(1.0, mag_in_scaled_c / l_inf_channel.cpu().numpy())

    return delta_im
