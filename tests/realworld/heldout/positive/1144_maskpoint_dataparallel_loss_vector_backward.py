# source: https://github.com/WisconsinAIVision/MaskPoint/issues/7
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: without --launcher the runner wraps the model in nn.DataParallel; each replica returns scalar losses, which DataParallel gathers into one value per GPU, so the summed loss is a vector and backward() refuses it
# expect: line 67 — on several GPUs the gathered loss_1 + loss_2 has one entry per replica: "grad can be implicitly created only for scalar outputs" (the log shows "Using Data parallel ...")
# checked: parse only (needs several GPUs: with one device DataParallel returns the replica's scalar unchanged); cause inferred from the log line in the thread, the thread has no maintainer answer
import torch
import torch.nn as nn
from tools import builder
from utils import misc, dist_utils
import time
from utils.logger import *
from utils.AverageMeter import AverageMeter
from torchvision import transforms
from datasets import data_transforms

train_transforms = transforms.Compose(
    [
        data_transforms.PointcloudScaleAndTranslate(),
    ]
)


def run_net(args, config, train_writer=None, val_writer=None):
    logger = get_logger(args.log_name)
    # build dataset
    (train_sampler, train_dataloader), (_, test_dataloader),= builder.dataset_builder(args, config.dataset.train), \
                                                            builder.dataset_builder(args, config.dataset.val)
    # build model
    base_model = builder.model_builder(config.model)
    if args.use_gpu:
        base_model.to(args.local_rank)

    start_epoch = 0

    # DDP
    if args.distributed:
        base_model = nn.parallel.DistributedDataParallel(base_model, device_ids=[args.local_rank % torch.cuda.device_count()], find_unused_parameters=True)
        print_log('Using Distributed Data parallel ...' , logger = logger)
    else:
        print_log('Using Data parallel ...' , logger = logger)
        base_model = nn.DataParallel(base_model).cuda()
    # optimizer & scheduler
    optimizer, scheduler = builder.build_opti_sche(base_model, config)

    base_model.zero_grad()
    for epoch in range(start_epoch, config.max_epoch + 1):
        base_model.train()
        losses = AverageMeter(['Loss1', 'Loss2'])
        num_iter = 0
        grad_clip_val = config.grad_norm_clip

        n_batches = len(train_dataloader)
        for idx, (taxonomy_ids, model_ids, data) in enumerate(train_dataloader):
            num_iter += 1
            npoints = config.dataset.train.others.npoints
            points = data.cuda()

            assert points.size(1) == npoints
            points = train_transforms(points)

            loss_1, loss_2 = base_model(points)

            _loss = loss_1 + loss_2

            _loss.backward()

            # forward
            if num_iter == config.step_per_update:
                if config.get('grad_norm_clip') is not None:
                    grad_norm = torch.nn.utils.clip_grad_norm_(base_model.parameters(), grad_clip_val, norm_type=2)
                num_iter = 0
                optimizer.step()
                base_model.zero_grad()

            if args.distributed:
                loss_1 = dist_utils.reduce_tensor(loss_1, args)
                loss_2 = dist_utils.reduce_tensor(loss_2, args)
                losses.update([loss_1.item(), loss_2.item()])
            else:
                losses.update([loss_1.item(), loss_2.item()])
        scheduler.step(epoch)
