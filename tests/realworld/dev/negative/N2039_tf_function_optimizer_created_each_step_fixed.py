# source: https://github.com/tensorflow/tensorflow/issues/27120
# framework: tf
# kind: optimizer-created-in-step
# negative: the accepted fix — create the optimizer once, outside the step function
# mimics: positive/2039_tf_function_optimizer_created_each_step.py
# expect: no finding
# checked: parse only (needs a model exposing model.loss(y, target))
import tensorflow as tf
from tensorflow.keras import optimizers

optim = optimizers.Adam(0.001)

@tf.function
def train_one_step(model,x1,x2,target):
    with tf.GradientTape() as tape:
        y = model(x1,x2)
        loss = model.loss(y,target)
    grad = tape.gradient(loss,model.trainable_variables)
    clipped_gradients, _ = tf.clip_by_global_norm(grad,5)
    optim.apply_gradients(zip(clipped_gradients, model.trainable_variables))
    return loss
