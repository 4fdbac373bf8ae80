"""Train the shipped ``trained`` agents: sb3-contrib's MaskablePPO on the single-seat
Gymnasium environment with the ``"shaped"`` reward, then export the policy as plain
numpy arrays (``qe_rules/data/agents/trained-en-<players>.npz``).

Needs the ``train`` extra (torch, sb3-contrib); install torch's CPU wheel first (see
docs/rl.md). Run from the repository root::

    python scripts/train_agent.py train --minutes 35 --out runs/trained
    python scripts/train_agent.py export runs/trained/final.zip --out qe_rules/data/agents/trained-en-4.npz

The shipped agents were made by ``clone`` first (a network that imitates the value agent),
then ``train --init`` from it (docs/rl.md has the commands and the curves).

Every game the learner takes a random seat against a random table: three value agents
(half the games), three random agents (a quarter), or each opponent value or random (a
quarter). Checkpoints (model and observation statistics) are saved every
``--checkpoint-minutes`` of wall time with the steps and the training win share in
``log.jsonl``; ``export-all`` turns them into ``.npz`` files and
``scripts/evaluate_agent.py --curve`` evaluates them.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import time
from typing import Any

import gymnasium
import numpy as np

from qe_rules.gymnasium_env import QESeatEnv
from qe_rules.simulation.agents import RandomAgent, ValueAgent

TABLES = (("value", 0.5), ("random", 0.25), ("mixed", 0.25))


def mixed(seed: int) -> Any:
    """An opponent that is a value agent or a random agent, at even odds, by seed."""
    return ValueAgent(seed) if random.Random(seed).random() < 0.5 else RandomAgent(seed)


class RandomTable(gymnasium.Wrapper):  # type: ignore[type-arg]
    """Each game: a random seat and a random table of opponents (``tables``, by default
    :data:`TABLES`)."""

    def __init__(
        self, env: QESeatEnv, seed: int, tables: tuple[tuple[str, float], ...] = TABLES
    ) -> None:
        super().__init__(env)
        self.draw = random.Random(seed)
        self.tables = tables
        self.table = "value"

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        names = [name for name, _ in self.tables]
        self.table = self.draw.choices(names, weights=[w for _, w in self.tables])[0]
        opponents: Any = mixed if self.table == "mixed" else self.table
        seat = self.draw.randrange(self.env.unwrapped.players)
        return self.env.reset(seed=seed, options={"seat": seat, "opponents": opponents})

    def action_masks(self) -> Any:
        return self.env.unwrapped.action_masks()

    def step(self, action: Any) -> Any:
        observation, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            info["table"] = self.table
        return observation, reward, terminated, truncated, info


def train(args: argparse.Namespace) -> None:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize

    torch.set_num_threads(1)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    tables = tuple(
        (name, float(weight))
        for name, weight in (part.split(":") for part in args.tables.split(","))
    )

    def make(index: int) -> Any:
        def build() -> Any:
            env = QESeatEnv("en", args.players, reward="shaped")
            return RandomTable(env, seed=args.seed * 1000 + index, tables=tables)

        return build

    envs = DummyVecEnv([make(i) for i in range(args.envs)])
    if args.init:  # go on from a checkpoint: its weights and observation statistics
        venv = VecNormalize.load(args.init.replace(".zip", "_vecnorm.pkl"), envs)
        venv.training = True
    else:
        venv = VecNormalize(envs, norm_obs=True, norm_reward=False, clip_obs=10.0)
    venv.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=args.n_steps,
        batch_size=args.batch,
        n_epochs=args.epochs,
        learning_rate=args.lr,
        gamma=args.gamma,
        ent_coef=args.ent,
        policy_kwargs={"net_arch": [args.width, args.width]},
        seed=args.seed,
        verbose=0,
        device="cpu",
    )

    class Log(BaseCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.start = time.monotonic()
            self.last = self.start
            self.wins: dict[str, list[float]] = {name: [] for name, _ in TABLES}

        def _on_step(self) -> bool:
            for info in self.locals["infos"]:
                if "win_share" in info:
                    self.wins.setdefault(info["table"], []).append(info["win_share"])
            now = time.monotonic()
            if now - self.last >= args.checkpoint_minutes * 60:
                self.last = now
                self.save(f"ckpt_{self.num_timesteps:08d}")
            return now - self.start < args.minutes * 60

        def save(self, name: str) -> None:
            model.save(out / f"{name}.zip")
            venv.save(str(out / f"{name}_vecnorm.pkl"))
            row = {
                "name": name,
                "steps": self.num_timesteps,
                "minutes": round((time.monotonic() - self.start) / 60, 2),
                **{
                    f"train_win_{t}": round(float(np.mean(w[-2000:])), 4) if w else None
                    for t, w in self.wins.items()
                },
            }
            with (out / "log.jsonl").open("a") as log:
                log.write(json.dumps(row) + "\n")
            print(json.dumps(row), flush=True)

    if args.init:
        model.set_parameters(args.init, device="cpu")
    log = Log()
    model.learn(total_timesteps=10**9, callback=log)
    log.save("final")


def decisions(players: int, games: int, seed: int) -> tuple[Any, Any, Any]:
    """The value agent's decisions in batched games (every seat a value agent, then one
    value agent in each seat against random agents, then against a mixed table): the
    encoder's observations, the masks and the actions it took."""
    from qe_rules import batch
    from qe_rules.learning import encode
    from qe_rules.learning.policies import PolicyBatchAgent
    from qe_rules.simulation.batch.agents import ValueBids

    class Recorder(PolicyBatchAgent):
        """A batched value agent that keeps each decision's encoding."""

        def __init__(self) -> None:
            super().__init__(lambda observation, mask: 0)
            self.value = ValueBids()
            self.rows: list[tuple[Any, Any, Any]] = []

        def bids(self, ask: Any) -> Any:
            observations, masks = self.encoded(ask)
            amounts = self.value.bids(ask)
            self.rows.append(
                (observations.copy(), masks.copy(), np.minimum(amounts, encode.BID_CAP))
            )
            return amounts

        def peeks(self, ask: Any) -> Any:
            observations, masks = self.encoded(ask)
            answers = self.value.peeks(ask)
            actions = np.where(answers, encode.PEEK, encode.DECLINE_PEEK)
            self.rows.append((observations.copy(), masks.copy(), actions))
            return answers

    recorder = Recorder()
    batch.play("en", players, games, agents=recorder, seed=seed, chunk=1024)
    for seat in range(players):
        for other in ("random", "mixed"):
            table: list[Any] = [
                "random" if other == "random" or (column % 2) else "value"
                for column in range(players)
            ]
            table[seat] = recorder
            batch.play("en", players, games, agents=table, seed=seed + 1 + seat, chunk=1024)
    observations = np.concatenate([o for o, _, _ in recorder.rows])
    masks = np.concatenate([m for _, m, _ in recorder.rows])
    actions = np.concatenate([a for _, _, a in recorder.rows]).astype(np.int64)
    return observations, masks, actions


