"""The joblib loops (model zoo across folds, noisy predictions, the SCC's per-draw loop) on a
real Dask cluster: a LocalCluster of worker processes, through
``joblib.parallel_config(backend="dask")``, gives the same results as the local backend."""

import warnings

import numpy as np
import pandas as pd
import pytest

import irteval as ie
from irteval.robustness import noisy_predictions, scc_from_predictions

distributed = pytest.importorskip("distributed")
joblib = pytest.importorskip("joblib")

MODELS = ("cart_depth2", "naive_bayes", "knn_15", "prototype")


def _work():
    X, y = ie.datasets.load_optdigits(return_X_y=True)
    X, y = X.iloc[:300], y.iloc[:300]
    zoo = {k: v for k, v in ie.robustness.zoo(population=True).items() if k in MODELS}
    resp = ie.robustness.cross_val_responses(zoo, X, y, cv=3, random_seed=0, progressbar=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        idata = ie.fit(ie.models.onepl(resp), method="laplace", draws=20, chains=1,
                       random_seed=0, log_likelihood=False)
    families = {k: v for k, v in ie.robustness.families().items()
                if k in ("cart_depth10", "naive_bayes")}
    noisy = noisy_predictions(families, X, y, noise=0.5, cv=3, random_seed=0, progressbar=False)
    curves = scc_from_predictions(idata, noisy.clean, noisy.perturbed, max_draws=8,
                                  random_seed=0, progressbar=False)
    return resp.to_wide(), noisy.perturbed, curves


def test_dask_cluster_gives_the_local_results():
    local = _work()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        with distributed.get_task_stream(client) as tasks, \
                joblib.parallel_config(backend="dask", n_jobs=-1):
            remote = _work()
    assert len(tasks.data) > 0  # the work did run on the cluster's workers
    pd.testing.assert_frame_equal(remote[0], local[0])
    pd.testing.assert_frame_equal(remote[1], local[1])
    assert remote[2].identical(local[2])
    assert np.isfinite(remote[2]["kappa"]).all()
