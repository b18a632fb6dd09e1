# source: https://github.com/Aaditya-Prasad/consistency-policy/issues/4
# framework: torch
# family: C
# kind: loss-under-no-grad
# pitfall: In the CTM student's `compute_loss`, the grad-carrying prediction `pred` is overwritten inside a `with torch.no_grad():` block (mapped back to t=0 through the EMA model), so the CTM loss has no grad_fn and never trains the student.
# expect: line 143 — `pred = self._forward(self.model_ema, pred, stops, start, ...)` inside `with torch.no_grad():` replaces the student's prediction that the loss is computed from
# checked: ran (stub scheduler/nets, random batch), reproduces: total_loss['ctm'] has requires_grad=False (silently no gradient when summed with 'dsm'); with only the ctm loss, backward() raises 'element 0 of tensors does not require grad'. compute_loss verbatim from consistency_policy/student/ctm_policy.py (ctm + dsm branches; obs branch reduced to the global-cond path); scheduler, nets and helpers stubbed
import copy

import torch
import torch.nn as nn


# --- stubs (not from the thread): helpers, noise scheduler, encoders, networks ---
def dict_apply(x, func):
    return {k: func(v) for k, v in x.items()}

def Huber_Loss(pred, target, delta=0.0, weights=None):
    return torch.mean(torch.sqrt((pred - target) ** 2 + delta ** 2) - delta)

class _Identity:
    def normalize(self, x):
        return x
    def __getitem__(self, k):
        return self

class NoiseScheduler:
    time_min, ode_steps_max, bins = 0.002, 2, 10
    def sample_times(self, traj, time_sampler=None):
        b = traj.shape[0]
        t = torch.randint(0, 5, (b,))
        if time_sampler == 'ctm_dsm':
            return t, None
        return t, t + 3, t + 1
    def timesteps_to_times(self, t):
        return t.float() / self.bins + self.time_min
    def add_noise(self, traj, times):
        return traj + times.view(-1, 1, 1) * torch.randn_like(traj)
    def step(self, denoise, x, t, nt, clamp=False):
        return x + (nt - t).view(-1, 1, 1) * denoise(x, t)
    def get_weights(self, *a):
        return None

class Net(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d + 2, d)
    def forward(self, x, t, s, local_cond=None, global_cond=None):
        ts = torch.stack([t, s], -1)[:, None, :].expand(-1, x.shape[1], -1)
        return self.lin(torch.cat([x, ts], -1))
# --- end stubs ---


