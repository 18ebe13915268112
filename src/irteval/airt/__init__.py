"""Algorithm portfolios with AIRT (paper 3): algorithm metrics, the difficulty spectrum,
strengths and weaknesses, latent trait occupancy and portfolios, model goodness and
effectiveness, and their plots, from a continuous or a polytomous IRT fit."""

from .goodness import airt_curves, effectiveness, loo_by_algorithm, model_goodness
from .latent_trait import LatentTrait, latent_trait, portfolio
from .metrics import algorithm_metrics
from .plots import (plot_auaec_aupec, plot_category_curves, plot_crm_heatmap,
                    plot_effectiveness, plot_goodness, plot_latent_trait, plot_strengths)

__all__ = ["LatentTrait", "airt_curves", "algorithm_metrics", "effectiveness", "latent_trait",
           "loo_by_algorithm", "model_goodness", "plot_auaec_aupec", "plot_category_curves",
           "plot_crm_heatmap", "plot_effectiveness", "plot_goodness", "plot_latent_trait",
           "plot_strengths", "portfolio"]
