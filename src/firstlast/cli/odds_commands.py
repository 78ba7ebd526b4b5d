"""``firstlast odds``: win rates with 95 % intervals, and the live chance of a deal or position.

The compiled kernels are imported inside the command, so that ``firstlast --help`` and
the other commands do not pay for loading numba. What needs an extra that is not
installed says so in one line on stderr, with the ``pip install`` to run, and exits 2:
runs need ``fast`` (numba: a million games with the engine would take about an hour, so
there is no quiet fallback), ``--plot`` and ``--scheduler`` need ``lab``. The chance of
a deal or position works without numba: the engine samples instead (slower, same
samples), with a note on stderr.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from ..engine import FirstLastError, Position, Variant, position_from_text
from .options import DEAL, FilePath, WholeNumber, make_variant, variant_options

if TYPE_CHECKING:
    from ..odds.stats import Tally

MAX_GAMES = 2**32
MAX_SEED_RUN = 2**32 - 1
MAX_SEED_SAMPLES = 2**64 - 1
#: Redeal counts the compiled kernels take (64-bit integers there; a notation may name any).
MAX_KERNEL_REDEALS = 2**31 - 1
#: ``--all``: redeals 0–3 and unlimited, × waste playable, × privileged last card.
ALL_REDEALS: tuple[int | None, ...] = (0, 1, 2, 3, None)


#: The one line a command prints when it needs an extra that is not installed.
FAST_HINT = "odds runs need the fast extra (numba): pip install 'firstlast[fast]'"
PLOT_HINT = "plots need the lab extra: pip install 'firstlast[lab]'"
DASK_HINT = "--scheduler needs the lab extra (dask): pip install 'firstlast[lab]'"
ENGINE_NOTE = ("note: numba is not installed, so the engine samples (pure Python, a few hundred samples/s); "
               "pip install 'firstlast[fast]' for the compiled sampler")


class MissingExtra(click.ClickException):
    """An extra the command needs is not installed: one line (the hint), exit status 2."""

    exit_code = 2


def _missing(hint: str) -> MissingExtra:
    return MissingExtra(hint)


def _importable(name: str) -> bool:
    import importlib

    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def all_variants() -> list[Variant]:
    return [Variant(r, wp, priv) for priv in (True, False) for wp in (False, True) for r in ALL_REDEALS]


@contextmanager
def _progress(total: int) -> Iterator[Any]:
    """A rich progress bar on stderr (only when stderr is a terminal)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as prog:
        task = prog.add_task("games", total=total)
        yield prog, task


def _pct(x: float, digits: int = 3) -> str:
    return f"{100 * x:.{digits}f} %"


def _print_tally(t: Tally, deals: range, seed: int, seconds: float, threads: str) -> None:
    low, high = t.interval()
    click.echo(f"First and Last — {t.variant.describe()} [{t.variant.token}]")
    games = f"{t.games:,} game{'s' if t.games != 1 else ''}"
    click.echo(f"Deals {deals.start:,} … {deals.stop - 1:,} (seed {seed}): {games}")
    click.echo(f"Won {t.wins:,} of {t.games:,}: {_pct(t.win_rate)}  (95 % Wilson CI {_pct(low)} … {_pct(high)},"
               f" ±{100 * (high - low) / 2:.3f} pp)")
    click.echo("Passes used (1 + redeals):   games      %     won")
    for p in range(1, t.passes_all.shape[0]):
        n = int(t.passes_all[p])
        if n:
            w = int(t.passes_won[p]) if p < t.passes_won.shape[0] else 0
            click.echo(f"  {p:>3}                    {n:>10,} {100 * n / t.games:6.2f} % {w:>10,}")
    click.echo(f"Score (cards on the piles at the end): mean {t.mean_score():.1f}")
    bins = [(lo, min(lo + 9, 103)) for lo in range(0, 104, 10)]
    peak = max(int(t.scores[a:b + 1].sum()) for a, b in bins) or 1
    for a, b in [*bins, (104, 104)]:
        n = int(t.scores[a:b + 1].sum())
        label = "104 won" if a == 104 else f"{a:>3}–{b:<3}"
        bar = "█" * round(30 * n / max(peak, int(t.scores[104]), 1))
        click.echo(f"  {label:>8} {100 * n / t.games:6.2f} % {bar}")
    rate = t.games / seconds if seconds > 0 else float("inf")
    click.echo(f"Speed: {rate:,.0f} games/s ({seconds:.2f} s, {threads})")


