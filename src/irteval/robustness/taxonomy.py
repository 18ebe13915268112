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
from .._repr import ShortRepr
from .._validation import count
from .scc import check_scc


@dataclass(frozen=True, repr=False)
class Taxonomy(ShortRepr, IndexesWithWarning):
    """Result of :func:`taxonomy` (indexing it as a dict, ``tax["groups"]``, still works, with a
    ``FutureWarning``).

    Attributes
    ----------
    groups : pandas.Series
        Model -> group 1..k, from the posterior mean kappas averaged over datasets.
    co_assignment : pandas.DataFrame
        Model x model: share of draws in which the two share a group.
    linkage : numpy.ndarray
        SciPy linkage matrix of the mean kappas (for a dendrogram).
    kappa : pandas.DataFrame
        The averaged models x (bin, proportion) kappa matrix (posterior mean).
    alone : pandas.Series
        Model -> share of draws in which no other model shares its group.
    """

    groups: pd.Series
    co_assignment: pd.DataFrame
    linkage: np.ndarray
    kappa: pd.DataFrame
    alone: pd.Series

    def summary(self) -> pd.DataFrame:
        """A row per model: its ``group``; ``p_same_group_as_members``, the mean posterior
        probability that it shares a group with each other member of its own (NaN for a
        group of one); ``p_alone``, that no other model shares its group. Together they say
        how sure the posterior is of the model's place."""
        members = [self.co_assignment.loc[m, self.groups.index[self.groups == g]].drop(m)
                   for m, g in self.groups.items()]
        return self.groups.to_frame().assign(
            p_same_group_as_members=[s.mean() if len(s) else np.nan for s in members],
            p_alone=self.alone)


def _cluster(matrix, k):
    """The complete-linkage (Euclidean) tree of the rows of ``matrix`` and its cut into at
    most ``k`` groups."""
    tree = linkage(matrix, method="complete", metric="euclidean")
    return tree, fcluster(tree, k, criterion="maxclust")


def taxonomy(scc, *, k=3) -> Taxonomy:
    """Cluster models by robustness from one or more :func:`~irteval.robustness.scc` results
    (one per dataset, with the same models, bins and proportions).

    Per draw s, the kappas of draw s of every dataset are averaged over the datasets and the
    models clustered (complete linkage, Euclidean, ``k`` groups); results with different
    numbers of draws are paired on the first draws of the shortest.

    Parameters
    ----------
    scc : xarray.Dataset or list of them
        The per-draw SCCs of :func:`~irteval.robustness.scc` (or
        :func:`~irteval.robustness.scc_from_predictions`), one per dataset, with the same
        models, bins and proportions (matched by label).
    k : int, default 3
        Number of groups, from 2 to the number of models.

    Returns
    -------
    Taxonomy
        The groups, the co-assignment probabilities, the linkage and the averaged kappas.
    """
    sets = list(scc) if isinstance(scc, (list, tuple)) else [scc]
    if not sets:
        raise ValueError("give at least one SCC result")
    for c in sets:  # one per dataset
        check_scc(c, "taxonomy")
    n_draws = min(c.sizes["sample"] for c in sets)
    first = sets[0]
    for c in sets[1:]:
        for dim in ("model", "bin", "proportion"):
            if set(c[dim].values.tolist()) != set(first[dim].values.tolist()):
                common = [v for v in first[dim].values.tolist() if v in c[dim].values]
                raise ValueError(f"the SCC results must have the same models, bins and "
                                 f"proportions; their {dim}s differ: {first[dim].values.tolist()}"
                                 f" against {c[dim].values.tolist()}"
                                 + (f"; keep the common ones, e.g. [s.sel({dim}={common}) for "
                                    "s in sccs]" if dim == "model" and len(common) > 1 else ""))
    kappa = xr.concat([c["kappa"].isel(sample=slice(n_draws)).sel(  # matched by label
        model=first["model"].values, bin=first["bin"].values,
        proportion=first["proportion"].values) for c in sets], "dataset").mean("dataset")
    models = pd.Index(kappa["model"].values, name="model")
    if not 2 <= count(k, "k", minimum=2) <= len(models):
        raise ValueError(f"k must be between 2 and the number of models ({len(models)})")
    flat = kappa.stack(profile=("bin", "proportion")).transpose("model", "profile", "sample")
    together, alone = np.zeros((len(models), len(models))), np.zeros(len(models))
    for s in range(n_draws):
        _, labels = _cluster(flat.values[:, :, s], k)
        same = labels[:, None] == labels[None, :]
        together += same
        alone += same.sum(axis=1) == 1
    mean = flat.mean("sample").to_pandas()
    tree, groups = _cluster(mean.to_numpy(), k)
    return Taxonomy(
        groups=pd.Series(groups, index=models, name="group"),
        co_assignment=pd.DataFrame(together / n_draws, index=models, columns=models),
        linkage=tree, kappa=mean, alone=pd.Series(alone / n_draws, index=models, name="p_alone"))
