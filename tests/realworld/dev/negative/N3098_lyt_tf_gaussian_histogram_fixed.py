# source: https://github.com/albrateanu/LYT-Net/issues/16
# framework: tf
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: Maintainer's fix (commit 29d6241): Gaussian-kernel soft histogram instead of tf.histogram_fixed_width, so the histogram term is differentiable w.r.t. y_pred.
# expect: no finding
# checked: not run (TensorFlow not installed); same construction as the verified torch fix N03
# --- LYT-Net TensorFlow/model/losses.py @29d6241, histogram_loss (verbatim) ---
import tensorflow as tf

def histogram_loss(y_true, y_pred, bins=256, sigma=0.01):
    bin_edges = tf.linspace(0.0, 1.0, bins)
    
    def gaussian_kernel(x, mu, sigma):
        return tf.exp(-0.5 * ((x - mu) / sigma) ** 2)

    y_true_hist = tf.reduce_sum(gaussian_kernel(y_true[..., tf.newaxis], bin_edges, sigma), axis=0)
    y_pred_hist = tf.reduce_sum(gaussian_kernel(y_pred[..., tf.newaxis], bin_edges, sigma), axis=0)
    
    y_true_hist /= tf.reduce_sum(y_true_hist)
    y_pred_hist /= tf.reduce_sum(y_pred_hist)

    hist_distance = tf.reduce_mean(tf.abs(y_true_hist - y_pred_hist))

    return hist_distance


if __name__ == "__main__":
    model = tf.keras.Sequential([tf.keras.layers.Conv2D(3, 3, padding='same', activation='tanh', input_shape=(64, 64, 3))])
    x = tf.random.uniform((2, 64, 64, 3), -1.0, 1.0)
    y_true = tf.random.uniform((2, 64, 64, 3), 0.0, 1.0)
    with tf.GradientTape() as tape:
        y_pred = (model(x) + 1.0) / 2.0
        l = histogram_loss(y_true, y_pred)
    print(tape.gradient(l, model.trainable_variables))  # real gradients
