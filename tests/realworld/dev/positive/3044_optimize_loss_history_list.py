# source: https://github.com/rballester/tntorch/pull/19
# framework: torch
# family: B
# kind: history-kept-across-iterations
# pitfall: optimize() appends the undetached total loss to a history list every iteration and back-propagates with retain_graph=True, so all graphs (and their buffers) are kept alive ("froze a PC with 12Gb RAM").
# expect: line 57 — losses.append(<graph-carrying loss>) inside the while loop
# checked: ran, reproduces (20 earlier loss tensors still alive at the last iteration vs 1 after the fix)
import torch
import numpy as np
import time
from functools import reduce


class tn:  # stub for `import tntorch as tn` (only the isinstance check is used)
    class Tensor:
        pass


def optimize(tensors, loss_function, optimizer=torch.optim.Adam, tol=1e-4, max_iter=1e4, print_freq=500, verbose=True):
    """
    High-level wrapper for iterative learning.

    Default stopping criterion: either the absolute (or relative) loss improvement must fall below `tol`.
    In addition, the rate loss improvement must be slowing down.

    :param tensors: one or several tensors; will be fed to `loss_function` and optimized in place
    :param loss_function: must take `tensors` and return a scalar (or tuple thereof)
    :param optimizer: one from https://pytorch.org/docs/stable/optim.html. Default is torch.optim.Adam
    :param tol: stopping criterion
    :param max_iter: default is 1e4
    :param print_freq: progress will be printed every this many iterations
    :param verbose:
    """

    if not isinstance(tensors, (list, tuple)):
        tensors = [tensors]
    parameters = []
    for t in tensors:
        if isinstance(t, tn.Tensor):
            parameters.extend([c for c in t.cores if c.requires_grad])
            parameters.extend([U for U in t.Us if U is not None and U.requires_grad])
        elif t.requires_grad:
            parameters.append(t)
    if len(parameters) == 0:
        raise ValueError("There are no parameters to optimize. Did you forget a requires_grad=True somewhere?")

    optimizer = optimizer(parameters)
    losses = []
    converged = False
    start = time.time()
    iter = 0
    while True:
        optimizer.zero_grad()
        loss = loss_function(*tensors)
        if not isinstance(loss, (tuple, list)):
            loss = [loss]
        losses.append(reduce(lambda x, y: x + y, loss))
        if len(losses) >= 2:
            delta_loss = (losses[-1] - losses[-2])
        else:
            delta_loss = float('-inf')
        if iter >= 2 and tol is not None and (losses[-1] <= tol or -delta_loss / losses[-1] <= tol) and losses[-2] - \
                losses[-1] < losses[-3] - losses[-2]:
            converged = True
            break
        if iter == max_iter:
            break
        if verbose and iter % print_freq == 0:
            print('iter: {: <{}} | loss: '.format(iter, len('{}'.format(max_iter))), end='')
            print(' + '.join(['{:10.6f}'.format(l.item()) for l in loss]), end='')
            if len(loss) > 1:
                print(' = {:10.4}'.format(losses[-1].item()), end='')
            print(' | total time: {:9.4f}'.format(time.time() - start))
        losses[-1].backward(retain_graph=True)
        optimizer.step()
        iter += 1
    if verbose:
        print('iter: {: <{}} | loss: '.format(iter, len('{}'.format(max_iter))), end='')
        print(' + '.join(['{:10.6f}'.format(l.item()) for l in loss]), end='')
        if len(loss) > 1:
            print(' = {:10.4}'.format(losses[-1].item()), end='')
        print(' | total time: {:9.4f}'.format(time.time() - start), end='')
        if converged:
            print(' <- converged (tol={})'.format(tol))
        else:
            print(' <- max_iter was reached: {}'.format(max_iter))


if __name__ == "__main__":
    import weakref
    t = torch.zeros(50, requires_grad=True)
    target = torch.randn(50)
    refs, alive = [], []
    def loss_function(t):
        alive.append(sum(r() is not None for r in refs))  # earlier losses (with their graphs) still referenced
        l = ((t - target) ** 2).sum()
        refs.append(weakref.ref(l))
        return l
    optimize(t, loss_function, optimizer=lambda p: torch.optim.Adam(p, lr=0.05), tol=None, max_iter=20, verbose=False)
    print("graph-carrying losses from earlier iterations still alive at last iteration:", alive[-1])
