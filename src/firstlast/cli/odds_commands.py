"""``firstlast odds``: win rates with 95 % intervals, and the live chance of a deal or
position (docs/odds.md, "Commands"). The fast forced line (``odds.fastline``) is loaded
when the command first needs it, so that ``firstlast --help`` and the other commands
never build or load it."""

from __future__ import annotations

import importlib.util
import json
import time
from functools import partial
from pathlib import Path
from typing import Any

import click

from ..engine import FirstLastError, Position, Variant, play_out, position_from_text
from ..i18n import describe_variant, number, plural
from ..odds import fastline, runner
from ..odds.live import MAX_SEED as MAX_SEED_SAMPLES
from ..odds.live import chance_to_come_out
from ..odds.runner import MAX_GAMES
from ..odds.runner import MAX_SEED as MAX_SEED_RUN
from ..odds.stats import FAMILIES, VARIANTS, Tally
from .lang import command, current_lang, msg, option, os_error_text
from .options import DEAL, FilePath, WholeNumber, progress_bar, variant_options

#: Redeal counts the odds commands take (passes are 32-bit in the kernel's results; a
#: notation may name any).
MAX_KERNEL_REDEALS = 2**31 - 1


def _installed(*names: str) -> bool:
    return all(importlib.util.find_spec(name) is not None for name in names)


def _pct(x: float, digits: int = 3) -> str:
    return f"{number(100 * x, current_lang(), digits)} %"


def _print_tally(t: Tally, deals: range, seed: int) -> None:
    low, high = t.interval()
    lang = current_lang()
    click.echo(msg("cli.odds.title", variant=describe_variant(t.variant, lang), token=t.variant.token))
    click.echo(msg("cli.odds.deals", first=number(deals.start, lang), last=number(deals.stop - 1, lang), seed=seed,
                   games=plural(lang, "count.games", t.games)))
    click.echo(msg("cli.odds.won", wins=number(t.wins, lang), games=number(t.games, lang), rate=_pct(t.win_rate),
                   low=_pct(low), high=_pct(high), half=number(100 * (high - low) / 2, lang, 3)))
    click.echo(msg("cli.odds.passes_header"))
    for p in range(1, len(t.passes_all)):
        n = t.passes_all[p]
        if n:
            w = t.passes_won[p] if p < len(t.passes_won) else 0
            click.echo(f"  {p:>3}                    {number(n, lang):>10} {number(100 * n / t.games, lang, 2):>6} % "
                       f"{number(w, lang):>10}")
    click.echo(msg("cli.odds.mean_score", mean=number(t.mean_score(), lang, 1)))
    bins = [(lo, min(lo + 9, 103)) for lo in range(0, 104, 10)]
    peak = max(sum(t.scores[a:b + 1]) for a, b in bins) or 1
    for a, b in [*bins, (104, 104)]:
        n = sum(t.scores[a:b + 1])
        label = msg("cli.odds.won_bin") if a == 104 else f"{a:>3}–{b:<3}"
        bar = "█" * round(30 * n / max(peak, t.scores[104], 1))
        click.echo(f"  {label:>8} {number(100 * n / t.games, lang, 2):>6} % {bar}")


def _print_table(tallies: list[Tally], deals: range, seed: int, played: int, derived: bool) -> None:
    lang = current_lang()
    click.echo(msg("cli.odds.all_title", first=number(deals.start, lang), last=number(deals.stop - 1, lang), seed=seed,
                   games=plural(lang, "count.games", len(deals))))
    if derived:
        click.echo(msg("cli.odds.all_derived", games=plural(lang, "count.games", played)))
    click.echo(f"{msg('cli.odds.col.redeals'):>9}  {msg('cli.odds.col.waste'):<5}  "
               f"{msg('cli.odds.col.privileged'):<7}  {msg('cli.odds.col.wins'):>12}  {msg('cli.odds.col.rate'):>10}  "
               f"{msg('cli.odds.col.ci'):>23}  {msg('cli.odds.col.passes'):>17}")
    yes, no = msg("cli.odds.yes"), msg("cli.odds.no")
    for t in tallies:
        low, high = t.interval()
        v = t.variant
        # No game won: there is no mean to show (NaN would print as "nan").
        won_passes = number(t.mean_passes_won(), lang, 2) if t.wins else "—"
        redeals = msg("cli.odds.unlimited") if v.redeals is None else v.redeals
        click.echo(f"{redeals:>9}  {yes if v.waste_playable else no:<5}  "
                   f"{yes if v.privileged_last else no:<7}  {number(t.wins, lang):>12}  {_pct(t.win_rate, 4):>10}  "
                   f"{_pct(low, 4) + ' … ' + _pct(high, 4):>23}  {won_passes:>17}")


