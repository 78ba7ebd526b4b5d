"""``firstlast deal``, ``autoplay`` and ``replay``: the engine from the command line."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import click

from ..engine import Game, Position, Variant, play_out
from ..engine.errors import IllegalMoveError, InvalidMoveError, RecordError
from ..engine.record import game_from_record, record_to_text
from ..i18n import describe_variant, file_error_text, invalid_text, plural, refusal_text
from ..recordfile import RecordFileError, read_record_file
from .lang import command, current_lang, msg, option, os_error_text
from .options import DEAL, DEAL_RANGE, FilePath, progress_bar, variant_options

#: Ranges of at least this many deals go through the fast forced line where it runs:
#: loading it costs a moment (building it, the first time), and the engine plays a few
#: hundred deals a second. Shorter ranges, or no fast line, use the engine's own.
KERNEL_FROM = 1000
#: Deals the kernel plays per call while the results stream out.
KERNEL_BLOCK = 65_536


@command("cli.deal.help")
@click.argument("number", type=DEAL)
@option("--json", "as_json", is_flag=True, help_key="cli.deal.help.json")
def deal(number: int, as_json: bool) -> None:
    """Show the layout of deal NUMBER (R2, docs/rules.md §4)."""
    pos = Position.deal(number)  # every place filled: a deal has no gaps
    layout = {row: [str(c) for c in getattr(pos, row)] for row in ("first", "reserve", "stock")}
    if as_json:
        click.echo(json.dumps({"deal": number, **layout}))
        return
    click.echo(msg("cli.deal.title", deal=number))
    click.echo(msg("cli.deal.first", cards=" ".join(layout["first"])))
    click.echo(msg("cli.deal.reserve", cards=" ".join(layout["reserve"])))
    click.echo(msg("cli.deal.stock"))
    for i in range(0, len(layout["stock"]), 22):
        click.echo("  " + " ".join(layout["stock"][i:i + 22]))


def _result_line(game: Game) -> str:
    pos = game.position
    lang = current_lang()
    what = msg({"won": "cli.result.won", "lost": "lost"}.get(pos.status, "cli.result.unfinished"))
    return plural(lang, "cli.result", pos.passes, deal=game.deal, variant=describe_variant(game.variant, lang),
                  what=what, score=pos.score, passes=pos.passes, moves=len(game))


def _print_transcript(game: Game) -> None:
    for i, step in enumerate(game.steps, start=1):
        moved = "; ".join(str(m) for m in step.movements)
        if step.move.kind == "redeal":
            moved = msg("cli.transcript.redeal", n=len(step.movements))
        click.echo(f"{i:4}. {step.move!s:<7} {moved}")


def _count(deals: range) -> int:
    """How many deals ``deals`` holds: ``len`` fails past 2^63 (a C size), and a range
    of deal numbers reaches 2^64."""
    return max(0, (deals.stop - deals.start + deals.step - 1) // deals.step)


@command("cli.autoplay.help")
@click.argument("deals", type=DEAL_RANGE, metavar="DEAL|A..B")
@variant_options
@option("--transcript", is_flag=True, help_key="cli.help.transcript")
@option("--json", "as_json", is_flag=True, help_key="cli.autoplay.help.json")
@option("--save", type=FilePath(), help_key="cli.autoplay.help.save")
def autoplay(deals: range, variant: Variant | None, transcript: bool, as_json: bool, save: Path | None) -> None:
    """Play deal DEAL (or every deal in [A, B)) along the forced line to the end."""
    variant = variant or Variant()
    if _count(deals) > 1:
        if transcript or save:
            raise click.UsageError(msg("cli.autoplay.single_only"))
        click.get_current_context().meta["stream"] = True  # read in part (``| head``): done (CatalogGroup)
        _stream_results(deals, variant, as_json)
        return
    if save is not None:
        save_target(save)  # refuse a device or a FIFO before playing, not after
    game = Game(deals[0], variant)
    game.autoplay()
    if save is not None:
        write_atomic(save, record_to_text(game))
    if as_json:
        pos = game.position
        click.echo(json.dumps({"deal": game.deal, "won": pos.status == "won", "score": pos.score,
                               "passes": pos.passes}))
        return
    if transcript:
        _print_transcript(game)
    click.echo(_result_line(game))


def _stream_results(deals: range, variant: Variant, as_json: bool) -> None:
    won, total, out = 0, _count(deals), sys.stdout
    # A progress bar on the terminal while the lines go to a file or a pipe.
    show = not out.isatty() and total >= 1000
    with progress_bar(msg("cli.autoplay.progress"), total, show) as (progress, task):
        for i, (n, w, score, passes) in enumerate(_outcomes(deals, variant), start=1):
            won += w
            if as_json:
                out.write(json.dumps({"deal": n, "won": w, "score": score, "passes": passes}) + "\n")
            else:
                out.write(f"{n}\t{'won' if w else 'lost'}\t{score}\t{passes}\n")
            if show and i % 500 == 0:
                progress.update(task, completed=i)
    if not as_json:
        click.echo(msg("cli.autoplay.summary", won=won, total=total, pct=f"{100 * won / total:.2f}",
                       variant=describe_variant(variant, current_lang())))


def _outcomes(deals: range, variant: Variant) -> Iterator[tuple[int, bool, int, int]]:
    """(deal, won, score, passes) of every deal in ``deals``, in order: long ranges by the
    fast forced line where it runs (derived from the engine, proven equal by the tests),
    else by ``play_out``, the engine's forced line."""
    if _count(deals) >= KERNEL_FROM:
        from ..odds import fastline

        if fastline.available():
            for lo in range(deals.start, deals.stop, KERNEL_BLOCK):
                block = range(lo, min(lo + KERNEL_BLOCK, deals.stop))
                won, score, passes = fastline.play_deals(block, variant)
                yield from zip(block, map(bool, won), score.tolist(), passes.tolist(), strict=True)
            return
        # The same results, only slower: say how to get the fast path, once, on stderr.
        click.echo(msg("cli.autoplay.no_fast_line"), err=True)
    for n in deals:
        o = play_out(n, variant)
        yield n, o.won, o.score, o.passes


