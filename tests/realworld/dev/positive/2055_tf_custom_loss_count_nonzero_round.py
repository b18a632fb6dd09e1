# source: https://github.com/tensorflow/tensorflow/issues/58614
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the custom loss counts correct predictions with tf.math.count_nonzero(tf.math.equal(tf.round(prediction), ...)) and label counts from tf.where(...).shape; rounding, equality and counting have no gradient, so tape.gradient(loss, model.trainable_weights) is None
# expect: line 14 — the loss is built from count_nonzero of an equality on rounded predictions, none of which is differentiable
# checked: ran (completed minimally: the thread's code is cut off after the label counts), reproduces (gradients [None, None])
import tensorflow as tf


class Trainer:
    def custom_loss(self,output,prediction):

        correct_count=tf.math.count_nonzero(tf.math.equal(tf.round(prediction),tf.cast(output,tf.float32)))
        incorrect_count=prediction.shape[0]-correct_count

        incorrect_label_count=tf.where(output==0.0).shape[0]
        correct_label_count=tf.where(output==1.0).shape[0]
        return tf.cast(correct_count + incorrect_count, tf.float32) / (correct_label_count + incorrect_label_count)

    def train_step(self, x, output):
        with tf.GradientTape() as tape:
            prediction = self.model(x, training=True)
            loss = self.custom_loss(output, prediction)
        grads = tape.gradient(loss, self.model.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_weights))
        return loss
