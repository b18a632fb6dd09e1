# source: https://github.com/eriklindernoren/Keras-GAN/issues/215
# framework: tf
# family: B
# kind: keras-symbolic-tensor
# pitfall: the WGAN-GP penalty is written as a compiled Keras loss that calls K.gradients on the symbolic interpolated input; under TF2 the loss runs inside Keras' own function and K.gradients returns [None]
# expect: line 21 — K.gradients(y_pred, averaged_samples) on a symbolic Keras input returns [None] in TF2
# checked: parse only (Keras 2 API: K.gradients, keras.layers.merge)
from functools import partial

import keras.backend as K
import numpy as np
from keras.models import Model
from keras.optimizers import RMSprop


class WGANGP():
    def gradient_penalty_loss(self, y_true, y_pred, averaged_samples):
        """
        Computes gradient penalty based on prediction and weighted real / fake samples
        """
        gradients = K.gradients(y_pred, averaged_samples)[0]
        # compute the euclidean norm by squaring ...
        gradients_sqr = K.square(gradients)
        #   ... summing over the rows ...
        gradients_sqr_sum = K.sum(gradients_sqr,
                                  axis=np.arange(1, len(gradients_sqr.shape)))
        #   ... and sqrt
        gradient_l2_norm = K.sqrt(gradients_sqr_sum)
        # compute lambda * (1 - ||grad||)^2 still for each single sample
        gradient_penalty = K.square(1 - gradient_l2_norm)
        # return the mean as loss over all the batch samples
        return K.mean(gradient_penalty)

    def wasserstein_loss(self, y_true, y_pred):
        return K.mean(y_true * y_pred)

    def compile_critic(self, real_img, z_disc, valid, fake, interpolated_img, validity_interpolated):
        optimizer = RMSprop(lr=0.00005)
        partial_gp_loss = partial(self.gradient_penalty_loss,
                          averaged_samples=interpolated_img)
        partial_gp_loss.__name__ = 'gradient_penalty' # Keras requires function names

        self.critic_model = Model(inputs=[real_img, z_disc],
                            outputs=[valid, fake, validity_interpolated])
        self.critic_model.compile(loss=[self.wasserstein_loss,
                                              self.wasserstein_loss,
                                              partial_gp_loss],
                                        optimizer=optimizer,
                                        loss_weights=[1, 1, 10])
