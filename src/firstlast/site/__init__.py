"""The static site (docs/site.md): the table at one link, offline, with no server; the
same web app answers the page in the browser (``bridge``), ``firstlast site build``
writes it (``build``)."""
