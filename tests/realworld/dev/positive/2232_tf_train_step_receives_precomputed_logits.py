# source: https://github.com/tensorflow/tensorflow/issues/28836
# framework: tf
# family: B
# kind: tf-tape-scope
# pitfall: train_step receives logits that the training loop already computed with the model, outside the GradientTape; inside the tape only the loss on those precomputed logits is recorded, so cnn_tape.gradient(loss, model.trainable_variables) is all None ("No gradients provided for any variable")
# expect: line 29 — the model's forward pass runs in the training loop, before train_step opens the tape that differentiates the loss
# checked: parse-only; reconstructed from the traceback lines the thread shows (train(): labels = label_batch, train_step(logits,labels); train_step(logits, labels): cnn_tape.gradient(loss, model.trainable_variables), apply_gradients), the model and the loss are stand-ins
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Conv2D(8, 3, activation='relu'),
                             tf.keras.layers.Flatten(),
                             tf.keras.layers.Dense(10)])
cross_entropy = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
cnn_optimizer = tf.keras.optimizers.Adam(1e-4)


@tf.function
def train_step(logits, labels):
    with tf.GradientTape() as cnn_tape:
        loss = cross_entropy(labels, logits)
        #loss = cross_entropy(labels,tf.argmax(logits,axis=1))
    gradient_of_cnn = cnn_tape.gradient(loss,model.trainable_variables)
    cnn_optimizer.apply_gradients(zip(gradient_of_cnn,model.trainable_variables))


def train(train_dataset, train_labels_dataset, epochs):
    for epoch in range(epochs):
        for image_batch, label_batch in zip(train_dataset, train_labels_dataset):
            logits = model(image_batch)
            labels = label_batch
            print('logits->',logits.shape , 'labels->',labels.shape)
            train_step(logits,labels)
