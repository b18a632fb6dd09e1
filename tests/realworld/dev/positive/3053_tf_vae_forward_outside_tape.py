# source: https://github.com/tensorflow/tensorflow/issues/54341
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: the VAE forward pass X_recon, mu, log_var = model(X) runs before the GradientTape is opened; inside the tape only the loss arithmetic on those precomputed tensors is recorded, so tape.gradient(loss, model.trainable_weights) is all None and apply_gradients raises
# expect: line 48 — the model's forward pass is computed before (outside) the `with tf.GradientTape()` block
# checked: not run (TF/JAX not installed); the thread shows `ValueError: No gradients provided for any variable` raised by optimizer.apply_gradients (grads is a list of 20 Nones)
import tensorflow as tf

# --- stubs (not in the thread excerpt): a tiny VAE with the reporter's three outputs, data, optimizer ---
class VAE(tf.keras.Model):
    def __init__(self, latent_dim=3):
        super().__init__()
        self.flatten = tf.keras.layers.Flatten()
        self.enc = tf.keras.layers.Dense(2 * latent_dim)
        self.dec = tf.keras.layers.Dense(28 * 28)
        self.latent_dim = latent_dim

    def call(self, x):
        h = self.enc(self.flatten(x))
        mu, log_var = h[:, :self.latent_dim], h[:, self.latent_dim:]
        z = mu + tf.exp(0.5 * log_var) * tf.random.normal(tf.shape(mu))
        return tf.reshape(self.dec(z), (-1, 28, 28, 1)), mu, log_var

def compute_reconstruction_loss(data, reconstruction):
    return tf.reduce_mean(tf.reduce_sum(tf.square(data - reconstruction), axis=(1, 2, 3)))

def compute_kl_divergence_loss(mu, log_var):
    return tf.reduce_mean(-0.5 * tf.reduce_sum(1 + log_var - tf.square(mu) - tf.exp(log_var), axis=1))

model = VAE()
optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
X = tf.random.uniform((4, 28, 28, 1))
# --- end stubs; below is the reporter's code as posted ---

def compute_total_loss(data, reconstruction, mu, log_var, alpha = 1):
    recon_loss = compute_reconstruction_loss(data = data, reconstruction = reconstruction)
    kl_loss = compute_kl_divergence_loss(mu = mu, log_var = log_var)

    total_loss = (recon_loss * alpha) + kl_loss
    loss = total_loss**2

    # return total_loss
    return loss


# Make forward propagation using defined VAE model-
X_recon, mu, log_var = model(X)

X_recon.shape, X.shape
# (TensorShape([4, 28, 28, 1]), (4, 28, 28, 1))

mu.shape, log_var.shape
# (TensorShape([4, 3]), TensorShape([4, 3]))

with tf.GradientTape() as tape:
    loss = compute_total_loss(
    data = X, reconstruction = X_recon,
    mu = mu, log_var = log_var,
    alpha = 1
)

grads = tape.gradient(loss, model.trainable_weights)

type(grads), len(grads)
# (list, 20)

# But, this still raises the error as before-
optimizer.apply_gradients(zip(grads, model.trainable_weights))