def _chance_command(pos: Position, what: str, samples: int, seed: int, as_json: bool,
                    extra: dict[str, object]) -> None:
    if not fastline.available():
        click.echo(msg("cli.odds.engine_note"), err=True)
    # Exactly --samples samples (no time budget): the command's answer is reproducible.
    est = chance_to_come_out(pos, samples, seed)
    if as_json:
        click.echo(json.dumps({**extra, "variant": pos.variant.token, **est.to_json(), "seed": seed}))
        return
    lang = current_lang()
    p, low, high = (number(100 * x, lang, 1) for x in (est.probability, est.low, est.high))
    estimate = msg("cli.odds.estimate", p=p, low=low, high=high, n=number(est.samples, lang))
    click.echo(msg("cli.odds.chance", what=what, variant=describe_variant(pos.variant, lang), estimate=estimate,
                   seed=seed))
    if "outcome" in extra:
        o: Any = extra["outcome"]
        what = msg("cli.result.won" if o["won"] else "lost")
        click.echo(plural(lang, "cli.odds.own_line", o["passes"], what=what, score=o["score"], passes=o["passes"]))


@command("cli.odds.help")
@option("--games", type=WholeNumber(1, MAX_GAMES), default=1_000_000, show_default=True,
        help_key="cli.odds.help.games")
@variant_options
@option("--all", "all_", is_flag=True, help_key="cli.odds.help.all")
@option("--direct", is_flag=True, help_key="cli.odds.help.direct")
@option("--json", "as_json", is_flag=True, help_key="cli.odds.help.json")
@option("--plot", type=FilePath(), help_key="cli.odds.help.plot")
@option("--workers", type=WholeNumber(min=1), help_key="cli.odds.help.workers")
@option("--scheduler", metavar="ADDRESS", help_key="cli.odds.help.scheduler")
@option("--deal", "deal_number", type=DEAL, help_key="cli.odds.help.deal")
@option("--position", "position_text", metavar="NOTATION", help_key="cli.odds.help.position")
@option("--samples", type=WholeNumber(1, 10**7), default=10_000, show_default=True,
        help_key="cli.odds.help.samples")
@option("--seed", type=WholeNumber(0, MAX_SEED_SAMPLES), default=0, show_default=True,
        help_key="cli.odds.help.seed", help_params={"max": MAX_SEED_RUN})
def odds(games: int, variant: Variant | None, all_: bool, direct: bool, as_json: bool, plot: Path | None,
         workers: int | None, scheduler: str | None, deal_number: int | None, position_text: str | None,
         samples: int, seed: int) -> None:
    """Win rates, or the live chance of a deal or position (help: ``cli.odds.help``)."""
    if scheduler is not None and not scheduler.strip():  # else '' would quietly run here
        raise click.UsageError(msg("cli.odds.no_scheduler"))
    if direct and not all_:
        raise click.UsageError(msg("cli.odds.direct_needs_all"))
    if deal_number is not None and position_text is not None:
        raise click.UsageError(msg("cli.odds.deal_and_position"))
    if (deal_number is not None or position_text is not None) and (all_ or plot is not None or scheduler is not None):
        raise click.UsageError(msg("cli.odds.run_only"))
    if position_text is not None:
        try:
            pos = position_from_text(position_text)
        except FirstLastError as e:
            raise click.UsageError(msg("cli.odds.bad_position", error=e)) from None
        if max(pos.variant.redeals or 0, pos.redeals_used) > MAX_KERNEL_REDEALS:
            # Regression: 'r99999999999999999999' reached the kernel, an OverflowError traceback.
            raise click.UsageError(msg("cli.odds.too_many_redeals", max=number(MAX_KERNEL_REDEALS, current_lang())))
        # Flags must not silently lose to the notation, even flags that name the canonical
        # variant (`--redeals 3` on an unlimited-redeal position).
        if variant is not None and variant != pos.variant:
            raise click.UsageError(msg("cli.odds.variant_clash", token=pos.variant.token))
        _chance_command(pos, msg("cli.odds.position"), samples, seed, as_json, {"position": position_text.strip()})
    elif deal_number is not None:
        start = Position.deal(deal_number, variant or Variant())
        _chance_command(start, msg("cli.deal.title", deal=deal_number), samples, seed, as_json,
                        {"deal": deal_number, "outcome": play_out(deal_number, start.variant)._asdict()})
    else:
        _run_command(variant or Variant(), games, all_, as_json, plot, workers, scheduler, seed, direct)


def _check_plot_path(plot: Path) -> None:
    """Refuse a figure that cannot be written before the run, not after it."""
    if plot.parent and not plot.parent.is_dir():
        raise click.UsageError(msg("cli.odds.plot_no_folder", folder=plot.parent))
    from matplotlib.backend_bases import FigureCanvasBase  # present: checked by _check_extras

    kinds = FigureCanvasBase.get_supported_filetypes()
    suffix = plot.suffix[1:].lower()
    if suffix and suffix not in kinds:
        raise click.UsageError(msg("cli.odds.plot_kind", suffix=suffix, kinds=", ".join(sorted(kinds))))
    if suffix == "pgf":
        import shutil

        from matplotlib import rcParams

        if shutil.which(rcParams["pgf.texsystem"]) is None:
            raise click.UsageError(msg("cli.odds.plot_tex", tex=rcParams["pgf.texsystem"]))