def save_target(path: Path) -> tuple[Path, os.stat_result | None] | None:
    """Where saving to ``path`` goes, asked before the work so that a refusal comes first:
    ``None`` for this process's standard output (``-``, ``/dev/stdout``, or any name of
    the very pipe or terminal it writes to); else the file it replaces: ``path`` or,
    through symbolic links, the file they lead to (a link stays a link), with its
    current status (``None`` while it does not exist). Anything else is refused: a
    rename over ``/dev/full`` or a FIFO would replace the device, not write to it."""
    if str(path) in ("-", "/dev/stdout"):
        return None
    target = Path(os.path.realpath(path))
    try:
        st = os.stat(path)  # the same file (but for /proc/self/fd/1, a pipe's name)
    except FileNotFoundError:
        if not target.parent.is_dir():
            raise click.ClickException(msg("cli.write.no_folder", path=path, folder=target.parent)) from None
        return target, None
    except OSError as e:  # a link loop, a folder we may not search …
        raise click.ClickException(msg("cli.write.failed", path=path, error=os_error_text(e))) from None
    if stat.S_ISREG(st.st_mode):
        return target, st
    with contextlib.suppress(OSError, ValueError):  # no standard output, or not a file
        out = os.fstat(sys.stdout.fileno())
        if (st.st_dev, st.st_ino) == (out.st_dev, out.st_ino):
            return None
    raise click.ClickException(msg("cli.write.not_regular", path=path))


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` all or nothing: a temporary file in the target's own
    folder (``save_target``), flushed to disk, then renamed over the target. An existing
    file keeps its permissions. Standard output is written to: a pipe cannot be renamed over."""
    try:
        where = save_target(path)
        if where is None:
            sys.stdout.write(text)
            sys.stdout.flush()
            return
        target, st = where
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
                if st is not None:
                    os.chmod(tmp, stat.S_IMODE(st.st_mode))
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, target)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except OSError as e:
        raise click.ClickException(msg("cli.write.failed", path=path, error=os_error_text(e))) from None


def _record_error_text(file: Path, e: RecordError) -> str:
    """A bad record in the current language. A move the engine refused or could not
    read (``e.move``) is said from the engine error's code (``refusal_text``,
    ``invalid_text``); the record's own faults keep the engine's English sentence."""
    cause = e.__context__
    if e.move is not None and isinstance(cause, IllegalMoveError | InvalidMoveError):
        words = refusal_text if isinstance(cause, IllegalMoveError) else invalid_text
        reason = words(cause.code, cause.params, current_lang())
        return msg("cli.replay.bad_move", file=file, line=e.line, n=e.move, token=repr(e.token), reason=reason)
    return msg("cli.replay.bad", file=file, error=str(e))


@command("cli.replay.help")
@click.argument("file", type=FilePath())
@option("--transcript", is_flag=True, help_key="cli.help.transcript")
def replay(file: Path, transcript: bool) -> None:
    """Check and replay a saved game record FILE."""
    try:
        text = read_record_file(file)
    except RecordFileError as e:
        why = file_error_text(e.code, file, e.limit, current_lang(), os_error=e.os_error)
        raise click.ClickException(why) from None
    try:
        game = game_from_record(text)
    except RecordError as e:
        raise click.ClickException(_record_error_text(file, e)) from None
    if transcript:
        _print_transcript(game)
    click.echo(_result_line(game))
