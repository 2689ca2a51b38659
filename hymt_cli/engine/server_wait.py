"""How the served engine waits for a server that is not ready, overloaded or failing.

A fleet that is starting refuses connections (nothing listens yet) or answers 502/503 (its
load balancer has no backend yet); one under load answers 429 with `Retry-After`; a server in
trouble answers 5xx. All of these are retried, on every request hymt sends (the model check,
`/tokenize`, the first completion and all the others): after `Retry-After` when the server
says, else with exponential backoff and jitter. The run gives up only when the server has
answered nothing successfully for `ServerOptions.wait` seconds (a total deadline, shared by
all requests in flight), with one line naming the server and its last failure. The first
failure of a streak is announced, once (`ServerOptions.announce`: the run's notices), so that a
waiting run does not look hung.
"""

from __future__ import annotations

import asyncio
import email.utils
import itertools
import random
import time
from collections.abc import Callable
from typing import Any

import httpx

from ..errors import EngineUnavailable, one_line

BACKOFF_BASE = 0.5  # seconds, doubled per retry of one request, up to BACKOFF_CAP
BACKOFF_CAP = 30.0
# Statuses worth asking again: timeouts, "too early", rate limits, and every 5xx (checked apart)
RETRY_STATUS = frozenset({408, 425, 429})


def retryable(status: int) -> bool:
    return status in RETRY_STATUS or status >= 500


def retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (seconds or an HTTP date)."""
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            seconds = email.utils.parsedate_to_datetime(value).timestamp() - time.time()
        except (TypeError, ValueError):
            return None
    return max(0.0, seconds)


def _quiet(line: str) -> None:
    pass


class Patience:
    """The deadline of one server's failure streak (see the module docstring).

    `failed(...)` is called for every transient failure and returns how long to sleep before
    that request tries again, or raises EngineUnavailable once the server has answered nothing
    for `wait` seconds (or asks to come back only after that). `answered()` ends the streak."""

    def __init__(
        self,
        url: str,
        wait: float,
        *,
        hint: str,
        backoff: float = BACKOFF_BASE,
        announce: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.url = url
        self.wait = max(0.0, wait)
        self.hint = hint
        self.backoff = backoff
        self._announce = announce or _quiet
        self._clock = clock
        self._since: float | None = None  # the streak's first failure
        self._announced = False

    def answered(self) -> None:
        self._since = None
        self._announced = False

    def failed(self, attempt: int, failure: str, after: float | None = None) -> float:
        """`attempt`: this request's failures so far (1 for the first); `failure`: one line;
        `after`: the server's Retry-After in seconds."""
        now = self._clock()
        if self._since is None:
            self._since = now
        left = self.wait - (now - self._since)
        if left <= 0 or (after is not None and after > left):
            waited = f" for {now - self._since:.0f} s" if now > self._since else ""
            asked = f"; it asked for {after:.0f} s more" if after is not None and after > left > 0 else ""
            raise EngineUnavailable(
                f"the server at {self.url} did not answer{waited} ({failure}{asked})", hint=self.hint
            )
        if not self._announced:
            self._announced = True
            self._announce(
                f"the server at {self.url} is not answering yet ({failure}); "
                f"trying again for up to {self.wait:.0f} s"
            )
        if after is not None:  # a little jitter: clients told the same time do not come back together
            return min(left, after + random.uniform(0, 0.1 * after + 0.05))
        delay: float = min(BACKOFF_CAP, self.backoff * 2.0 ** (attempt - 1))
        delay = delay / 2 + random.uniform(0, delay / 2)  # clients that failed together come back apart
        return min(delay, max(0.0, left))


async def post_patiently(
    client: httpx.AsyncClient,
    url: str,
    body: dict[str, Any],
    patience: Patience,
    label: str,
    timeout: float | None = None,
) -> httpx.Response:
    """POST `body` until the server answers with something else than a refused or dropped
    connection, no answer within `timeout`, 429 or 5xx; those wait (`patience`, which gives up
    with EngineUnavailable). `label` names the endpoint in the failures."""
    for attempt in itertools.count(1):
        try:
            async with asyncio.timeout(timeout):
                response = await client.post(url, json=body)
        except (TimeoutError, httpx.TransportError) as exc:
            reason = one_line(exc) if str(exc) else f"no answer within {timeout or 0:g} s"
            await asyncio.sleep(patience.failed(attempt, f"{label}: {reason}"))
            continue
        if not retryable(response.status_code):
            return response
        after = retry_after(response.headers.get("retry-after"))
        await asyncio.sleep(patience.failed(attempt, f"{label}: HTTP {response.status_code}", after))
    raise AssertionError("unreachable")
