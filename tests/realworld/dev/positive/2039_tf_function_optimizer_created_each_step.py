# source: https://github.com/tensorflow/tensorflow/issues/27120
# framework: tf
# family: F
# kind: optimizer-created-in-step
# pitfall: a new Adam optimizer is created inside the tf.function training step, so its slot variables are created on every call ("tried to create variables on non-first call") and, outside tf.function, its moment estimates would restart each step
# expect: line 13 — the optimizer is constructed inside the per-step training function
# checked: parse only (needs a model exposing model.loss(y, target))
import tensorflow as tf
from tensorflow.keras import optimizers

@tf.function
def train_one_step(model,x1,x2,target):
    optim = optimizers.Adam(0.001)
    with tf.GradientTape() as tape:
        y = model(x1,x2)
        loss = model.loss(y,target)
        grad = tape.gradient(loss,model.trainable_variables)
        clipped_gradients, _ = tf.clip_by_global_norm(grad,5)
        optim.apply_gradients(zip(grad, model.trainable_variables))
    return loss
