# source: https://github.com/tensorflow/tensorflow/issues/18636
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: tf.round is applied to the network output inside the loss; Round has no gradient, so minimize() finds no gradient path to any conv variable
# expect: line 25 — tf.round on the network output on the path to the loss (no gradient)
# checked: not run (TF/JAX not installed); the thread shows `ValueError: No gradients provided for any variable, check your graph for ops that do not support gradients, between variables ['Tensor("conv_w_0/read:0" ...]`
import tensorflow as tf  # TF 1.x graph mode

# --- stubs (not in the thread): the 3-layer SR conv net whose variables the error message lists ---
Train_img_LR = tf.placeholder(tf.float32, [None, 33, 33, 1])
Train_img_HR = tf.placeholder(tf.float32, [None, 21, 21, 1])
Train_tao = tf.placeholder(tf.float32, [])
conv_w_0 = tf.Variable(tf.random_normal([9, 9, 1, 64], stddev=1e-3), name='conv_w_0')
conv_b_0 = tf.Variable(tf.zeros([64]), name='conv_b_0')
conv_w_1 = tf.Variable(tf.random_normal([1, 1, 64, 32], stddev=1e-3), name='conv_w_1')
conv_b_1 = tf.Variable(tf.zeros([32]), name='conv_b_1')
conv_w_2 = tf.Variable(tf.random_normal([5, 5, 32, 1], stddev=1e-3), name='conv_w_2')
conv_b_2 = tf.Variable(tf.zeros([1]), name='conv_b_2')
h = tf.nn.relu(tf.nn.conv2d(Train_img_LR, conv_w_0, [1, 1, 1, 1], 'VALID') + conv_b_0)
h = tf.nn.relu(tf.nn.conv2d(h, conv_w_1, [1, 1, 1, 1], 'VALID') + conv_b_1)
Train_output = tf.nn.conv2d(h, conv_w_2, [1, 1, 1, 1], 'VALID') + conv_b_2
# --- end stubs ---

Loss = tf.reduce_mean(tf.nn.l2_loss(tf.round(Train_output) * Train_tao / 2 + Train_img_LR[:,6:27,6:27,:] - Train_img_HR))

train_op = tf.train.AdamOptimizer(1e-4).minimize(Loss)
