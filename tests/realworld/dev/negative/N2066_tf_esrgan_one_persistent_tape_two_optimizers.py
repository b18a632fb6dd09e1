# source: https://github.com/peteryuX/esrgan-tf2/issues/5
# framework: tf
# kind: tf-nonpersistent-twice
# negative: one persistent tape records generator and discriminator losses and is asked twice; each gradient is taken only with respect to its own network's trainable_variables and applied by its own optimizer, so neither network needs freezing and the second gradient() call is legal because the tape is persistent
# mimics: positive/2008_tf_one_tape_two_gradients_gan.py
# expect: no finding
# checked: parse only (needs the repository's models, losses and config)
import tensorflow as tf


def build_train_step(generator, discriminator, optimizer_G, optimizer_D,
                     pixel_loss_fn, fea_loss_fn, gen_loss_fn, dis_loss_fn, cfg):
    @tf.function
    def train_step(lr, hr):
        with tf.GradientTape(persistent=True) as tape:
            sr = generator(lr, training=True)
            hr_output = discriminator(hr, training=True)
            sr_output = discriminator(sr, training=True)

            losses_G = {}
            losses_D = {}
            losses_G['reg'] = tf.reduce_sum(generator.losses)
            losses_D['reg'] = tf.reduce_sum(discriminator.losses)
            losses_G['pixel'] = cfg['w_pixel'] * pixel_loss_fn(hr, sr)
            losses_G['feature'] = cfg['w_feature'] * fea_loss_fn(hr, sr)
            losses_G['gan'] = cfg['w_gan'] * gen_loss_fn(hr_output, sr_output)
            losses_D['gan'] = dis_loss_fn(hr_output, sr_output)
            total_loss_G = tf.add_n([l for l in losses_G.values()])
            total_loss_D = tf.add_n([l for l in losses_D.values()])
        grads_G = tape.gradient(
            total_loss_G, generator.trainable_variables)
        grads_D = tape.gradient(
            total_loss_D, discriminator.trainable_variables)
        optimizer_G.apply_gradients(
            zip(grads_G, generator.trainable_variables))
        optimizer_D.apply_gradients(
            zip(grads_D, discriminator.trainable_variables))

        return total_loss_G, total_loss_D, losses_G, losses_D

    return train_step
