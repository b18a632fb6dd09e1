# source: https://github.com/jax-ml/jax/issues/9014
# framework: jax
# family: A
# kind: jax-tracer-conversion
# pitfall: the custom JVP rule calls scipy.integrate.quad on a traced tangent (c1_dot); SciPy needs concrete floats, so jax.grad fails with ConcretizationTypeError
# expect: line 21 — scipy's quad integrates a lambda over a traced tangent inside the JVP rule
# checked: ran, reproduces (ConcretizationTypeError)
import jax
from scipy.integrate import quad

@jax.custom_jvp
def F(c1, c2):
    val, err = quad(lambda x: c1/(1.0 + x**2), a=c2, b=jax.numpy.inf)
    return val

@F.defjvp
def F_jvp(primals, tangents):
    c1, c2 = primals
    c1_dot, c2_dot = tangents
    primal_out = F(c1, c2)
    tangent_out = -(c1/(1.0 + c2**2)) * c2_dot + quad(lambda x: c1_dot * (1/(1.0 + x**2)), a=c2, b=jax.numpy.inf)
    return primal_out, tangent_out

grad_F = jax.grad(F)

c1 = -1.0
c2 = 0.0

F(c1, c2)
grad_F(c1,c2)
