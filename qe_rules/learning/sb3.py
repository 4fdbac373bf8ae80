"""Stable-Baselines3's form of the single-learner vector environment (needs the ``train``
extra: stable-baselines3; sb3-contrib for masks).

:class:`SB3VecEnv` wraps a :class:`~qe_rules.learning.seat_vector_env.SeatVectorEnv` as a
Stable-Baselines3 ``VecEnv``, so that its algorithms, ``VecNormalize`` and ``VecMonitor``
take it as they take their own vectors: observations ``(num_envs, OBSERVATION_SIZE)``,
rewards and dones ``(num_envs,)``, one info dict per game (``terminal_observation`` where
a game ended, with its ``win_share``), and ``action_masks()`` as sb3-contrib's
``MaskablePPO`` asks (``env_method("action_masks")``)::

    from sb3_contrib import MaskablePPO
    from qe_rules.learning.sb3 import SB3VecEnv
    from qe_rules.learning.seat_vector_env import SeatVectorEnv

    env = SB3VecEnv(SeatVectorEnv("en", 4, num_envs=64, opponents="trained", reward="shaped"))
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=512)
    model.learn(200_000)

CleanRL's scripts take the :class:`SeatVectorEnv` itself: it is a Gymnasium vector
environment with ``info["action_mask"]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from qe_rules._util.extras import require_extra
from qe_rules.learning.seat_vector_env import SeatVectorEnv

require_extra("train", "stable_baselines3")

from stable_baselines3.common.vec_env import VecEnv  # noqa: E402

__all__ = ["SB3VecEnv"]


class SB3VecEnv(VecEnv):  # type: ignore[misc,unused-ignore]  # Any without the extra
    """A :class:`~qe_rules.learning.seat_vector_env.SeatVectorEnv` as a Stable-Baselines3
    ``VecEnv`` (see the module)."""

    render_mode: str | None = None

    def __init__(self, env: SeatVectorEnv) -> None:
        self.env = env
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
        self._actions: npt.NDArray[np.int64] | None = None
        self._seed: int | None = None

    def reset(self) -> npt.NDArray[np.float32]:
        """New games (from the seed given to :meth:`seed`, if any)."""
        observations, _ = self.env.reset(seed=self._seed)
        self._seed = None
        return observations

    def step_async(self, actions: npt.ArrayLike) -> None:
        """Keep the actions for :meth:`step_wait`."""
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[Any, Any, Any, list[dict[str, Any]]]:
        """Play the kept actions: observations, rewards, dones and one info per game."""
        assert self._actions is not None
        observations, rewards, terminated, truncated, info = self.env.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final = info["final_info"]
            for game in np.flatnonzero(dones):
                infos[game] = {
                    "terminal_observation": info["final_obs"][game],
                    "TimeLimit.truncated": bool(truncated[game]),
                    "win_share": float(final["win_share"][game]),
                    "eliminated": bool(final["eliminated"][game]),
                }
        return observations, rewards, dones, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions in each game."""
        return self.env.action_masks()

    def close(self) -> None:
        """Close the environment."""
        self.env.close()

    def seed(self, seed: int | None = None) -> list[int | None]:
        """Seed the next :meth:`reset`."""
        self._seed = seed
        return [seed] * self.num_envs

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """An attribute of the environment, once per game asked."""
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set an attribute of the environment."""
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        """A method's results, one per game asked (``action_masks``: each game's row)."""
        rows = self._indices(indices)
        found = getattr(self, method_name)(*method_args, **method_kwargs)
        if method_name == "action_masks":
            return [found[row] for row in rows]
        return [found] * len(rows)

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        """No game is wrapped."""
        return [False] * len(self._indices(indices))

    def get_images(self) -> Sequence[None]:
        """No images: the environment does not render."""
        return [None] * self.num_envs

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        assert isinstance(indices, Iterable)
        return list(indices)
