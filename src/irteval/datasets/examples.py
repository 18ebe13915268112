"""Small CSV files in the layouts the ``irteval`` commands read, made from the bundled data,
for trying the commands (the README's examples use them)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

#: file -> what it holds and the command that reads it
EXAMPLES = {
    "results.csv": "long 0/1 answers of 57 models on 400 optdigits digits (irteval difficulty)",
    "matrix.csv": "the same as a matrix, a row per digit (irteval difficulty --rows item)",
    "answers.csv": "the answers of a 58th model (held out of results.csv) on 50 of those digits "
                   "(irteval score-new)",
    "scores.csv": "EloML's AUC of 80 models on 20 splits, long (irteval leaderboard)",
    "times.csv": "run time in seconds of 22 MiniZinc solvers on 99 problems, long "
                 "(irteval leaderboard --lower-is-better)",
    "perf.csv": "1 / (run time + 1) of the same solvers, a row per problem (irteval portfolio)",
    "battles.csv": "5000 simulated battles between 12 models with about 10% ties, a row per "
                   "battle, each in one of three prompt categories (irteval leaderboard "
                   "--winner winner; --task category; irteval.calibration.simulate_battles)",
    "levels.csv": "airt's classification_poly: the accuracy of 10 classifiers on 235 datasets "
                  "in 5 levels, a row per dataset (irteval portfolio --levels)",
    "data.csv": "300 simulated instances with 3 numeric and 2 nominal features, 3 classes "
                "(irteval robustness --csv --nominal colour,shape)",
    "clean.csv": "the digits predicted by naive Bayes, 3-NN and a depth-10 tree on the 400 "
                 "digits of matrix.csv, a row per digit (robustness.noisy_predictions; "
                 "irteval robustness --responses matrix.csv --predictions clean.csv "
                 "perturbed.csv)",
    "perturbed.csv": "the same models' predictions of the same digits with noise 0.2",
}


def write_examples(folder="examples", random_seed=0):
    """Write the :data:`EXAMPLES` CSV files into ``folder``. ``data.csv`` is simulated:
    classes from a linear score of the numeric features plus an effect of ``colour``, with 10%
    of labels redrawn at random.

    Parameters
    ----------
    folder : str or pathlib.Path, default "examples"
        Where to write (created if needed).
    random_seed : int, numpy.random.Generator or None, default 0
        Seeds the subsets and the simulated data.

    Returns
    -------
    dict
        {file name: path written}.
    """
    from ..calibration import simulate_battles
    from . import load_auc_scores, load_classification_cts, load_csp_minizinc, load_responses

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(random_seed)
    wide = load_responses("optdigits", as_frame=True)
    wide = wide.loc[np.sort(rng.choice(wide.index, 400, replace=False))]
    new_model = wide.columns[-1]  # held out: answers.csv holds it on 50 digits
    answers = wide[new_model].iloc[np.sort(rng.choice(400, 50, replace=False))]
    answers = answers.rename("correct").reset_index()
    wide = wide.drop(columns=new_model)
    long = wide.reset_index().melt(id_vars="instance", var_name="model", value_name="correct")
    perf = load_csp_minizinc(as_frame=True).rename_axis("problem")
    times = (1 / perf - 1).round(2).reset_index().melt(id_vars="problem", var_name="solver",
                                                        value_name="seconds")
    n = 300
    features = pd.DataFrame(rng.normal(size=(n, 3)), columns=["width", "height", "weight"])
    colour = rng.choice(["red", "green", "blue"], n)
    score = features @ np.array([1.0, -0.7, 0.4]) + np.select(
        [colour == "red", colour == "green"], [1.0, -1.0], 0.0)
    label = np.digitize(score, np.quantile(score, [1 / 3, 2 / 3]))
    noisy = rng.random(n) < 0.1
    label[noisy] = rng.integers(0, 3, noisy.sum())
    data = features.round(3).assign(colour=colour, shape=rng.choice(["circle", "square"], n),
                                    **{"class": np.array(["a", "b", "c"])[label]})
    frames = {"results.csv": (long[["model", "instance", "correct"]], False),
              "matrix.csv": (wide, True), "answers.csv": (answers, False),
              "scores.csv": (load_auc_scores(as_frame=True), False),
              "times.csv": (times, False), "perf.csv": (perf, True), "data.csv": (data, False),
              "levels.csv": (_levels(load_classification_cts()), True),
              "battles.csv": (_categorised(simulate_battles(12, 5000, rng)[2]), False)}
    clean, perturbed = _predictions(wide.index, rng)  # last: the other files' draws as before
    frames |= {"clean.csv": (clean, True), "perturbed.csv": (perturbed, True)}
    paths = {}
    for name, (frame, index) in frames.items():
        paths[name] = folder / name
        frame.to_csv(paths[name], index=index)
    return paths


def _categorised(battles):
    """The battles with a prompt ``category`` in turn (the strengths do not depend on it)."""
    return battles.assign(category=np.array(["code", "math", "chat"])[np.arange(len(battles)) % 3])


def _predictions(instances, rng):
    """Clean and perturbed (noise 0.2) predictions of three families on the optdigits
    ``instances``, each predicted by models trained on the other folds."""
    from ..robustness import families, noisy_predictions
    from . import load_optdigits

    X, y = load_optdigits(return_X_y=True)
    chosen = {k: m for k, m in families().items()
              if k in ("naive_bayes", "knn_3", "cart_depth10")}
    predictions = noisy_predictions(chosen, X.loc[instances], y.loc[instances], noise=0.2,
                                    random_seed=int(rng.integers(2**31)), progressbar=False)
    return predictions.clean, predictions.perturbed


def _levels(performance):
    """airt's ``classification_poly``: the performances in 5 equal-width levels."""
    from ..data import Responses

    levels = Responses.from_wide(performance.to_wide(), respondent=performance.respondent_name,
                                 item=performance.item_name, kind="ordinal", cuts=5)
    return levels.to_wide().astype("Int64")