def _check_extras(plot: Path | None, scheduler: str | None) -> None:
    """Stop with the one-line hint if a run needs what is not here (exit status 2, as
    for a usage error): the ``lab`` extra for ``--plot`` and ``--scheduler``, or the fast
    forced line (a C compiler or wasmtime), which has no quiet fallback: a million games
    with the engine would take about an hour (the chance of a deal samples with it)."""
    if plot is not None and not _installed("matplotlib", "numpy"):
        raise click.UsageError(msg("cli.odds.need_lab_plot"))
    if scheduler and not _installed("distributed"):
        raise click.UsageError(msg("cli.odds.need_lab_dask"))
    if not fastline.available():
        raise click.UsageError(msg("cli.odds.need_fast"))


def _run_command(variant: Variant, games: int, all_: bool, as_json: bool, plot: Path | None,
                 workers: int | None, scheduler: str | None, seed: int, direct: bool) -> None:
    _check_extras(plot, scheduler)  # and the kernel loaded: the run's time is play only
    if seed > MAX_SEED_RUN:
        raise click.UsageError(msg("cli.odds.bad_seed_run", max=MAX_SEED_RUN, seed=seed))
    if workers is not None:
        if scheduler:
            raise click.UsageError(msg("cli.odds.workers_local"))
        if not 1 <= workers <= fastline.max_threads():
            raise click.UsageError(msg("cli.odds.workers_range", max=fastline.max_threads()))
    if plot is not None:
        _check_plot_path(plot)
    # --all: the four unlimited runs, each counting what its deals do with fewer redeals
    # (the 16 finite rows follow exactly); --direct: the 20 variants one by one.
    derived = all_ and not direct
    variants = list(VARIANTS) if all_ else [variant]
    unlimited = [Variant(None, wp, pr) for wp, pr in FAMILIES]  # the plot's curves
    extra = [v for v in unlimited if v not in variants] if plot is not None and not derived else []
    deals = runner.deal_block(seed, games)
    client = None
    try:
        if scheduler:
            client = runner.connect(scheduler, timeout=3.0)
            threads = plural(current_lang(), "cli.odds.dask", len(client.scheduler_info().get("workers", {})),
                             address=scheduler)
        else:
            threads = plural(current_lang(), "cli.odds.threads", workers or fastline.max_threads())
        t0 = time.perf_counter()
        tallies: list[Tally] = []
        # Progress moves once per chunk: with the runner's 2^20-deal chunks the default
        # million-game run was one jump from 0 to done. Tallies do not depend on the chunks.
        chunk = max(1 << 16, min(runner.CHUNK, games // 100))
        played = games * (len(FAMILIES) if derived else len(variants) + len(extra))
        with progress_bar(msg("cli.odds.progress"), played) as (prog, task):
            advance = partial(prog.advance, task)
            if derived:
                tallies, _ = runner.table(games, seed, workers, client, progress=advance, chunk=chunk)
            for v in [] if derived else [*variants, *extra]:
                prog.update(task, description=v.token)
                tallies.extend(runner.run([v], games, seed, workers, client, progress=advance, chunk=chunk))
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
        try:
            write_plot(plot, [by[v] for v in unlimited], shown, by.get(Variant(), shown[0]) if all_ else shown[0])
        except OSError as e:
            raise click.ClickException(msg("cli.write.failed", path=plot, error=os_error_text(e))) from None
        except (ValueError, RuntimeError) as e:  # matplotlib: a format it cannot make here
            raise click.ClickException(msg("cli.write.failed", path=plot, error=e)) from None
    if as_json:
        meta = {"seed": seed, "first_deal": deals.start, "last_deal": deals.stop - 1, "seconds": seconds,
                "games_played": played, "games_per_second": played / seconds if seconds > 0 else None}
        if all_:
            # "unlimited": the finite rows follow from the four unlimited runs; "direct": each played.
            method = "direct" if direct else "unlimited"
            click.echo(json.dumps({**meta, "games": games, "method": method,
                                   "variants": [t.to_json() for t in shown]}))
        else:
            click.echo(json.dumps({**shown[0].to_json(), **meta}))
    else:
        if all_:
            _print_table(shown, deals, seed, played, derived)
        else:
            _print_tally(shown[0], deals, seed)
        # Every game played counts, a plot's extra runs too: the time is theirs as well.
        rate = played / seconds if seconds > 0 else float("inf")
        click.echo(msg("cli.odds.speed", rate=number(rate, current_lang(), 0),
                       seconds=number(seconds, current_lang(), 2), threads=threads))
    if plot is not None and not as_json:
        click.echo(msg("cli.odds.plot_written", path=plot), err=True)