def clone(args: argparse.Namespace) -> None:
    """Behaviour cloning: a network that imitates the value agent (cross-entropy on its
    decisions, masked to the legal actions), saved as a checkpoint that ``train --init``
    goes on from (``clone.zip`` and ``clone_vecnorm.pkl``, the observation statistics of
    the decisions)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    observations, masks, actions = decisions(args.players, args.games, args.seed)
    print(f"{len(actions)} decisions", flush=True)
    venv = VecNormalize(
        DummyVecEnv([lambda: QESeatEnv("en", args.players, reward="shaped")]),
        norm_obs=True, norm_reward=False, clip_obs=10.0,
    )  # fmt: skip
    venv.obs_rms.mean = observations.mean(axis=0).astype(np.float64)
    venv.obs_rms.var = observations.var(axis=0).astype(np.float64)
    venv.obs_rms.count = float(len(observations))
    model = MaskablePPO(
        "MlpPolicy", venv, policy_kwargs={"net_arch": [args.width, args.width]},
        seed=args.seed, verbose=0, device="cpu",
    )  # fmt: skip
    policy = model.policy
    scale = np.sqrt(venv.obs_rms.var + venv.epsilon)
    inputs = torch.tensor(
        np.clip((observations - venv.obs_rms.mean) / scale, -10, 10), dtype=torch.float32
    )
    allowed = torch.tensor(masks)
    targets = torch.tensor(actions)
    parameters = [*policy.mlp_extractor.policy_net.parameters(), *policy.action_net.parameters()]
    optimizer = torch.optim.Adam(parameters, lr=args.lr)
    generator = torch.Generator().manual_seed(args.seed)
    for epoch in range(args.epochs):
        order = torch.randperm(len(targets), generator=generator)
        total, right = 0.0, 0
        for start in range(0, len(order), args.batch):
            chosen = order[start : start + args.batch]
            latent = policy.mlp_extractor.forward_actor(policy.features_extractor(inputs[chosen]))
            logits = policy.action_net(latent).masked_fill(~allowed[chosen], -1e8)
            loss = torch.nn.functional.cross_entropy(logits, targets[chosen])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += float(loss.detach()) * len(chosen)
            right += int((logits.argmax(dim=1) == targets[chosen]).sum())
        print(
            json.dumps({"epoch": epoch, "loss": round(total / len(targets), 4),
                        "agree": round(right / len(targets), 4)}),
            flush=True,
        )  # fmt: skip
    model.save(out / "clone.zip")
    venv.save(str(out / "clone_vecnorm.pkl"))


def export(args: argparse.Namespace) -> None:
    """Write the policy network and observation statistics of a checkpoint as numpy
    arrays: ``layers`` weight/bias pairs (tanh between them), ``obs_mean``, ``obs_var``,
    ``clip`` and ``epsilon`` of the normalisation."""
    import pickle

    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(args.checkpoint, device="cpu")
    with open(args.checkpoint.replace(".zip", "_vecnorm.pkl"), "rb") as file:
        vecnorm = pickle.load(file)
    policy = model.policy
    arrays: dict[str, np.ndarray] = {}
    linears = [m for m in policy.mlp_extractor.policy_net if hasattr(m, "weight")]
    linears.append(policy.action_net)
    for index, layer in enumerate(linears):
        arrays[f"w{index}"] = layer.weight.detach().numpy().T.astype(np.float32)
        arrays[f"b{index}"] = layer.bias.detach().numpy().astype(np.float32)
    arrays["obs_mean"] = vecnorm.obs_rms.mean.astype(np.float32)
    arrays["obs_var"] = vecnorm.obs_rms.var.astype(np.float32)
    arrays["clip"] = np.float32(vecnorm.clip_obs)
    arrays["epsilon"] = np.float32(vecnorm.epsilon)
    pathlib.Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **arrays)
    print(args.out, {k: v.shape for k, v in arrays.items()})


def export_all(args: argparse.Namespace) -> None:
    """Export every checkpoint of a run that has no ``.npz`` yet."""
    for checkpoint in sorted(pathlib.Path(args.run).glob("*.zip")):
        target = checkpoint.with_suffix(".npz")
        if not target.exists():
            export(argparse.Namespace(checkpoint=str(checkpoint), out=str(target)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("train", help="train MaskablePPO")
    run.add_argument("--out", default="runs/trained")
    run.add_argument("--players", type=int, default=4)
    run.add_argument("--minutes", type=float, default=35.0)
    run.add_argument("--checkpoint-minutes", type=float, default=3.0)
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--envs", type=int, default=8)
    run.add_argument("--n-steps", type=int, default=256)
    run.add_argument("--batch", type=int, default=512)
    run.add_argument("--epochs", type=int, default=5)
    run.add_argument("--lr", type=float, default=3e-4)
    run.add_argument("--gamma", type=float, default=0.995)
    run.add_argument("--ent", type=float, default=0.01)
    run.add_argument("--width", type=int, default=128)
    run.add_argument("--init", help="a checkpoint (.zip) to go on from")
    run.add_argument(
        "--tables",
        default="value:0.5,random:0.25,mixed:0.25",
        help="the opponent tables and their odds, as name:weight,...",
    )
    run.set_defaults(func=train)
    copy = commands.add_parser("clone", help="imitate the value agent (a start for train)")
    copy.add_argument("--out", default="runs/clone")
    copy.add_argument("--players", type=int, default=5)
    copy.add_argument("--games", type=int, default=2000, help="games per table")
    copy.add_argument("--seed", type=int, default=0)
    copy.add_argument("--epochs", type=int, default=8)
    copy.add_argument("--batch", type=int, default=1024)
    copy.add_argument("--lr", type=float, default=1e-3)
    copy.add_argument("--width", type=int, default=128)
    copy.set_defaults(func=clone)
    out = commands.add_parser("export", help="export a checkpoint's policy as .npz")
    out.add_argument("checkpoint")
    out.add_argument("--out", default="qe_rules/data/agents/trained-en-4.npz")
    out.set_defaults(func=export)
    every = commands.add_parser("export-all", help="export every checkpoint of a run")
    every.add_argument("run")
    every.set_defaults(func=export_all)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
