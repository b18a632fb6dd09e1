# source: https://github.com/albrateanu/LYT-Net/issues/16
# framework: tf
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: The TensorFlow histogram_loss uses tf.histogram_fixed_width (integer bin counts) cast back to float; it has no gradient, so the histogram term of the combined Keras loss silently contributes nothing (the thread notes the TF version "also seems it has no derivates").
# expect: line 40 — `tf.histogram_fixed_width(y_pred, ...)` hard-bins the prediction inside the loss
# checked: not run (TensorFlow not installed); the issue thread reports the TF histogram loss has no gradient, later replaced by Gaussian soft binning (commit 29d6241)
# --- LYT-Net TensorFlow/model/losses.py @d2a9914 (verbatim) ---
import tensorflow as tf
from tensorflow.keras.applications.vgg19 import VGG19
from tensorflow.keras import Model


def color_loss(y_true, y_pred):
    return tf.reduce_mean(tf.abs(tf.reduce_mean(y_true, axis=[1, 2]) - tf.reduce_mean(y_pred, axis=[1, 2])))

def psnr_loss(y_true, y_pred):
    return 40.0-tf.image.psnr(y_true, y_pred, max_val=1.0)

def load_vgg():
    vgg = VGG19(include_top=False, weights='imagenet')
    vgg.trainable = False
    loss_model = Model(inputs=vgg.input, outputs=vgg.get_layer('block3_conv3').output)
    return loss_model

def perceptual_loss(y_true, y_pred, loss_model):
    return tf.reduce_mean(tf.square(loss_model(y_true) - loss_model(y_pred)))

def smooth_l1_loss(y_true, y_pred):
    diff = tf.abs(y_true - y_pred)
    less_than_one = tf.cast(tf.less(diff, 1.0), tf.float32)
    smooth_l1_loss = (0.5 * diff**2) * less_than_one + (diff - 0.5) * (1.0 - less_than_one)
    return tf.reduce_mean(smooth_l1_loss)

def multiscale_ssim_loss(y_true, y_pred, max_val=1.0, power_factors=[0.5, 0.5]):
    return 1 - tf.reduce_mean(tf.image.ssim_multiscale(y_true, y_pred, max_val, power_factors=power_factors))

def histogram_loss(y_true, y_pred, bins=256):
    y_true_hist = tf.histogram_fixed_width(y_true, [0.0, 1.0], nbins=bins, dtype=tf.int32)
    y_pred_hist = tf.histogram_fixed_width(y_pred, [0.0, 1.0], nbins=bins, dtype=tf.int32)

    y_true_hist = tf.cast(y_true_hist, tf.float32) / tf.cast(tf.reduce_sum(y_true_hist), tf.float32)
    y_pred_hist = tf.cast(y_pred_hist, tf.float32) / tf.cast(tf.reduce_sum(y_pred_hist), tf.float32)

    hist_distance = tf.reduce_mean(tf.abs(y_true_hist - y_pred_hist))

    return hist_distance

def loss(y_true, y_pred, loss_model):
    y_true = (y_true + 1.0) / 2.0
    y_pred = (y_pred + 1.0) / 2.0
    alpha1 = 1.00
    alpha2 = 0.06
    alpha3 = 0.05
    alpha4 = 0.5
    alpha5 = 0.0083
    alpha6 = 0.25

    smooth_l1_l = smooth_l1_loss(y_true, y_pred)
    ms_ssim_l = multiscale_ssim_loss(y_true, y_pred)
    perc_l = perceptual_loss(y_true, y_pred, loss_model=loss_model)
    hist_l = histogram_loss(y_true, y_pred)
    psnr_l = psnr_loss(y_true, y_pred)
    color_l = color_loss(y_true, y_pred)

    total_loss = alpha1 * smooth_l1_l + alpha2 * perc_l + alpha3*hist_l + alpha5*psnr_l + alpha6*color_l+ alpha4*ms_ssim_l
    total_loss = tf.reduce_mean(total_loss)
    return total_loss


if __name__ == "__main__":
    # stub model; the real one is LYT-Net, trained with model.compile(loss=lambda yt, yp: loss(yt, yp, loss_model))
    model = tf.keras.Sequential([tf.keras.layers.Conv2D(3, 3, padding='same', activation='tanh', input_shape=(64, 64, 3))])
    x = tf.random.uniform((2, 64, 64, 3), -1.0, 1.0)
    y_true = tf.random.uniform((2, 64, 64, 3), 0.0, 1.0)
    with tf.GradientTape() as tape:
        y_pred = (model(x) + 1.0) / 2.0
        l = histogram_loss(y_true, y_pred)
    print(tape.gradient(l, model.trainable_variables))  # [None, None]
