# source: https://github.com/wiseodd/controlled-text-generation/issues/24
# framework: torch
# family: F
# kind: other-rnn-backward-in-eval
# pitfall: the generator loss is computed on soft embeddings that sample_soft_embed() produces after self.eval(); restoring self.train() afterwards does not help, because the GRU forward already ran in eval mode, so the cuDNN RNN backward of loss_G fails on GPU
# expect: line 219 — loss_G.backward() flows through the decoder GRU run under self.eval() in sample_soft_embed: "cudnn RNN backward can only be called in training mode"
# checked: parse only (cuDNN-specific; needs the repository's SST dataset and a pretrained VAE)
import math
import os
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
import numpy as np
from torch.autograd import Variable
from itertools import chain

from ctextgen.dataset import *

import argparse
from tqdm import tqdm


class RNN_VAE(nn.Module):

    def __init__(self, n_vocab, h_dim, z_dim, c_dim, p_word_dropout=0.3, unk_idx=0, pad_idx=1, start_idx=2, eos_idx=3, max_sent_len=15, pretrained_embeddings=None, freeze_embeddings=False, gpu=False):
        super(RNN_VAE, self).__init__()

        self.START_IDX = start_idx
        self.MAX_SENT_LEN = max_sent_len
        self.n_vocab = n_vocab
        self.h_dim = h_dim
        self.z_dim = z_dim
        self.c_dim = c_dim
        self.gpu = gpu

        self.emb_dim = pretrained_embeddings.size(1)
        self.word_emb = nn.Embedding(n_vocab, self.emb_dim, pad_idx)
        self.word_emb.weight.data.copy_(pretrained_embeddings)
        if freeze_embeddings:
            self.word_emb.weight.requires_grad = False

        self.encoder = nn.GRU(self.emb_dim, h_dim)
        self.q_mu = nn.Linear(h_dim, z_dim)
        self.q_logvar = nn.Linear(h_dim, z_dim)

        self.decoder = nn.GRU(self.emb_dim+z_dim+c_dim, z_dim+c_dim, dropout=0.3)
        self.decoder_fc = nn.Linear(z_dim+c_dim, n_vocab)

        self.conv3 = nn.Conv2d(1, 100, (3, self.emb_dim))
        self.conv4 = nn.Conv2d(1, 100, (4, self.emb_dim))
        self.conv5 = nn.Conv2d(1, 100, (5, self.emb_dim))
        self.disc_fc = nn.Sequential(
            nn.Dropout(0.5),
            nn.Linear(300, 2)
        )
        self.discriminator = nn.ModuleList([
            self.conv3, self.conv4, self.conv5, self.disc_fc
        ])

        self.decoder_params = chain(
            self.decoder.parameters(), self.decoder_fc.parameters()
        )

        if self.gpu:
            self.cuda()

    def forward_encoder_embed(self, inputs):
        _, h = self.encoder(inputs, None)
        h = h.view(-1, self.h_dim)
        mu = self.q_mu(h)
        logvar = self.q_logvar(h)
        return mu, logvar

    def sample_z_prior(self, mbsize):
        z = Variable(torch.randn(mbsize, self.z_dim))
        z = z.cuda() if self.gpu else z
        return z

    def sample_c_prior(self, mbsize):
        c = Variable(
            torch.from_numpy(np.random.multinomial(1, [0.5, 0.5], mbsize).astype('float32'))
        )
        c = c.cuda() if self.gpu else c
        return c

    def forward_discriminator_embed(self, inputs):
        inputs = inputs.unsqueeze(1)  # mbsize x 1 x seq_len x emb_dim

        x3 = F.relu(self.conv3(inputs)).squeeze()
        x4 = F.relu(self.conv4(inputs)).squeeze()
        x5 = F.relu(self.conv5(inputs)).squeeze()

        x3 = F.max_pool1d(x3, x3.size(2)).squeeze()
        x4 = F.max_pool1d(x4, x4.size(2)).squeeze()
        x5 = F.max_pool1d(x5, x5.size(2)).squeeze()

        x = torch.cat([x3, x4, x5], dim=1)
        y = self.disc_fc(x)
        return y

    def generate_soft_embed(self, mbsize, temp=1):
        samples = []
        targets_c = []
        targets_z = []

        for _ in range(mbsize):
            z = self.sample_z_prior(1)
            c = self.sample_c_prior(1)

            samples.append(self.sample_soft_embed(z, c, temp=1))
            targets_z.append(z)
            targets_c.append(c)

        X_gen = torch.cat(samples, dim=0)
        targets_z = torch.cat(targets_z, dim=0)
        _, targets_c = torch.cat(targets_c, dim=0).max(dim=1)

        return X_gen, targets_z, targets_c

    def sample_soft_embed(self, z, c, temp=1):
        self.eval()

        z, c = z.view(1, 1, -1), c.view(1, 1, -1)

        word = torch.LongTensor([self.START_IDX])
        word = word.cuda() if self.gpu else word
        word = Variable(word)  # '<start>'
        emb = self.word_emb(word).view(1, 1, -1)
        emb = torch.cat([emb, z, c], 2)

        h = torch.cat([z, c], dim=2)

        if not isinstance(h, Variable):
            h = Variable(h)

        outputs = [self.word_emb(word).view(1, -1)]

        for i in range(self.MAX_SENT_LEN):
            output, h = self.decoder(emb, h)
            o = self.decoder_fc(output).view(-1)

            # Sample softmax with temperature
            y = F.softmax(o / temp, dim=0)

            # Take expectation of embedding given output prob -> soft embedding
            emb = y.unsqueeze(0) @ self.word_emb.weight
            emb = emb.view(1, 1, -1)

            outputs.append(emb.view(1, -1))

            emb = torch.cat([emb, z, c], 2)

        outputs = torch.cat(outputs, dim=0).unsqueeze(0)

        # Back to default state: train
        self.train()

        return outputs.cuda() if self.gpu else outputs


