# source: https://github.com/keras-team/keras/issues/2994
# framework: tf
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the Dice objective rounds the clipped predictions with K.round, whose gradient is zero/None, so the loss cannot train the network (and the Python `if (sum)` branches on a symbolic tensor)
# expect: line 12 — K.round of the predictions inside the loss
# checked: parse only (Keras 1/Theano-era backend)
from keras import backend as K

def dice_loss2(y_true,y_pred):
 yt = K.flatten(y_true)
 yp = K.round(K.clip(K.flatten(y_pred),0.7,1.0))
 sum=K.sum(yt)+K.sum(yp)
 if (sum): loss=1.0-2.0*K.dot(yt,yp)/sum
 else: loss=0.0
 return loss;
