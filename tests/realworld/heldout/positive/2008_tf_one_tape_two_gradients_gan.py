# source: https://github.com/manicman1999/StyleGAN2-Tensorflow-2.0/issues/14
# framework: tf
# family: B
# kind: tf-nonpersistent-twice
# pitfall: a single non-persistent tape is asked for the generator's and then the discriminator's gradients; the second gradient() call raises because the tape released its resources after the first
# expect: line 30 — second gradient() call on a non-persistent tape
# checked: ran with small Keras models, reproduces (RuntimeError: A non-persistent GradientTape can only be used to compute one set of gradients)
import tensorflow as tf

class GAN(object):
    def __init__(self, GM, D, GMO, DMO):
        self.GM = GM
        self.D = D
        self.GMO = GMO
        self.DMO = DMO

class StyleGAN(object):
    def __init__(self, gan):
        self.GAN = gan

    def train_step(self, images, style, noise):
        with tf.GradientTape() as tape:
            generated_images = self.GAN.GM(style + [noise])
            real_output = self.GAN.D(images, training=True)
            fake_output = self.GAN.D(generated_images, training=True)
            gen_loss = tf.reduce_mean(fake_output)
            disc_loss = tf.reduce_mean(tf.nn.relu(1 + real_output) + tf.nn.relu(1 - fake_output))

        gradients_of_generator = tape.gradient(gen_loss, self.GAN.GM.trainable_variables)
        gradients_of_discriminator = tape.gradient(disc_loss, self.GAN.D.trainable_variables)

        self.GAN.GMO.apply_gradients(zip(gradients_of_generator, self.GAN.GM.trainable_variables))
        self.GAN.DMO.apply_gradients(zip(gradients_of_discriminator, self.GAN.D.trainable_variables))
        return disc_loss, gen_loss
