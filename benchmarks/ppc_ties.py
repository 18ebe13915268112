"""Is the posterior predictive check of battles with ties calibrated? (Stop 58.)

    python benchmarks/ppc_ties.py --sets 10

Battles among 8 players (strengths N(0, 0.3), centred), 3000 battles between uniformly random
pairs; each battle is a tie with probability 0.3, else a win with probability
(p - 0.15) / 0.7, p = logistic(s_a - s_b): the expected score (win 1, tie 1/2) is p, as the
half-win pairwise likelihood assumes. Each set is fitted (NUTS, 2 x 300 draws) and
``goodness_of_fit(idata).attrs["ppp_deviance"]`` printed twice: with the replicates the
pairwise likelihood draws now (each pair's observed share of ties kept) and with whole
binomial replicates, as before. A calibrated check gives values spread over (0, 1) around
0.5; one that cannot fail gives values near 1.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
import pandas as pd

import irteval as ie
import irteval.epp.bayes as bayes


def battles(seed, n_players=8, n_battles=3000, tie_share=0.3):
    rng = np.random.default_rng(seed)
    s = rng.normal(0.0, 0.3, n_players)
    a = rng.integers(0, n_players, n_battles)
    b = (a + rng.integers(1, n_players, n_battles)) % n_players
    p = 1 / (1 + np.exp(-(s[a] - s[b])))
    tie = rng.random(n_battles) < tie_share
    won = rng.random(n_battles) < np.clip((p - tie_share / 2) / (1 - tie_share), 0, 1)
    rows = pd.DataFrame({"model_a": [f"m{k}" for k in a], "model_b": [f"m{k}" for k in b],
                         "winner": np.where(tie, "tie", np.where(won, "model_a", "model_b"))})
    return ie.Battles.from_long(rows, player_a="model_a", player_b="model_b", winner="winner")


def whole(matches, ties, score, rng, size=None):
    """The replicates before stop 58: Binomial(n, p), no ties."""
    n = np.broadcast_to(matches, np.shape(score)).astype(np.int64)
    return rng.binomial(n, score).astype(float)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=10)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    kept, binomial = [], []
    tied = bayes.half_win_replicates
    for seed in range(args.sets):
        idata = ie.fit(ie.models.bradley_terry(battles(seed)), random_seed=seed, draws=300,
                       chains=2, progressbar=False, log_likelihood=False)
        kept.append(ie.goodness_of_fit(idata).attrs["ppp_deviance"])
        bayes.half_win_replicates = whole
        binomial.append(ie.goodness_of_fit(idata).attrs["ppp_deviance"])
        bayes.half_win_replicates = tied
    for name, values in (("ties kept", kept), ("whole binomial", binomial)):
        print(f"{name:15s} ppp: {np.round(values, 2).tolist()} (mean {np.mean(values):.2f})")


if __name__ == "__main__":
    main()