def _print_table(tallies: list[Tally], deals: range, seed: int, seconds: float, threads: str) -> None:
    click.echo(f"First and Last — deals {deals.start:,} … {deals.stop - 1:,} (seed {seed}), "
               f"{len(deals):,} game{'s' if len(deals) != 1 else ''} per variant")
    click.echo(f"{'redeals':>9}  {'waste':<5}  {'F8 priv':<7}  {'wins':>12}  {'win rate':>10}  "
               f"{'95 % Wilson CI':>23}  {'mean passes (won)':>17}")
    for t in tallies:
        low, high = t.interval()
        v = t.variant
        # No game won: there is no mean to show (NaN would print as "nan").
        won_passes = f"{t.mean_passes_won():.2f}" if t.wins else "—"
        click.echo(f"{'unlimited' if v.redeals is None else v.redeals:>9}  {'yes' if v.waste_playable else 'no':<5}  "
                   f"{'yes' if v.privileged_last else 'no':<7}  {t.wins:>12,}  {_pct(t.win_rate, 4):>10}  "
                   f"{_pct(low, 4) + ' … ' + _pct(high, 4):>23}  {won_passes:>17}")
    total = len(deals) * len(tallies)
    click.echo(f"Speed: {total / seconds if seconds > 0 else float('inf'):,.0f} games/s "
               f"({seconds:.2f} s, {threads})")


def _chance_command(pos: Position, what: str, samples: int, seed: int, as_json: bool,
                    extra: dict[str, object]) -> None:
    from ..odds.live import chance_to_come_out, kernel_available

    if not 0 <= seed <= MAX_SEED_SAMPLES:
        raise click.UsageError(f"--seed must be 0…{MAX_SEED_SAMPLES} for sampling, not {seed}")
    if not kernel_available():
        click.echo(ENGINE_NOTE, err=True)
    # Exactly --samples samples (no time budget): the command's answer is reproducible.
    est = chance_to_come_out(pos, samples, seed, budget_s=None)
    if as_json:
        click.echo(json.dumps({**extra, "variant": pos.variant.token, **est.to_json(), "seed": seed}))
        return
    click.echo(f"{what} ({pos.variant.describe()}): chance of coming out {est}, seed {seed}")
    if "outcome" in extra:
        o: Any = extra["outcome"]
        click.echo(f"Its own forced line: {'WON' if o['won'] else 'lost'} — {o['score']} of 104 cards, "
                   f"{o['passes']} pass{'es' if o['passes'] != 1 else ''}")


@click.command()
@click.option("--games", type=WholeNumber(1, MAX_GAMES), default=1_000_000, show_default=True,
              help="Games per variant.")
@variant_options
@click.option("--all", "all_", is_flag=True, help="Every variant: redeals 0–3 and unlimited × V2 × V3.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--plot", type=FilePath(),
              help="Write a figure (PNG, SVG, PDF…): win rate vs redeals, passes needed, scores.")
@click.option("--workers", type=WholeNumber(min=1), help="Threads to use here (default: every core).")
@click.option("--scheduler", metavar="ADDRESS", help="Run on the Dask cluster at ADDRESS (e.g. tcp://host:8786).")
@click.option("--deal", "deal_number", type=DEAL, help="Chance of coming out from deal N's start.")
@click.option("--position", "position_text", metavar="NOTATION", help="Chance of coming out from this position.")
@click.option("--samples", type=WholeNumber(1, 10**7), default=10_000, show_default=True,
              help="Samples of the unseen cards for --deal / --position.")
