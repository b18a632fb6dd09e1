# source: https://github.com/leggedrobotics/rsl_rl/pull/94
# framework: torch
# family: A
# kind: params-not-in-optimizer
# pitfall: The distillation optimizer is given only self.policy.student.parameters(), so the recurrent student memory (policy.memory_s) is never updated.
# expect: line 78 — optimizer built from a sub-module (policy.student) while the loss also depends on policy.memory_s
# checked: ran, reproduces (memory_s GRU weights unchanged after update())
# Copyright (c) 2021-2025, ETH Zurich and NVIDIA CORPORATION
# All rights reserved.
#
# SPDX-License-Identifier: BSD-3-Clause

# torch
import torch
import torch.nn as nn
import torch.optim as optim


class StudentTeacherRecurrent(nn.Module):
    # stub for rsl_rl.modules.StudentTeacherRecurrent: RNN memory (memory_s) feeding the student MLP
    def __init__(self, num_obs=6, num_actions=2, hidden=8):
        super().__init__()
        self.memory_s = nn.GRU(num_obs, hidden)
        self.student = nn.Sequential(nn.Linear(hidden, 16), nn.ELU(), nn.Linear(16, num_actions))
        self.teacher = nn.Linear(num_obs, num_actions)
        self.teacher.requires_grad_(False)
        self.hidden_states = None

    def act_inference(self, obs):
        out, self.hidden_states = self.memory_s(obs.unsqueeze(0), self.hidden_states)
        return self.student(out.squeeze(0))

    def reset(self, dones=None, hidden_states=None):
        if hidden_states is not None or dones is None:
            self.hidden_states = hidden_states

    def detach_hidden_states(self, dones=None):
        if self.hidden_states is not None:
            self.hidden_states = self.hidden_states.detach()

    def get_hidden_states(self):
        return self.hidden_states


class RolloutStorage:
    # stub: yields (obs, _, _, privileged_actions, dones)
    def __init__(self, n=6):
        self.data = [(torch.randn(4, 6), None, None, torch.randn(4, 2), torch.zeros(4)) for _ in range(n)]

    def generator(self):
        yield from self.data

    def clear(self):
        pass


class Distillation:
    """Distillation algorithm for training a student model to mimic a teacher model."""

    def __init__(
        self,
        policy,
        num_learning_epochs=1,
        gradient_length=15,
        learning_rate=1e-3,
        max_grad_norm=None,
        loss_type="mse",
        device="cpu",
    ):
        # device-related parameters
        self.device = device
        self.is_multi_gpu = False

        # distillation components
        self.policy = policy
        self.policy.to(self.device)
        self.storage = None  # initialized later
        self.optimizer = optim.Adam(self.policy.student.parameters(), lr=learning_rate)
        self.last_hidden_states = None

        # distillation parameters
        self.num_learning_epochs = num_learning_epochs
        self.gradient_length = gradient_length
        self.learning_rate = learning_rate
        self.max_grad_norm = max_grad_norm

        # initialize the loss function
        if loss_type == "mse":
            self.loss_fn = nn.functional.mse_loss
        elif loss_type == "huber":
            self.loss_fn = nn.functional.huber_loss
        else:
            raise ValueError(f"Unknown loss type: {loss_type}. Supported types are: mse, huber")

        self.num_updates = 0

    def update(self):
        self.num_updates += 1
        mean_behavior_loss = 0
        loss = 0
        cnt = 0

        for epoch in range(self.num_learning_epochs):
            self.policy.reset(hidden_states=self.last_hidden_states)
            self.policy.detach_hidden_states()
            for obs, _, _, privileged_actions, dones in self.storage.generator():

                # inference the student for gradient computation
                actions = self.policy.act_inference(obs)

                # behavior cloning loss
                behavior_loss = self.loss_fn(actions, privileged_actions)

                # total loss
                loss = loss + behavior_loss
                mean_behavior_loss += behavior_loss.item()
                cnt += 1

                # gradient step
                if cnt % self.gradient_length == 0:
                    self.optimizer.zero_grad()
                    loss.backward()
                    if self.max_grad_norm:
                        nn.utils.clip_grad_norm_(self.policy.student.parameters(), self.max_grad_norm)
                    self.optimizer.step()
                    self.policy.detach_hidden_states()
                    loss = 0

                # reset dones
                self.policy.reset(dones.view(-1))
                self.policy.detach_hidden_states(dones.view(-1))

        mean_behavior_loss /= cnt
        self.storage.clear()
        self.last_hidden_states = self.policy.get_hidden_states()
        self.policy.detach_hidden_states()

        # construct the loss dictionary
        loss_dict = {"behavior": mean_behavior_loss}

        return loss_dict


if __name__ == "__main__":
    alg = Distillation(StudentTeacherRecurrent(), gradient_length=3)
    alg.storage = RolloutStorage()
    rnn_before = [p.detach().clone() for p in alg.policy.memory_s.parameters()]
    alg.update()
    print("student RNN (memory_s) updated:",
          any(not torch.equal(a, b) for a, b in zip(rnn_before, alg.policy.memory_s.parameters())))
