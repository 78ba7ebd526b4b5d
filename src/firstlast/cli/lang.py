"""The command line's language: ``--lang``, else ``FIRSTLAST_LANG``, else the locale.

Every sentence the CLI prints for a person comes from the catalogs (``firstlast.i18n``,
keys ``cli.*``), its help texts too (``_CatalogHelp``); machine output (JSON,
tab-separated lines, move notation) does not.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any, Final, TypeVar

import click

from ..i18n import DEFAULT_LANG as DEFAULT
from ..i18n import LANGS, catalog, lang_of_tag, t
from ..i18n import os_error_text as i18n_os_error_text

F = TypeVar("F", bound=Callable[..., Any])

#: Set by ``--lang`` for this invocation (``None``: not given; see ``current_lang``).
_chosen: ContextVar[str | None] = ContextVar("firstlast_cli_lang", default=None)


def lang_from_env(environ: Mapping[str, str] | None = None) -> str:
    """``FIRSTLAST_LANG`` if it names a catalog language; else the locale: the first
    set one of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` (the POSIX order) starting with
    ``ru`` means Russian; else English."""
    env = os.environ if environ is None else environ
    locale = next((value for name in ("LC_ALL", "LC_MESSAGES", "LANG") if (value := env.get(name, ""))), "")
    return _env_lang(env) or lang_of_tag(locale) or DEFAULT


def _env_lang(env: Mapping[str, str]) -> str | None:
    value = env.get("FIRSTLAST_LANG", "").strip().lower()
    return value if value in LANGS else None


def current_lang() -> str:
    """The language of this invocation: ``--lang`` if given, else ``lang_from_env()``."""
    return _chosen.get() or lang_from_env()


def asked_lang() -> str | None:
    """The language this invocation asks for by name: ``--lang`` if given, else
    ``FIRSTLAST_LANG`` if it names a catalog language; ``None`` when neither does (the
    locale is no request: a face with a saved language setting keeps it then)."""
    return _chosen.get() or _env_lang(os.environ)


def set_lang(lang: str | None) -> None:
    """Choose the language (``--lang``'s choices; ``None``: back to the environment's)."""
    _chosen.set(lang)


def msg(key: str, /, **params: object) -> str:
    """One CLI message in the current language."""
    return t(current_lang(), key, **params)


def _lang_callback(_ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is not None:
        set_lang(value)


class CatalogOption(click.Option):
    """An option whose help text is the catalog key ``help_key``, filled from
    ``help_params`` (``_CatalogHelp``)."""

    def __init__(self, *args: Any, help_key: str, help_params: Mapping[str, object] | None = None,
                 **kwargs: Any) -> None:
        self.help_key = help_key
        self.help_params: dict[str, object] = dict(help_params or {})
        super().__init__(*args, **kwargs)


def option(*decls: str, help_key: str, help_params: Mapping[str, object] | None = None,
           **kwargs: Any) -> Callable[[F], F]:
    return click.option(*decls, cls=CatalogOption, help_key=help_key, help_params=help_params, **kwargs)


class _CatalogHelp:
    """Help texts from catalog keys (``help_key``: the command's, its options', a
    group's commands'), looked up when help is shown, so in the language chosen by
    then; mixed into click's commands and groups. Each takes ``--lang ru|en`` (eager, so
    that a later ``--help`` uses it): ``firstlast tui --lang ru`` means ``firstlast --lang
    ru tui``."""

    def __init__(self, *args: Any, help_key: str, **kwargs: Any) -> None:
        self.help_key = help_key
        super().__init__(*args, **kwargs)
        self.params.append(CatalogOption(  # type: ignore[attr-defined]
            ["--lang"], type=click.Choice(LANGS), is_eager=True, expose_value=False, callback=_lang_callback,
            help_key="cli.help.lang"))

    def get_help(self, ctx: click.Context) -> str:
        commands = getattr(self, "commands", {}).values()
        for item in [self, *self.get_params(ctx), *commands]:  # type: ignore[attr-defined]
            if hasattr(item, "help_key"):
                item.help = msg(item.help_key, **getattr(item, "help_params", {}))
        helper = self.get_help_option(ctx)  # type: ignore[attr-defined]
        if helper is not None:  # click makes it once, in the language of that moment
            helper.help = msg("cli.help.help")
        return super().get_help(ctx)  # type: ignore[misc, no-any-return]


class CatalogCommand(_CatalogHelp, click.Command):
    """A command whose help is the catalog key ``help_key``."""


class CatalogGroup(_CatalogHelp, click.Group):
    """A group whose help is the catalog key ``help_key``. Output cut short (``| head -1``):
    a whole document is an error, a stream read in part (``ctx.meta["stream"]``) is done."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError as e:
            if not ctx.meta.get("stream"):
                raise click.ClickException(msg("cli.write.failed", path="-", error=os_error_text(e))) from None


def command(help_key: str, **kwargs: Any) -> Callable[[Callable[..., Any]], CatalogCommand]:
    return click.command(cls=CatalogCommand, help_key=help_key, **kwargs)


def os_error_text(e: OSError) -> str:
    return i18n_os_error_text(e, current_lang())


#: click's own words (its gettext message ids) → their catalog keys: click says "Usage:",
#: "Options", "No such command" and its usage errors through ``gettext``, which
#: ``install_click_words`` answers from the catalogs in the current language (English stays click's).
CLICK_WORDS: Final = {
    "Usage:": "click.usage", "Options": "click.options", "Commands": "click.commands",
    "Positional arguments": "click.positional", "No such command {name!r}.": "click.no_such_command",
    "Missing command.": "click.missing_command", "default: {default}": "click.default",
    "env var: {var}": "click.env_var", "Invalid value for {param_hint}: {message}": "click.bad_value",
    "Missing argument": "click.missing_argument", "Missing option": "click.missing_option",
    "Did you mean {possibility}?": "click.did_you_mean",
    "(Did you mean one of: {possibilities}?)": "click.did_you_mean_one_of",
}


def _click_gettext(message: str) -> str:
    """The catalog's template for one of click's words (click fills it in itself)."""
    key = CLICK_WORDS.get(message)
    lang = current_lang()
    return catalog(lang)[key] if key is not None and lang != DEFAULT else message


def _click_ngettext(singular: str, plural: str, n: int) -> str:
    """click's words that depend on a count: the catalogs' as ``_click_gettext``; click
    picks by English's rule, and each of the two is a sentence of its own here."""
    return _click_gettext(singular if n == 1 else plural)


def install_click_words() -> None:
    """Let click's modules (all imported with ``click``) look their words up in the
    catalogs (``CLICK_WORDS``)."""
    for name, module in list(sys.modules.items()):
        if name.startswith("click.") and callable(getattr(module, "_", None)):
            module._ = _click_gettext  # type: ignore[attr-defined]
        if name.startswith("click.") and callable(getattr(module, "ngettext", None)):
            module.ngettext = _click_ngettext  # type: ignore[attr-defined]