@click.option("--seed", type=WholeNumber(0, MAX_SEED_SAMPLES), default=0, show_default=True,
              help=f"Run: plays deals SEED·2^32 … SEED·2^32+GAMES−1 (SEED ≤ {MAX_SEED_RUN}); "
                   "--deal/--position: the sampling seed.")
def odds(games: int, redeals: int | None, waste_playable: bool, no_privilege: bool, all_: bool, as_json: bool,
         plot: Path | None, workers: int | None, scheduler: str | None, deal_number: int | None,
         position_text: str | None, samples: int, seed: int) -> None:
    """Win rates of the forced line with 95 % Wilson intervals, or the live chance of a deal or position.

    Runs of different --seed never share a deal, so their results can be added up.
    """
    variant = make_variant(redeals, waste_playable, no_privilege)
    if scheduler is not None and not scheduler.strip():  # else '' would quietly run here
        raise click.UsageError("--scheduler needs an address, e.g. tcp://host:8786")
    if deal_number is not None or position_text is not None:
        if deal_number is not None and position_text is not None:
            raise click.UsageError("give --deal or --position, not both")
        if all_ or plot is not None or scheduler is not None:
            raise click.UsageError("--all, --plot and --scheduler are for runs, not for --deal / --position")
        if position_text is not None:
            try:
                pos = position_from_text(position_text)
            except FirstLastError as e:
                raise click.UsageError(f"malformed --position: {e}") from None
            if max(pos.variant.redeals or 0, pos.redeals_used) > MAX_KERNEL_REDEALS:
                # Regression: 'r99999999999999999999' reached numba, an OverflowError traceback.
                raise click.UsageError(f"--position: the odds estimator takes at most {MAX_KERNEL_REDEALS:,} "
                                       "redeals (allowed and used); use 'ru' for unlimited")
            # Flags must not silently lose to the notation, even flags that name the canonical
            # variant (`--redeals 3` on an unlimited-redeal position).
            ctx = click.get_current_context()
            flags_given = any(ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)
                              for name in ("redeals", "waste_playable", "no_privilege"))
            if flags_given and variant != pos.variant:
                raise click.UsageError(
                    f"the position's notation says its variant ({pos.variant.token}); "
                    "leave out --redeals, --waste-playable and --no-privilege"
                )
            _chance_command(pos, "Position", samples, seed, as_json, {"position": position_text.strip()})
            return
        assert deal_number is not None
        from ..engine import play_out

        o = play_out(deal_number, variant)
        _chance_command(Position.deal(deal_number, variant), f"Deal {deal_number}", samples, seed, as_json,
                        {"deal": deal_number, "outcome": {"won": o.won, "score": o.score, "passes": o.passes}})
        return
    _run_command(variant, games, all_, as_json, plot, workers, scheduler, seed)


def _check_plot_path(plot: Path) -> None:
    """Refuse a figure that cannot be written before the run, not after it."""
    if plot.parent and not plot.parent.is_dir():
        raise click.UsageError(f"--plot: no such folder: {plot.parent}")
    from matplotlib.backend_bases import FigureCanvasBase  # present: checked by _check_extras

    kinds = FigureCanvasBase.get_supported_filetypes()
    suffix = plot.suffix[1:].lower()
    if suffix and suffix not in kinds:
        raise click.UsageError(f"--plot: cannot write .{suffix} figures; use one of {', '.join(sorted(kinds))}")
    if suffix == "pgf":
        import shutil

        from matplotlib import rcParams

        if shutil.which(rcParams["pgf.texsystem"]) is None:
            raise click.UsageError(f"--plot: .pgf figures need {rcParams['pgf.texsystem']} (TeX), not found here")


