# source: https://github.com/tensorflow/tensorflow/issues/38119
# framework: tf
# family: B
# kind: tf-tape-conversion
# pitfall: inside a custom Keras loss the input-gradient regulariser calls model.predict(), which returns NumPy, so the inner tape cannot differentiate the cross-entropy with respect to the inputs
# expect: line 16 — model.predict inside the tape returns NumPy (no gradient w.r.t. X_tensor)
# checked: parse only (Keras 3 Sequential without an Input has no model.input at compile time)
import tensorflow as tf
from tensorflow.keras.layers import Dense

def keras_loss(y_true,y_pred,X,lambda_, model):

        X_tensor = tf.convert_to_tensor(X)
        with tf.GradientTape() as inp_tape:
          inp_tape.watch(X_tensor)
          pred = model.predict(X_tensor,batch_size=None, steps=None)
          inp_grad_reg_loss = tf.keras.losses.categorical_crossentropy(y_true,pred)
        inpgrad = inp_tape.gradient(inp_grad_reg_loss,X_tensor)
        return inp_grad_reg_loss + lambda_*(tf.norm(inpgrad))


def loss_wrapper(X,lambda_,model):
  def custom_loss(y_true, y_pred):
      return keras_loss(y_true,y_pred, X,lambda_,model)
  return custom_loss


model2 = tf.keras.Sequential([Dense(128,input_shape= (68,100,1) , activation='relu',name = "dense")])

modloss = loss_wrapper(model2.input, 0.1,model2)

model2.compile(optimizer='adam',
              loss=modloss,
              metrics=['accuracy'])
