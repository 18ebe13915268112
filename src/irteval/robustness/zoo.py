"""A zoo of scikit-learn classifiers covering the model families of the robustness paper.

``zoo()`` gives one representative per family; ``zoo(population=True)`` adds
hyper-parameter variations (weak and strong settings) so that a response matrix
built from them spreads abilities widely, as the paper's 2000 OpenML runs did.
Each family maps to the paper's caret model as closely as scikit-learn allows.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.cross_decomposition import PLSRegression
from sklearn.discriminant_analysis import (LinearDiscriminantAnalysis,
                                           QuadraticDiscriminantAnalysis)
from sklearn.ensemble import (AdaBoostClassifier, ExtraTreesClassifier,
                              HistGradientBoostingClassifier, RandomForestClassifier)
from sklearn.linear_model import LogisticRegression, RidgeClassifier
from sklearn.naive_bayes import BernoulliNB, GaussianNB
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import LabelBinarizer, StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from .._validation import true_or_false


class PLSDA(ClassifierMixin, BaseEstimator):
    """Partial least squares discriminant analysis: PLS regression on one-hot classes, argmax."""

    def __init__(self, n_components=3):
        self.n_components = n_components

    def fit(self, X, y):
        self.binarizer_ = LabelBinarizer().fit(y)
        self.classes_ = self.binarizer_.classes_
        target = self.binarizer_.transform(y).astype(float)
        self.pls_ = PLSRegression(n_components=self.n_components).fit(X, target)
        return self

    def predict(self, X):
        return self.classes_[np.argmax(self.pls_.predict(X), axis=1)]


def _scaled(estimator):
    return make_pipeline(StandardScaler(), estimator)


#: family -> (paper's caret model, [(config name, estimator)]); the first is the representative
FAMILIES = {
    "logistic": ("multinom", [
        (f"logistic_C{c:g}", _scaled(LogisticRegression(C=c, max_iter=300)))
        for c in (1.0, 1e-2, 1e-3, 1e-4)]),
    "lda": ("fda / lda", [
        ("lda_svd", LinearDiscriminantAnalysis()),
        *[(f"lda_shrink{s:g}", LinearDiscriminantAnalysis(solver="lsqr", shrinkage=s))
          for s in (0.1, 0.5, 0.9)]]),
    "rda": ("rda", [
        (f"rda_reg{r:g}", QuadraticDiscriminantAnalysis(reg_param=r))
        for r in (0.3, 0.05, 0.7, 0.95)]),
    "plsda": ("simpls_ncomp3", [(f"plsda_{k}", PLSDA(n_components=k)) for k in (3, 2, 5, 10)]),
    "knn": ("knn_k3", [
        (f"knn_{k}", _scaled(KNeighborsClassifier(n_neighbors=k))) for k in (3, 1, 15, 51, 151)]),
    "prototype": ("lvq_3", [
        ("prototype", NearestCentroid()),
        *[(f"prototype_shrink{s:g}", NearestCentroid(shrink_threshold=s)) for s in (2.0, 5.0)]]),
    "svm_poly": ("svmPoly_d_2_s_0.1", [
        (f"svm_poly2_C{c:g}", _scaled(SVC(kernel="poly", degree=2, C=c)))
        for c in (1.0, 0.01, 0.001)]),
    "svm_rbf": ("rbf (RBF network)", [
        (f"svm_rbf_g{g:g}", _scaled(SVC(kernel="rbf", gamma=g))) for g in (0.01, 0.001, 0.1)]),
    "cart": ("RPART", [
        (f"cart_depth{d}", DecisionTreeClassifier(max_depth=d, random_state=0))
        for d in (10, 2, 4, 6, None)]),
    "entropy_tree": ("C5.0 / PART / JRip (closest: entropy tree)", [
        (f"entropy_tree_leaf{m}", DecisionTreeClassifier(criterion="entropy",
                                                         min_samples_leaf=m, random_state=0))
        for m in (1, 10, 50)]),
    "random_forest": ("rf_mtry64", [
        ("random_forest", RandomForestClassifier(n_estimators=50, random_state=0)),
        ("random_forest_mtry1", RandomForestClassifier(n_estimators=50, max_features=1,
                                                       random_state=0)),
        ("random_forest_depth3", RandomForestClassifier(n_estimators=50, max_depth=3,
                                                        random_state=0)),
        ("random_forest_depth6", RandomForestClassifier(n_estimators=50, max_depth=6,
                                                        random_state=0))]),
    "extra_trees": ("rfRules_mtry64 (closest: randomised trees)", [
        ("extra_trees", ExtraTreesClassifier(n_estimators=50, random_state=0)),
        ("extra_trees_depth4", ExtraTreesClassifier(n_estimators=50, max_depth=4,
                                                    random_state=0))]),
    "gbm": ("gbm_3_50", [
        ("gbm_3_50", HistGradientBoostingClassifier(max_depth=3, max_iter=50, random_state=0)),
        ("gbm_2_10", HistGradientBoostingClassifier(max_depth=2, max_iter=10, random_state=0)),
        ("gbm_2_3", HistGradientBoostingClassifier(max_depth=2, max_iter=3,
                                                   learning_rate=0.05, random_state=0))]),
    "naive_bayes": ("NB", [
        ("naive_bayes", GaussianNB()),
        *[(f"naive_bayes_smooth{v:g}", GaussianNB(var_smoothing=v)) for v in (0.01, 0.1)],
        ("bernoulli_nb", BernoulliNB(binarize=8.0))]),
    "mlp": ("mlp_7", [
        ("mlp_7", _scaled(MLPClassifier(hidden_layer_sizes=(7,), max_iter=300, random_state=0))),
        ("mlp_2", _scaled(MLPClassifier(hidden_layer_sizes=(2,), max_iter=300, random_state=0))),
        ("mlp_50", _scaled(MLPClassifier(hidden_layer_sizes=(50,), max_iter=300,
                                         random_state=0)))]),
    "adaboost": ("(boosted stumps)", [
        (f"adaboost_{n}", AdaBoostClassifier(n_estimators=n, random_state=0)) for n in (50, 10)]),
    "ridge": ("(linear least squares)", [
        (f"ridge_alpha{a:g}", _scaled(RidgeClassifier(alpha=a))) for a in (1.0, 1000.0)]),
}


def zoo(population=False):
    """Fresh (unfitted) estimators keyed by name.

    Parameters
    ----------
    population : bool, default False
        ``False``: one representative per family; ``True``: every configuration of every
        family (about 60), for estimating difficulty.

    Returns
    -------
    dict
        ``{configuration name: unfitted scikit-learn classifier}``.
    """
    population = true_or_false(population, "population")
    out = {}
    for _, configs in FAMILIES.values():
        for name, est in configs if population else configs[:1]:
            out[name] = clone(est)
    return out


def families():
    """One fresh representative estimator per family (the paper's SCC models):
    ``zoo(population=False)``.

    Returns
    -------
    dict
        {configuration name (e.g. ``"knn_3"``; :func:`family_of` gives its family): unfitted
        scikit-learn estimator}, one per family of ``FAMILIES``.
    """
    return zoo(population=False)


def family_of(name):
    """The family of a configuration name from :func:`zoo`.

    Parameters
    ----------
    name : str
        A configuration name of ``zoo(population=True)``; an unknown one is refused.

    Returns
    -------
    str
        The family, a key of :data:`FAMILIES` (``"knn"``, ``"random_forest"``...).
    """
    for family, (_, configs) in FAMILIES.items():
        if any(name == n for n, _ in configs):
            return family
    raise ValueError(f"unknown configuration {name!r}; see irteval.robustness.zoo(population=True)")
