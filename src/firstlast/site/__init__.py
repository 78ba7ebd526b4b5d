"""The static site (docs/site.md): the table at one link, offline, with no server.

``firstlast site build DIR`` (``build``) writes a folder any static host can serve: the
page, Pyodide and the wheels the package needs, this package itself, a service worker
and a web app manifest. In the browser the page's requests go to a Web Worker that runs
this same package and answers them with the same web app (``bridge``).
"""
