# source: https://github.com/tensorflow/tensorflow/issues/52383
# framework: tf
# family: B
# kind: keras-symbolic-tensor
# pitfall: a compiled custom loss opens a GradientTape on model.input, which is a symbolic Keras tensor, to take the derivative of the output with respect to the inputs; eager execution rejects symbolic tensors
# expect: line 18 — the symbolic model.input is used as the tensor to watch and differentiate inside the loss
# checked: parse only (needs the Pima CSV; Keras 2-era compile of a symbolic loss)
from numpy import loadtxt
from keras.models import Sequential
from keras.layers import Dense
import tensorflow as tf #tf.__version__ = '2.3.0'

dataset = loadtxt('pima-indians-diabetes.csv', delimiter=',')
X = dataset[:,0:8] #X.shape = (768, 8)
y = dataset[:,8]

def customLoss(yTrue,yPred):
    x_tensor = tf.convert_to_tensor(model.input, dtype=tf.float32)
    x_tensor = tf.cast(x_tensor, tf.float32)
    with tf.GradientTape() as t:
        t.watch(x_tensor)
        output = model(model.input)
    DyDX = t.gradient(output, x_tensor)
    return tf.reduce_mean(tf.square(DyDX[:, 0:1]))

model = Sequential()
model.add(Dense(12, input_dim=8, activation='relu'))
model.add(Dense(8, activation='relu'))
model.add(Dense(1, activation='sigmoid'))

model.compile(loss=customLoss, optimizer='adam')
model.fit(X, y, epochs=15, batch_size=10)
