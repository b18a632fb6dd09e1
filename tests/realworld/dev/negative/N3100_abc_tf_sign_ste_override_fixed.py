# source: https://github.com/layog/Accurate-Binary-Convolution-Network/issues/6
# framework: tf
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: Fix suggested in the issue: override the gradient of Sign with Identity (straight-through estimator) so the loss gradient passes through the binarization to the real-valued filters.
# expect: no finding
# checked: not run (TensorFlow not installed); fix as posted in the issue (gradient_override_map Sign->Identity), acknowledged by the maintainer
from __future__ import division, print_function
import tensorflow as tf
import numpy as np

def get_mean_stddev(input_tensor):
    with tf.name_scope('mean_stddev_cal'):
        mean, variance = tf.nn.moments(input_tensor, axes=list(range(len(input_tensor.get_shape()))))
        stddev = tf.sqrt(variance, name="standard_deviation")
        return mean, stddev

# TODO: Allow shift parameters to be learnable
def get_shifted_stddev(stddev, no_filters):
    with tf.name_scope('shifted_stddev'):
        spreaded_deviation = -1. + (2./(no_filters - 1)) * tf.convert_to_tensor(list(range(no_filters)),
                                                                                dtype=tf.float32)
        return spreaded_deviation * stddev

def get_binary_filters(convolution_filters, no_filters, name=None):
    with tf.name_scope(name, default_name="get_binary_filters"):
        mean, stddev = get_mean_stddev(convolution_filters)
        shifted_stddev = get_shifted_stddev(stddev, no_filters)

        # Normalize the filters by subtracting mean from them
        mean_adjusted_filters = convolution_filters - mean

        # Tiling filters to match the number of filters
        expanded_filters = tf.expand_dims(mean_adjusted_filters, axis=0, name="expanded_filters")
        tiled_filters = tf.tile(expanded_filters, [no_filters] + [1] * len(convolution_filters.get_shape()),
                                name="tiled_filters")

        # Similarly tiling spreaded stddev to match the shape of tiled_filters
        expanded_stddev = tf.reshape(shifted_stddev, [no_filters] + [1] * len(convolution_filters.get_shape()),
                                     name="expanded_stddev")

        with tf.get_default_graph().gradient_override_map({"Sign": "Identity"}):
            binarized_filters = tf.sign(tiled_filters + expanded_stddev, name="binarized_filters")
        return binarized_filters

def get_alphas(convolution_filters, binary_filters, no_filters, name=None):
    with tf.name_scope(name, "get_alphas"):
        # Reshaping convolution filters to be one dimensional and binary filters to be of [no_filters, -1] dimension
        reshaped_convolution_filters = tf.reshape(convolution_filters, [-1], name="reshaped_convolution_filters")
        reshaped_binary_filters = tf.reshape(binary_filters, [no_filters, -1],
                                             name="reshaped_binary_filters")

        # Creating variable for alphas
        alphas = tf.Variable(tf.random_normal(shape=(no_filters, 1), mean=1.0, stddev=0.1), name="alphas")

        # Calculating W*alpha
        weighted_sum_filters = tf.reduce_sum(tf.multiply(alphas, reshaped_binary_filters),
                                             axis=0, name="weighted_sum_filters")

        # Defining loss
        error = tf.square(reshaped_convolution_filters - weighted_sum_filters, name="alphas_error")
        loss = tf.reduce_mean(error, axis=0, name="alphas_loss")

        # Defining optimizer
        training_op = tf.train.AdamOptimizer().minimize(loss, var_list=[alphas],
                                                        name="alphas_training_op")

        return alphas, training_op, loss

def ApproxConv(no_filters, convolution_filters, convolution_biases=None,
               strides=(1, 1), padding="VALID", name=None):
    with tf.name_scope(name, "ApproxConv"):
        # Creating variables from input convolution filters and convolution biases
        filters = tf.Variable(convolution_filters, dtype=tf.float32, name="filters")
        if convolution_biases is None:
            biases = 0.
        else:
            biases = tf.Variable(convolution_biases, dtype=tf.float32, name="biases")

        # Creating binary filters
        binary_filters = get_binary_filters(filters, no_filters)

        # Getting alphas
        alphas, alphas_training_op, alphas_loss = get_alphas(filters, binary_filters,
                                                             no_filters)

        # Defining function for closure to accept multiple inputs with same filters
        def ApproxConvLayer(input_tensor, name=None):
            with tf.name_scope(name, "ApproxConv_Layer"):
                # Reshaping alphas to match the input tensor
                reshaped_alphas = tf.reshape(alphas,
                                             shape=[no_filters] + [1] * len(input_tensor.get_shape()),
                                             name="reshaped_alphas")

                # Calculating convolution for each binary filter
                approxConv_outputs = []
                for index in range(no_filters):
                    # Binary convolution
                    this_conv = tf.nn.conv2d(input_tensor, binary_filters[index],
                                             strides=(1,) + strides + (1,),
                                             padding=padding)
                    approxConv_outputs.append(this_conv + biases)
                conv_outputs = tf.convert_to_tensor(approxConv_outputs, dtype=tf.float32,
                                                    name="conv_outputs")

                # Summing up each of the binary convolution
                ApproxConv_output = tf.reduce_sum(tf.multiply(conv_outputs, reshaped_alphas), axis=0)

                return ApproxConv_output

        return alphas_training_op, ApproxConvLayer, alphas_loss


# --- stub training graph (the repo trains ABC layers on CIFAR-10 with softmax cross-entropy) ---
if __name__ == "__main__":
    x = tf.placeholder(tf.float32, [8, 32, 32, 3])
    labels = tf.placeholder(tf.int64, [8])
    w1 = tf.truncated_normal([3, 3, 3, 16], stddev=0.1)
    alphas_training_op1, ApproxConvLayer1, alphas_loss1 = ApproxConv(5, w1, padding="SAME")
    h = tf.nn.relu(ApproxConvLayer1(x))
    logits = tf.layers.dense(tf.reshape(h, [8, -1]), 10)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    filters = [v for v in tf.trainable_variables() if v.name.startswith("ApproxConv/filters")]
    print(tf.gradients(loss, filters))  # straight-through: real gradient
