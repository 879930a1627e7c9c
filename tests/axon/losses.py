"""Axon's `Axon.Losses` (lib/axon/losses.ex, elixir-nx/axon at dfec027d) in defn style,
for the losses with doctests (connectionist_temporal_classification and label_smoothing
have none). `keyword!(opts, reduction: :none)` is keyword arguments with defaults; a
`deftransformp` is a Python function; `{y_pred1, y_pred2}` is a tuple, a container. What
has no Python form (the logits metadata) is in test_axon.py's UNTRANSLATABLE."""

from __future__ import annotations

import numbat as nbt

from . import activations


def _assert_shape(caller, lhs_name, lhs, rhs_name, rhs):  # Axon.Shared.assert_shape!
    if lhs.shape != rhs.shape:
        raise nbt.ArgumentError(
            f"{caller}: expected input shapes {lhs_name} and {rhs_name} to be equal, got {lhs.shape} != {rhs.shape}"
        )


@nbt.defn
def _xlogy(x, y):  # Axon.Shared.xlogy
    x_ok = nbt.not_equal(x, 0.0)
    safe_x = nbt.select(x_ok, x, nbt.tensor(1, type=x.type))
    safe_y = nbt.select(x_ok, y, nbt.tensor(1, type=y.type))
    return nbt.select(x_ok, safe_x * nbt.log(safe_y), nbt.tensor(0, type=x.type))


def _reduction(loss, reduction="none"):  # defnp reduction
    if reduction == "mean":
        return nbt.mean(loss)
    if reduction == "sum":
        return nbt.sum(loss)
    return loss


def _get_weights(y_true, pos, neg):  # deftransformp get_weights
    if pos is None and neg is None:
        return None
    return nbt.take(nbt.tensor([1.0 if neg is None else neg, 1.0 if pos is None else pos]), y_true)


@nbt.defn
def _sigmoid_cross_entropy_from_logits(y_true, y_pred):
    log_p = activations.log_sigmoid(y_pred)
    log_not_p = activations.log_sigmoid(-y_pred)
    return -y_true * log_p - (1 - y_true) * log_not_p


@nbt.defn
def binary_cross_entropy(
    y_true, y_pred, positive_weight=None, negative_weight=None, reduction="none", from_logits=False
):
    _assert_shape("Axon.Losses.binary_cross_entropy", "y_true", y_true, "y_pred", y_pred)
    weights = _get_weights(y_true, positive_weight, negative_weight)
    merged_type = y_true.type.merge(y_pred.type)  # Nx.Type.merge(Nx.type(y_true), Nx.type(y_pred))
    y_true = nbt.as_type(y_true, merged_type)
    y_pred = nbt.as_type(y_pred, merged_type)
    if from_logits:  # (the logits? branches need the logits metadata: UNTRANSLATABLE)
        loss_before_avg = _sigmoid_cross_entropy_from_logits(y_true, y_pred)
    else:
        eps = 1.0e-7
        y_pred = nbt.clip(y_pred, eps, 1 - eps)
        p = y_true * nbt.log(y_pred + eps)
        not_p = (1 - y_true) * nbt.log(1 - y_pred + eps)
        loss_before_avg = nbt.negate(p + not_p)
    if weights is not None:
        possibly_weighted_avg_loss = nbt.mean(weights * loss_before_avg)
    else:
        possibly_weighted_avg_loss = nbt.mean(loss_before_avg, axes=[-1])
    return _reduction(possibly_weighted_avg_loss, reduction)


def categorical_cross_entropy(y_true, y_pred, class_weights=None, reduction="none", from_logits=False, sparse=False):
    # a deftransform: Keyword.validate! and Keyword.pop, then the defnp
    tensor_weights = nbt.tensor(class_weights) if class_weights is not None else 1.0
    return _cce(
        y_true,
        y_pred,
        tensor_weights,
        weighted=class_weights is not None,
        reduction=reduction,
        from_logits=from_logits,
        sparse=sparse,
    )


@nbt.defn
def _cce(y_true, y_pred, class_weights, weighted=False, reduction="none", from_logits=False, sparse=False):
    if weighted:
        if class_weights.size != y_true.shape[-1]:
            raise nbt.ArgumentError(
                "expected class weights to be a 1-dimensional list with size equal to the number of classes "
                f"present in dataset, got {class_weights.size} for {y_true.shape[-1]} classes"
            )
        class_weights = nbt.take(class_weights, nbt.argmax(y_true, axis=1))
    if from_logits:
        loss_before_avg = _softmax_cross_entropy_from_logits(y_true, y_pred, sparse=sparse)
    elif sparse:
        if y_true.rank < 2:
            y_true = nbt.new_axis(y_true, -1)
        if y_true.shape[-1] != 1:
            raise nbt.ArgumentError(f"target values must have size 1 in last dimension, got shape {y_true.shape}")
        loss_before_avg = nbt.sum(nbt.negate(nbt.log(nbt.take_along_axis(y_pred, y_true, axis=-1))), axes=[-1])
    else:
        loss_before_avg = nbt.sum(nbt.negate(_xlogy(y_true, y_pred)), axes=[-1])
    loss = class_weights * loss_before_avg if weighted else loss_before_avg
    if reduction == "mean":
        return nbt.sum(loss) / nbt.sum(class_weights) if weighted else nbt.mean(loss)
    if reduction == "sum":
        return nbt.sum(loss)
    return loss


