# source: https://github.com/keras-team/keras/issues/14651
# framework: tf
# family: B
# kind: keras-symbolic-tensor
# pitfall: the custom loss multiplies the log-likelihood by delta, an Input layer that the model does not otherwise use; under TF2 the compiled loss cannot touch a symbolic Keras input, so training fails (Cannot convert a symbolic Keras input/output to a numpy array)
# expect: line 22 — the compiled loss uses delta, a symbolic Input tensor captured from the model definition
# checked: ran the reporter's tf-ops variant of the loss on Keras 3, reproduces (ValueError: A KerasTensor cannot be used as input to a TensorFlow function)
from keras import backend as K
from keras.layers import Input, Dense
from keras.models import Model


def build(n_features, n_classes):
    x_in = Input(shape=(n_features,))
    delta = Input(shape=(1,))
    out = Dense(n_classes, activation='softmax')(x_in)
    model = Model([x_in, delta], out)

    def custom_loss(y_true, y_pred):
        out = K.clip(y_pred, 1e-8, 1-1e-8)
        log_lik = y_true*K.log(out)
        return K.sum(-log_lik*delta)

    model.compile(optimizer='adam', loss=custom_loss)
    return model
