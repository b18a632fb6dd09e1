# source: https://github.com/brentyi/jaxlie/issues/9
# framework: jax
# family: E
# kind: where-nan-gradient
# pitfall: fix merged after the issue: w_safe = jnp.where(use_taylor, w, 1.0) is used inside the Taylor branch, so the unselected branch is finite and jnp.where no longer leaks NaN (double-where trick).
# expect: no finding
# checked: not run (jax not installed)
# note: code as in jaxlie/_so3.py after the fix, helpers inlined
import jax
import jax.numpy as jnp


def get_epsilon(dtype):
    return {jnp.dtype("float32"): 1e-5, jnp.dtype("float64"): 1e-10}[jnp.dtype(dtype)]


def so3_exp(tangent):
    theta_squared = tangent @ tangent
    theta_pow_4 = theta_squared * theta_squared
    use_taylor = theta_squared < get_epsilon(tangent.dtype)
    safe_theta = jnp.sqrt(jnp.where(use_taylor, 1.0, theta_squared))
    safe_half_theta = 0.5 * safe_theta
    real_factor = jnp.where(use_taylor, 1.0 - theta_squared / 8.0 + theta_pow_4 / 384.0, jnp.cos(safe_half_theta))
    imaginary_factor = jnp.where(use_taylor, 0.5 - theta_squared / 48.0 + theta_pow_4 / 3840.0, jnp.sin(safe_half_theta) / safe_theta)
    return jnp.concatenate([real_factor[None], imaginary_factor * tangent])


def so3_log(wxyz):
    w = wxyz[..., 0]
    norm_sq = wxyz[..., 1:] @ wxyz[..., 1:]
    use_taylor = norm_sq < get_epsilon(norm_sq.dtype)

    # Shim to avoid NaNs in jnp.where branches, which cause failures for
    # reverse-mode AD.
    norm_safe = jnp.sqrt(
        jnp.where(
            use_taylor,
            1.0,  # Any non-zero value should do here.
            norm_sq,
        )
    )
    w_safe = jnp.where(use_taylor, w, 1.0)
    atan_n_over_w = jnp.arctan2(
        jnp.where(w < 0, -norm_safe, norm_safe),
        jnp.abs(w),
    )
    atan_factor = jnp.where(
        use_taylor,
        2.0 / w_safe - 2.0 / 3.0 * norm_sq / w_safe**3,
        jnp.where(
            jnp.abs(w) < get_epsilon(w.dtype),
            jnp.where(w > 0, 1.0, -1.0) * jnp.pi / norm_safe,
            2.0 * atan_n_over_w / norm_safe,
        ),
    )

    return atan_factor * wxyz[1:]


a = jnp.array([jnp.pi, 0, 0], dtype=jnp.float32)


def func(x):
    return so3_log(so3_exp(x)).sum()


print(jax.grad(func)(a))
