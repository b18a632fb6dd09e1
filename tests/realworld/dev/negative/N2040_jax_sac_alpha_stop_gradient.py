# source: https://github.com/young-geng/JaxCQL/issues/3
# framework: jax
# kind: missing-stop-gradient
# negative: SAC losses use jax.lax.stop_gradient deliberately: the temperature is frozen inside the policy loss and the entropy difference is frozen inside the alpha loss, so each loss only trains its own parameters
# mimics: positive/2027_tf1_gradnorm_target_not_constant.py
# expect: no finding
# checked: parse only (function definition)
import jax
import jax.numpy as jnp


def sac_losses(log_alpha, action_log_prob, no_grad_q_value, target_entropy):
    alpha_value = jnp.exp(jax.lax.stop_gradient(log_alpha))
    policy_loss = jnp.mean(alpha_value * action_log_prob - no_grad_q_value)

    entropy_diff = -action_log_prob - target_entropy
    alpha_loss = jnp.mean(log_alpha * jax.lax.stop_gradient(entropy_diff))
    return policy_loss, alpha_loss
