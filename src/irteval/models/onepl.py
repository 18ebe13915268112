"""1PL (Rasch) and 2PL item response models for binary responses.

    P(y_ij = 1) = logistic(a_i (theta_j - b_i))        a_i = 1 in the 1PL

Items i are test instances, respondents j are the models answering them.
Instance difficulties are hierarchical, b_i ~ Normal(mu_b, sigma_b), so an instance
every model got right still has a finite difficulty; abilities sum to zero, which
identifies the location exactly (a soft prior anchor lets mu_b and theta drift
together and mixes ~25x worse). See ``models/onepl.md``.
"""

from __future__ import annotations

import numpy as np
import pymc as pm

from ..data import Responses, warn_unidentified


def onepl(responses: Responses, *, discrimination=False, prior_scale=None, batch_size=None):
    """Build the 1PL (or, with ``discrimination=True``, the 2PL) as a PyMC model.

    Parameters
    ----------
    responses : Responses
        Binary responses; missing cells are simply not in the likelihood.
    discrimination : bool
        Add a positive discrimination ``a_i`` per item (2PL). The ability scale is then
        fixed (theta ~ ZeroSumNormal(1)) because a_i absorbs it.
    prior_scale : dict, optional
        Override prior scales: ``mu_b`` (sd of the mean difficulty, default 3),
        ``sigma_b`` and ``sigma_theta`` (half-normal scales, default 2), ``sigma_log_a``
        (half-normal scale of the log-discrimination spread, default 0.5).
    batch_size : int, optional
        Minibatch model for ``fit(method="advi")``: each optimisation step evaluates the
        likelihood on ``batch_size`` random observed cells, scaled by n_obs / batch_size
        (``total_size``), so time and memory per step do not grow with the matrix.

    Returns
    -------
    pymc.Model
        Free variables ``mu_b``, ``sigma_b``, ``b`` (item difficulty), ``theta``
        (ability, summing to zero: that fixes the location) and ``sigma_theta`` (1PL) or
        ``sigma_log_a``, ``a_z`` (2PL, with deterministic ``a = exp(sigma_log_a * a_z)``).
        Observed ``y`` over dim ``obs``.
    """
    if not isinstance(responses, Responses):
        raise TypeError(
            f"expected irteval.Responses, got {type(responses).__name__}; build one with "
            "Responses.from_long or Responses.from_wide"
        )
    if responses.kind != "binary":
        raise ValueError(f"the 1PL/2PL needs binary responses, got kind={responses.kind!r}")
    warn_unidentified(responses)
    scale = {"mu_b": 3.0, "sigma_b": 2.0, "sigma_theta": 2.0, "sigma_log_a": 0.5}
    unknown = set(prior_scale or {}) - set(scale)
    if unknown:
        raise ValueError(f"unknown prior_scale keys {sorted(unknown)}; known: {sorted(scale)}")
    scale.update(prior_scale or {})

    if batch_size is not None and not (isinstance(batch_size, (int, np.integer))
                                       and 0 < batch_size < responses.n_obs):
        raise ValueError(f"batch_size must be an integer between 1 and the number of observed "
                         f"cells - 1 ({responses.n_obs - 1}), got {batch_size!r}")
    complete = responses.n_obs == responses.n_items * responses.n_respondents
    coords = {"item": np.asarray(responses.items),
              "respondent": np.asarray(responses.respondents)}
    if not complete and batch_size is None:
        coords["obs"] = np.arange(responses.n_obs)
    with pm.Model(coords=coords) as model:
        mu_b = pm.Normal("mu_b", 0.0, scale["mu_b"])
        sigma_b = pm.HalfNormal("sigma_b", scale["sigma_b"])
        b = pm.Normal("b", mu_b, sigma_b, dims="item")
        if discrimination:
            theta = pm.ZeroSumNormal("theta", sigma=1.0, dims="respondent")
            sigma_log_a = pm.HalfNormal("sigma_log_a", scale["sigma_log_a"])
            # non-centred: 30-odd binary answers say little about one instance's a_i, and the
            # centred form diverged (4 of 4000 transitions at log a ~ N(0, 1), 300 x 30)
            a_z = pm.Normal("a_z", 0.0, 1.0, dims="item")
            a = pm.Deterministic("a", pm.math.exp(sigma_log_a * a_z), dims="item")
        else:
            sigma_theta = pm.HalfNormal("sigma_theta", scale["sigma_theta"])
            theta = pm.ZeroSumNormal("theta", sigma=sigma_theta, dims="respondent")
            a = 1.0
        if batch_size is not None:  # minibatch ADVI: random cells, likelihood scaled up
            item_idx, respondent_idx, y = pm.Minibatch(
                responses.item_idx, responses.respondent_idx, responses.values.astype(np.int32),
                batch_size=batch_size)
            a_obs = a[item_idx] if discrimination else a
            eta = a_obs * (theta[respondent_idx] - b[item_idx])
            pm.Bernoulli("y", logit_p=eta, observed=y, total_size=responses.n_obs)
        elif complete:  # dense matrix: no index gathers, about twice as fast
            a_col = a[:, None] if discrimination else a
            eta = a_col * (theta[None, :] - b[:, None])
            pm.Bernoulli("y", logit_p=eta, observed=responses.to_wide().to_numpy(),
                         dims=("item", "respondent"))
        else:  # missing cells: the likelihood runs over the observed cells only
            item_idx = pm.Data("item_idx", responses.item_idx, dims="obs")
            respondent_idx = pm.Data("respondent_idx", responses.respondent_idx, dims="obs")
            a_obs = a[item_idx] if discrimination else a
            eta = a_obs * (theta[respondent_idx] - b[item_idx])
            pm.Bernoulli("y", logit_p=eta, observed=responses.values, dims="obs")

    model.irteval_attrs = {
        "irteval_model": "2pl" if discrimination else "1pl",
        "item_name": responses.item_name,
        "respondent_name": responses.respondent_name,
        "complete": int(complete),
        **({"minibatch": int(batch_size)} if batch_size is not None else {}),
        "target_accept": 0.95 if discrimination else 0.9,
        **{f"prior_{k}": v for k, v in scale.items()},
    }
    return model
