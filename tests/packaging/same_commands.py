"""Commands that the README, the workflows and the tests must spell the same way."""

#: The static site as the README builds it, as tests/packaging/test_wheel.py runs it from
#: the wheel, and as .github/workflows/pages.yml builds it for GitHub Pages.
SITE_BUILD = "firstlast site build site/"
