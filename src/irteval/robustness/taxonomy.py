"""Robustness taxonomy: models clustered by their SCC kappas, with posterior stability.

Models x (bin, proportion) kappa matrix averaged over datasets; agglomerative clustering
with Euclidean distance and complete linkage, cut into k groups. Repeating the clustering
for every posterior draw of the SCCs gives co-assignment probabilities: how often two
models land in the same group.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import xarray as xr
from scipy.cluster.hierarchy import fcluster, linkage

from .._compat import IndexesWithWarning


@dataclass(frozen=True)
class Taxonomy(IndexesWithWarning):
    """Result of :func:`taxonomy`.

    groups : Series, model -> group 1..k, from the posterior mean kappas averaged over
        datasets.
    co_assignment : DataFrame, model x model: share of draws in which the two share a group.
    linkage : ndarray, scipy linkage matrix of the mean kappas (for a dendrogram).
    kappa : DataFrame, the averaged models x (bin, proportion) kappa matrix.
    """

    groups: pd.Series
    co_assignment: pd.DataFrame
    linkage: np.ndarray
    kappa: pd.DataFrame


def _cluster(matrix, k):
    return fcluster(linkage(matrix, method="complete", metric="euclidean"), k,
                    criterion="maxclust")


def taxonomy(scc, *, k=3) -> Taxonomy:
    """Cluster models by robustness from one or more :func:`~irteval.robustness.scc` results
    (one per dataset, with the same models, bins and proportions).

    Returns a :class:`Taxonomy`.
    """
    sets = list(scc) if isinstance(scc, (list, tuple)) else [scc]
    if not sets:
        raise ValueError("give at least one SCC result")
    n_draws = min(c.sizes["sample"] for c in sets)
    try:
        kappa = xr.concat([c["kappa"].isel(sample=slice(n_draws)) for c in sets], "dataset",
                          join="exact").mean("dataset")
    except ValueError as err:
        raise ValueError("the SCC results must have the same models, bins and "
                         "proportions") from err
    models = kappa["model"].values
    if not 2 <= k <= len(models):
        raise ValueError(f"k must be between 2 and the number of models ({len(models)})")
    flat = kappa.stack(profile=("bin", "proportion")).transpose("model", "profile", "sample")
    together = np.zeros((len(models), len(models)))
    for s in range(n_draws):
        labels = _cluster(flat.values[:, :, s], k)
        together += labels[:, None] == labels[None, :]
    mean = flat.mean("sample").to_pandas()
    tree = linkage(mean.to_numpy(), method="complete", metric="euclidean")
    return Taxonomy(
        groups=pd.Series(fcluster(tree, k, criterion="maxclust"), index=models, name="group"),
        co_assignment=pd.DataFrame(together / n_draws, index=models, columns=models),
        linkage=tree, kappa=mean)
