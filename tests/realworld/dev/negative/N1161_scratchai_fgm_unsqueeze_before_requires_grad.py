# source: https://github.com/iArunava/scratchai/pull/40
# framework: torch
# family: C
# kind: nonleaf-grad-none
# negative: the merged fix (PR #40, commit 9a03a3a): unsqueeze first, then make the batched tensor the requires-grad leaf
# mimics: positive/1161_scratchai_fgm_unsqueeze_after_requires_grad.py
# expect: no finding
# checked: ran, no error
import numpy as np
import torch
import torch.nn as nn


def optimize_linear(grads, eps, ordr):
  """
  Solves for optimal input to a linear function under a norm constraint.

  Arguments
  ---------
  grads : torch.Tensor
           The gradients of the input.
  eps : float
        Scalar specifying the constraint region.
  ordr : [np.inf, 1, 2] 
         Order of norm constraint.

  Returns
  -------
  opt_pert : torch.Tensor
             Optimal Perturbation.
  """

  red_ind = list(range(1, len(grads.size())))
  azdiv = torch.tensor(1e-12, dtype=grads.dtype, device=grads.device)

  if ordr == np.inf:
    opt_pert = torch.sign(grads)

  elif ordr == 1:
    abs_grad = torch.abs(grads)
    sign = torch.sign(grads)
    ori_shape = [1] * len(grads.size())
    ori_shape[0] = grads.size(0)

    max_abs_grad, _ = torch.max(abs_grad.view(grads.size(0), -1), 1)
    max_mask = abs_grad.eq(max_abs_grad.view(ori_shape)).float()
    num_ties = max_mask
    for red_scalar in red_ind:
      num_ties = torch.sum(num_ties, red_scalar, keepdims=True)
    opt_pert = sign * max_mask / num_ties
    # TODO tests

  elif ordr == 2:
    # TODO
    square = torch.max(azdiv, torch.sum(grads ** 2, red_ind, keepdim=True))
    opt_pert = grads / torch.sqrt(square)
    # TODO tests
  else:
    raise NotImplementedError('Only L-inf, L1 and L2 norms are '
                              'currently implemented.')

  scaled_pert = eps * opt_pert
  return scaled_pert



def fgm(x, net:nn.Module, eps:float=0.3, ordr=np.inf, y=None, 
        clip_min=None, clip_max=None, targeted=False, sanity_checks=True):
  """
  Implementation of the Fast Gradient Method.

  Arguments
  ---------
  net : nn.Module
        The model on which to perform the attack.
  x : torch.tensor
      The input to the net.
  y : torch.tensor, optional
      True labels. If targeted is true, then provide the target label.
      Otherwise, only model predictions are used as labels to avoid 
      the "label leaking" effect (explained in this paper: 
      https://arxiv.org/abs/1611.01236). Default is None.
      Labels should be one hot encoded.
  eps: float, optional
       The epsilon (input variation parameter)
  ord : [np.inf, 1, 2], optional
        Order of the norm.
  clip_min : float
             Minimum float value for adversarial example components.
  clip_max : float
             Maximum float value for adversarial example components.
  targeted : bool, optional
             Is the attack targeted or untargeted? Untargeted will try to make
             the label incorrect. Targeted will instead try to move in the
             direction of being more like y.

  Returns
  -------
  adv_x : torch.Tensor
          The adversarial example.
  """
  if ordr not in [np.inf, 1, 2]:
    raise ValueError('Norm order must be either np.inf, 1, or 2.')

  if clip_min:
    assert torch.all(x > torch.tensor(clip_min, device=x.device, dtype=x.dtype))
  if clip_max:
    assert torch.all(x < torch.tensor(clip_max, device=x.device, dtype=x.dtype))

  # Inplace operations not working for some bug #15070
  # TODO Update when fixed
  if len(x.shape) == 3: x = x.unsqueeze(0)

  # x needs to have requires_grad set to True 
  # for its grad to be computed and stored properly in a backward call
  x = x.detach().clone(); x.requires_grad_(True)
  if y is None:
    _, y = torch.max(net(x), dim=1)

  # Compute loss
  crit = nn.CrossEntropyLoss()
  loss = crit(net(x), y)
  # If attack is targeted, minimize loss of target label rather than maximize
  # loss of correct label.
  if targeted:
    loss = -loss

  # Define gradient of loss wrt input
  loss.backward()
  opt_pert = optimize_linear(x.grad, eps, ordr)

  # Add perturbation to original example to obtain adversarial example
  adv_x = x + opt_pert

  # If clipping is needed, reset all values outside of [clip_min, clip_max]
  if (clip_min is not None) or (clip_max is not None):
    # We don't currently support one-sided clipping
    assert clip_min is not None and clip_max is not None
    adv_x = torch.clamp(adv_x, clip_min, clip_max)
  
  return adv_x


net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10)).eval()
img = torch.rand(3, 32, 32)
adv = fgm(img, net, eps=0.03)
