# source: https://github.com/jax-ml/jax/issues/1708
# framework: jax
# family: F
# kind: jax-side-effect-in-transform
# pitfall: the body of lax.while_loop increments a Python list u[0] += 1 to count iterations; the body is traced once, so the side effect runs once (u == [1]) rather than on each of the 10 iterations
# expect: line 12 — a Python side effect (mutating the list u) inside a function traced by lax.while_loop runs only at trace time
# checked: ran, reproduces (xla [1])
from jax import lax


def body_fun(val):
    u[0]+=1
    return val+1

cond_fun = lambda j: j<10


### python
u=[0]
def while_loop(cond_fun, body_fun, init_val):
    val = init_val
    while cond_fun(val):
        val = body_fun(val)
    return val

while_loop(cond_fun, body_fun, 0)
print('python', u)

### xla
u=[0]
lax.while_loop(cond_fun, body_fun, 0)
print('xla', u)