def _check_extras(plot: Path | None, scheduler: str | None) -> None:
    """Stop with the one-line hint if a run needs an extra that is not installed."""
    # lab brings fast with it, so its hints come first: one install then does it all.
    if plot is not None and not _importable("matplotlib"):
        raise _missing(PLOT_HINT)
    if scheduler and not _importable("distributed"):
        raise _missing(DASK_HINT)
    if not _importable("numba") or not _importable("numpy"):
        raise _missing(FAST_HINT)


def _run_command(variant: Variant, games: int, all_: bool, as_json: bool, plot: Path | None,
                 workers: int | None, scheduler: str | None, seed: int) -> None:
    _check_extras(plot, scheduler)
    import numba

    from ..odds import runner

    if seed > MAX_SEED_RUN:
        raise click.UsageError(f"--seed for a run must be 0…{MAX_SEED_RUN}, not {seed}")
    if workers is not None:
        if scheduler:
            raise click.UsageError("--workers is for local runs; the Dask cluster has its own workers")
        if not 1 <= workers <= runner.max_threads():
            raise click.UsageError(f"--workers must be 1…{runner.max_threads()} on this machine")
    if plot is not None:
        _check_plot_path(plot)
    variants = all_variants() if all_ else [variant]
    deals = runner.deal_block(seed, games)
    client = None
    if scheduler:
        try:
            client = runner.connect(scheduler, timeout=3.0)
        except runner.SchedulerError as e:
            raise click.ClickException(str(e)) from None
        threads = f"Dask at {scheduler}, {len(client.scheduler_info().get('workers', {}))} workers"
    else:
        threads = f"{workers or numba.get_num_threads()} threads"
    extra: list[Variant] = []
    if plot is not None:
        have = set(variants)
        extra = [Variant(None, wp, priv) for priv in (True, False) for wp in (False, True)
                 if Variant(None, wp, priv) not in have]
    runner.warm_up()
    try:
        t0 = time.perf_counter()
        tallies: list[Tally] = []
        # Progress moves once per chunk: with the runner's 2^20-deal chunks the default
        # million-game run was one jump from 0 to done. Tallies do not depend on the chunks.
        chunk = max(1 << 16, min(runner.CHUNK, games // 100))
        with _progress(games * (len(variants) + len(extra))) as (prog, task):
            for v in [*variants, *extra]:
                prog.update(task, description=v.token)
                tallies.extend(runner.run([v], games, seed, workers, client,
                                          progress=lambda n: prog.advance(task, n), chunk=chunk))
        seconds = time.perf_counter() - t0
    except runner.SchedulerError as e:
        raise click.ClickException(str(e)) from None
    finally:
        if client is not None:
            client.close()
    shown = tallies[:len(variants)]
    if plot is not None:
        from ..odds.plot import write_plot

        by = {t.variant: t for t in tallies}
        unlimited = [by[Variant(None, wp, priv)] for priv in (True, False) for wp in (False, True)]
        canonical = by.get(Variant(), shown[0])
        try:
            write_plot(plot, unlimited, shown, shown[0] if not all_ else canonical)
        except OSError as e:
            raise click.ClickException(f"cannot write {plot}: {e.strerror or e}") from None
        except (ValueError, RuntimeError) as e:  # matplotlib: a format it cannot make here
            raise click.ClickException(f"cannot write {plot}: {e}") from None
    if as_json:
        meta = {"seed": seed, "first_deal": deals.start, "last_deal": deals.stop - 1, "seconds": seconds,
                "games_per_second": games * len(tallies) / seconds if seconds > 0 else None}
        if all_:
            click.echo(json.dumps({**meta, "games": games, "variants": [t.to_json() for t in shown]}))
        else:
            click.echo(json.dumps({**shown[0].to_json(), **meta}))
    elif all_:
        _print_table(shown, deals, seed, seconds, threads)
    else:
        _print_tally(shown[0], deals, seed, seconds, threads)
    if plot is not None and not as_json:
        click.echo(f"Plot written to {plot}", err=True)
    sys.stdout.flush()
