# source: https://github.com/deepfakes/faceswap-model/issues/27
# framework: tf
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: Workaround posted because "tf.histogram_fixed_width is not differentiable to use in loss func.": a histogram built from clip_by_value ramps, which matches the hard histogram in value but has gradients w.r.t. the input.
# expect: no finding
# checked: not run (TensorFlow not installed); the thread shows the loss being optimised (image converging to the target histogram)
import tensorflow as tf


def tf_image_histogram (tf, input):
    x = input
    x += 1 / 255.0
    
    output = []
    for i in range(256, 0, -1):
        v = i / 255.0
        y = (x - v) * 1000
        
        y = tf.clip_by_value (y, -1.0, 0.0) + 1

        output.append ( tf.reduce_sum (y) )
        x -= y*v

    return tf.stack ( output[::-1] )


if __name__ == "__main__":
    # stub inputs; in the thread y_pred is the generator output
    y_true = tf.random.uniform((64, 64, 3))
    pred_var = tf.Variable(tf.random.uniform((64, 64, 3)))
    with tf.GradientTape() as tape:
        y_pred = pred_var * 1.0
        hist_loss = tf.reduce_mean ( tf.square ( ( tf_image_histogram (tf, y_true) - tf_image_histogram(tf, y_pred) ) /65536 ) )
    print(tape.gradient(hist_loss, pred_var))  # not None
