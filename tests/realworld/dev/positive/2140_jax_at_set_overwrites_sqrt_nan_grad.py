# source: https://github.com/jax-ml/jax/issues/28262
# framework: jax
# family: E
# kind: where-nan-gradient
# pitfall: sqrt(x[0]) is written into y and then overwritten by a second .at[0].set; the overwritten entry still contributes sqrt's infinite derivative at 0 multiplied by a zero cotangent, so the gradient is nan
# expect: line 15 — sqrt of x[0] == 0 is stored and later overwritten; the discarded value's infinite derivative times the zero cotangent gives nan
# checked: ran with .sum() of the output, reproduces (gradient [nan]); jax 0.10 rejects grad of the shape-(1,) output that jax 0.6 accepted
import jax

x0 = jax.numpy.zeros(1)


def fn(x):
    y = jax.numpy.zeros_like(x)
    y = y.at[0].set(jax.numpy.sqrt(x[0]))
    y = y.at[0].set(x[0] - 1)
    return y

print(jax.grad(fn, argnums=0)(x0)) # --> [nan], surprising