@nbt.defn
def _softmax_cross_entropy_from_logits(y_true, y_pred, sparse=False):
    if sparse:
        if y_true.rank < 2:
            y_true = nbt.new_axis(y_true, -1)
        log_softmax = activations.log_softmax(y_pred, axis=-1)
        return -nbt.sum(nbt.take_along_axis(log_softmax, y_true, axis=-1), axes=[-1])
    return -nbt.sum(y_true * activations.log_softmax(y_pred, axis=-1), axes=[-1])


@nbt.defn
def categorical_hinge(y_true, y_pred, reduction="none"):
    loss = nbt.reduce_max(nbt.multiply(nbt.subtract(1, y_true), y_pred), axes=[-1])
    loss = nbt.max(nbt.add(nbt.subtract(loss, nbt.sum(nbt.multiply(y_true, y_pred), axes=[-1])), 1), 0)
    return _reduction(loss, reduction)


@nbt.defn
def hinge(y_true, y_pred, reduction="none"):
    loss = nbt.mean(nbt.max(nbt.add(nbt.negate(nbt.multiply(y_true, y_pred)), 1), 0), axes=[-1])
    return _reduction(loss, reduction)


@nbt.defn
def kl_divergence(y_true, y_pred, reduction="none"):
    epsilon = 1.0e-7
    y_true = nbt.clip(y_true, epsilon, 1)
    y_pred = nbt.clip(y_pred, epsilon, 1)
    loss = nbt.sum(nbt.multiply(nbt.log(nbt.divide(y_true, y_pred)), y_true), axes=[-1])
    return _reduction(loss, reduction)


@nbt.defn
def log_cosh(y_true, y_pred, reduction="none"):
    x = nbt.subtract(y_pred, y_true)
    loss = nbt.add(nbt.log1p(nbt.exp(nbt.multiply(x, -2))), x)
    loss = nbt.mean(nbt.subtract(loss, nbt.log(2)), axes=[-1])
    return _reduction(loss, reduction)


@nbt.defn
def margin_ranking(y_true, y_preds, margin=0.0, reduction="none"):
    y_pred1, y_pred2 = y_preds  # {y_pred1, y_pred2}: a tuple, a container
    loss = nbt.max(nbt.add(nbt.multiply(nbt.subtract(y_pred1, y_pred2), nbt.negate(y_true)), margin), 0)
    return _reduction(loss, reduction)


@nbt.defn
def soft_margin(y_true, y_pred, reduction="none"):
    loss = nbt.sum(nbt.log1p(nbt.exp(nbt.multiply(nbt.negate(y_true), y_pred))), axes=[0])
    return _reduction(loss, reduction)


@nbt.defn
def mean_absolute_error(y_true, y_pred, reduction="none"):
    return _reduction(nbt.mean(nbt.abs(nbt.subtract(y_true, y_pred)), axes=[-1]), reduction)


@nbt.defn
def mean_squared_error(y_true, y_pred, reduction="none"):
    return _reduction(nbt.mean(nbt.pow(nbt.subtract(y_true, y_pred), 2), axes=[-1]), reduction)


@nbt.defn
def cosine_similarity(y_true, y_pred, axes=(1,), eps=1.0e-6, reduction="none"):
    w12 = nbt.sum(y_true * y_pred, axes=axes)
    w1 = nbt.linalg.norm(y_true, axes=axes)
    w2 = nbt.linalg.norm(y_pred, axes=axes)
    n12 = nbt.max(w1 * w2, eps)
    return _reduction(w12 / n12, reduction)


@nbt.defn
def poisson(y_true, y_pred, reduction="none"):
    epsilon = 1.0e-7
    loss = nbt.add(nbt.negate(nbt.multiply(nbt.log(nbt.add(y_pred, epsilon)), y_true)), y_pred)
    return _reduction(nbt.mean(loss, axes=[-1]), reduction)


@nbt.defn
def huber(y_true, y_pred, reduction="none", delta=1.0):
    abs_diff = nbt.abs(y_pred - y_true)
    loss = nbt.select(abs_diff <= delta, 0.5 * abs_diff**2, delta * abs_diff - 0.5 * delta**2)
    return _reduction(loss, reduction)
