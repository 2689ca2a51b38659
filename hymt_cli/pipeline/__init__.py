"""The pipeline: one driver for every format (driver.py); planning, outcomes, dispatch to the
engine, repair and jobs each in their own module."""

from ._acceptance import target_script
from ._run_plan import RunPlan
from .driver import Pipeline
from .planning import PlannedRequest, Planner

__all__ = ["Pipeline", "Planner", "PlannedRequest", "RunPlan", "target_script"]