class CTMPPUnetHybridImagePolicy(nn.Module):
    def __init__(self, action_dim=3, losses=None):
        super().__init__()
        self.model = Net(action_dim)
        self.model_ema = copy.deepcopy(self.model).requires_grad_(False)
        self.teacher = lambda x, t, local_cond=None, global_cond=None: -x
        self.obs_encoder = lambda d: d['image'].flatten(1)
        self.normalizer = _Identity()
        self.noise_scheduler = NoiseScheduler()
        self.mask_generator = lambda shape: torch.zeros(shape, dtype=torch.bool)
        self.obs_as_global_cond = True
        self.n_obs_steps = 1
        self.ctm_sampler = "ctm"
        self.dsm_weights = None
        self.delta = 0.0
        self.losses = losses

    def _forward(self, model, x, t, s, local_cond=None, global_cond=None, clamp=False):
        return model(x, t, s, local_cond=local_cond, global_cond=global_cond)

    def compute_loss(self, batch):
        # normalize input
        total_loss = {}

        assert 'valid_mask' not in batch
        nobs = self.normalizer.normalize(batch['obs'])
        nactions = self.normalizer['action'].normalize(batch['action'])
        batch_size = nactions.shape[0]
        horizon = nactions.shape[1]


        # handle different ways of passing observation
        local_cond = None
        global_cond = None
        trajectory = nactions
        cond_data = trajectory
        if self.obs_as_global_cond:
            # reshape B, T, ... to B*T
            this_nobs = dict_apply(nobs, 
                lambda x: x[:,:self.n_obs_steps,...].reshape(-1,*x.shape[2:]))
            nobs_features = self.obs_encoder(this_nobs)
            # reshape back to B, Do
            global_cond = nobs_features.reshape(batch_size, -1)

        # generate impainting mask
        condition_mask = self.mask_generator(trajectory.shape)

        if "ctm" in self.losses.keys():

            #t, s, and u are all given as absolute bins
            t, s, u = self.noise_scheduler.sample_times(trajectory, time_sampler=self.ctm_sampler)
            times = self.noise_scheduler.timesteps_to_times(t)
            stops = self.noise_scheduler.timesteps_to_times(s)
            u_times = self.noise_scheduler.timesteps_to_times(u)

            weights = None
            
            noise_traj = self.noise_scheduler.add_noise(trajectory, times)

            denoise = lambda x, t: self.teacher(x, t, local_cond=local_cond, global_cond=global_cond)
            u_noise_traj = noise_traj
            distances = u - t
            max_d = torch.max(distances)

            for d in range(self.noise_scheduler.ode_steps_max):
                ct = torch.stack([(t_i + d).clamp(int(t_i.item()), int(u_i.item())) for t_i, u_i in zip(t, u)])
                nt = torch.stack([(t_i + d + 1).clamp(int(t_i.item()), int(u_i.item())) for t_i, u_i in zip(t, u)])

                current_times = self.noise_scheduler.timesteps_to_times(ct)
                next_times = self.noise_scheduler.timesteps_to_times(nt)

                u_noise_traj = self.noise_scheduler.step(denoise, u_noise_traj, current_times, next_times, clamp=False)


            ### current times is > next times! this means the ema model runs on next times
            
            # t -> s
            pred = self._forward(self.model, noise_traj, times, stops, 
                                    local_cond=local_cond, global_cond=global_cond)

            # u -> s
            with torch.no_grad():
                target = self._forward(self.model_ema, u_noise_traj, u_times, stops,
                                    local_cond=local_cond, global_cond=global_cond)

            # now we take both back to 0
            with torch.no_grad():
                start = torch.tensor([self.noise_scheduler.time_min], device = trajectory.device).expand(times.shape)

                pred = self._forward(self.model_ema, pred, stops, start, 
                                    local_cond=local_cond, global_cond=global_cond)
                
                target = self._forward(self.model_ema, target, stops, start,
                                    local_cond=local_cond, global_cond=global_cond)


            loss = Huber_Loss(pred, target, delta = self.delta, weights=weights)

            total_loss["ctm"] = loss * self.losses["ctm"]

        if "dsm" in self.losses.keys():
            times, _ = self.noise_scheduler.sample_times(trajectory, time_sampler='ctm_dsm')
            weights = self.noise_scheduler.get_weights(times, None, self.dsm_weights)
            noisy_trajectory = self.noise_scheduler.add_noise(trajectory, times)
            
            # Predict the initial state
            stop = torch.tensor([self.noise_scheduler.time_min], device = trajectory.device).expand(times.shape)
            pred = self._forward(self.model, noisy_trajectory, times, stop,
                                    local_cond=local_cond, global_cond=global_cond, clamp=False)
            
            target = trajectory

            loss = Huber_Loss(pred, target, delta = self.delta, weights=weights)

            total_loss["dsm"] = loss * self.losses["dsm"]


        return total_loss


# --- driver (not from the thread): the workspace sums the loss dict and calls backward ---
if __name__ == "__main__":
    torch.manual_seed(0)
    policy = CTMPPUnetHybridImagePolicy(losses={"ctm": 1.0, "dsm": 1.0})
    batch = {"obs": {"image": torch.randn(4, 2, 5)}, "action": torch.randn(4, 8, 3)}
    total = policy.compute_loss(batch)
    print({k: (v.requires_grad, v.grad_fn is not None) for k, v in total.items()})
    only_ctm = CTMPPUnetHybridImagePolicy(losses={"ctm": 1.0}).compute_loss(batch)
    sum(only_ctm.values()).backward()
