"""Robustness taxonomy: models clustered by their SCC kappas, with posterior stability.

Models x (bin, proportion) kappa matrix averaged over datasets; agglomerative clustering
with Euclidean distance and complete linkage, cut into k groups. Repeating the clustering
for every posterior draw of the SCCs gives co-assignment probabilities: how often two
models land in the same group.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr
from scipy.cluster.hierarchy import fcluster, linkage


def _cluster(matrix, k):
    return fcluster(linkage(matrix, method="complete", metric="euclidean"), k,
                    criterion="maxclust")


def taxonomy(curves, *, k=3):
    """Cluster models by robustness from one or more :func:`~irteval.robustness.scc` results
    (one per dataset, with the same models, bins and proportions).

    Returns a dict: ``groups`` (Series model -> group 1..k, from the posterior mean kappas
    averaged over datasets), ``co_assignment`` (DataFrame model x model: share of draws in
    which the two share a group), ``linkage`` (scipy linkage matrix of the mean kappas, for a
    dendrogram) and ``kappa`` (the averaged models x (bin, proportion) matrix).
    """
    sets = list(curves) if isinstance(curves, (list, tuple)) else [curves]
    if not sets:
        raise ValueError("give at least one SCC result")
    n_draws = min(c.sizes["draw"] for c in sets)
    try:
        kappa = xr.concat([c["kappa"].isel(draw=slice(n_draws)) for c in sets], "dataset",
                          join="exact").mean("dataset")
    except ValueError as err:
        raise ValueError("the SCC results must have the same models, bins and "
                         "proportions") from err
    models = kappa["model"].values
    if not 2 <= k <= len(models):
        raise ValueError(f"k must be between 2 and the number of models ({len(models)})")
    flat = kappa.stack(profile=("bin", "proportion")).transpose("model", "profile", "draw")
    together = np.zeros((len(models), len(models)))
    for s in range(n_draws):
        labels = _cluster(flat.values[:, :, s], k)
        together += labels[:, None] == labels[None, :]
    mean = flat.mean("draw").to_pandas()
    tree = linkage(mean.to_numpy(), method="complete", metric="euclidean")
    return {
        "groups": pd.Series(fcluster(tree, k, criterion="maxclust"), index=models,
                            name="group"),
        "co_assignment": pd.DataFrame(together / n_draws, index=models, columns=models),
        "linkage": tree,
        "kappa": mean,
    }
