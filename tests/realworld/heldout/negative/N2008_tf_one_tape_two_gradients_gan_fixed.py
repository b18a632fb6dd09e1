# source: https://github.com/manicman1999/StyleGAN2-Tensorflow-2.0/issues/14
# framework: tf
# kind: tf-nonpersistent-twice
# negative: the accepted fix — one tape per network (the repository's original code), each asked once
# mimics: positive/2008_tf_one_tape_two_gradients_gan.py
# expect: no finding
# checked: parse only (class definitions; same models as the positive check)
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
        with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
            generated_images = self.GAN.GM(style + [noise])
            real_output = self.GAN.D(images, training=True)
            fake_output = self.GAN.D(generated_images, training=True)
            gen_loss = tf.reduce_mean(fake_output)
            disc_loss = tf.reduce_mean(tf.nn.relu(1 + real_output) + tf.nn.relu(1 - fake_output))

        gradients_of_generator = gen_tape.gradient(gen_loss, self.GAN.GM.trainable_variables)
        gradients_of_discriminator = disc_tape.gradient(disc_loss, self.GAN.D.trainable_variables)

        self.GAN.GMO.apply_gradients(zip(gradients_of_generator, self.GAN.GM.trainable_variables))
        self.GAN.DMO.apply_gradients(zip(gradients_of_discriminator, self.GAN.D.trainable_variables))
        return disc_loss, gen_loss
