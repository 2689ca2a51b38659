"""The pipeline: one driver for every format (driver.py); planning, outcomes, dispatch to the
engine, repair and jobs each in their own module."""

from .acceptance import target_script
from .driver import Pipeline
from .planning import PlannedRequest, Planner
from .run_plan import RunPlan

__all__ = ["Pipeline", "Planner", "PlannedRequest", "RunPlan", "target_script"]