parser = argparse.ArgumentParser(
    description='Conditional Text Generation: Train Discriminator'
)
parser.add_argument('--gpu', default=False, action='store_true',
                    help='whether to run in the GPU')
args = parser.parse_args()

mbsize = 20
h_dim = 64
lr = 1e-3
n_iter = 5000
z_dim = h_dim
c_dim = 2
kl_weight_max = 0.4
lambda_c = 0.1
lambda_z = 0.1

dataset = SST_Dataset(mbsize=mbsize)

model = RNN_VAE(
    dataset.n_vocab, h_dim, z_dim, c_dim, p_word_dropout=0.3,
    pretrained_embeddings=dataset.get_vocab_vectors(), freeze_embeddings=True,
    gpu=args.gpu
)
model.load_state_dict(torch.load('models/vae.bin'))


def kl_weight(it):
    return (math.tanh((it - 3500)/1000) + 1)/2


def temp(it):
    return 1-kl_weight(it) + 1e-5  # To avoid overflow


def main():
    trainer_G = optim.Adam(model.decoder_params, lr=lr)

    for it in tqdm(range(n_iter)):
        inputs, labels = dataset.next_batch(args.gpu)
        batch_size = inputs.size(1)

        """ Update generator, eq. 8 """
        recon_loss, kl_loss = model.forward(inputs, use_c_prior=False)
        # x_gen: mbsize x seq_len x emb_dim
        x_gen_attr, target_z, target_c = model.generate_soft_embed(batch_size, temp=temp(it))

        # y_z: mbsize x z_dim
        y_z, _ = model.forward_encoder_embed(x_gen_attr.transpose(0, 1))
        y_c = model.forward_discriminator_embed(x_gen_attr)

        loss_vae = recon_loss + kl_weight_max * kl_loss
        loss_attr_c = F.cross_entropy(y_c, target_c)
        loss_attr_z = F.mse_loss(y_z, target_z)

        loss_G = loss_vae + lambda_c*loss_attr_c + lambda_z*loss_attr_z

        loss_G.backward()
        grad_norm = torch.nn.utils.clip_grad_norm(model.decoder_params, 5)
        trainer_G.step()
        trainer_G.zero_grad()


if __name__ == '__main__':
    main()
