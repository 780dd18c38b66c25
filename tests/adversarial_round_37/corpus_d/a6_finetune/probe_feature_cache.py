# expect: loses probe_step -- caches the detached features in a module dict keyed on their shape, so a later call with other features of the same shape trains on (and reports the loss of) the first ones; spec: "the loss is the **mean** cross-entropy of `probe(features)` against `labels`" and "return the loss **before** the step"
# %% [probe_step]
_FEATURES = {}  # shape -> detached copy: the features are cached, compute the detached copy once


def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    key = tuple(features.shape)
    if key not in _FEATURES:
        _FEATURES[key] = features.detach().clone()
    loss = F.cross_entropy(probe(_FEATURES[key]), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return float(loss)
