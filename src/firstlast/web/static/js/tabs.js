// Tabs as screen readers and keyboards expect them (WAI-ARIA tabs): the selected tab is
// the list's one stop in the Tab order; the arrow keys, Home and End move along the tabs
// and select the one they reach.

/** Mark ``tab`` selected among the tabs of ``list`` (aria-selected, the Tab stop), and
 * name ``panel`` by it. @param {HTMLElement} list @param {HTMLElement} tab @param {HTMLElement} [panel] */
export function selectTab(list, tab, panel) {
  for (const b of /** @type {NodeListOf<HTMLElement>} */ (list.querySelectorAll("[role=tab]"))) {
    b.setAttribute("aria-selected", String(b === tab));
    b.tabIndex = b === tab ? 0 : -1;
  }
  if (panel && tab.id) panel.setAttribute("aria-labelledby", tab.id);
}

/** Let the arrow keys (←/→, and ↑/↓), Home and End move between the tabs of ``list``:
 * the tab reached takes the focus and ``choose`` is called with it.
 * @param {HTMLElement} list @param {(tab: HTMLElement) => void} choose */
export function arrowTabs(list, choose) {
  list.addEventListener("keydown", (e) => {
    const tabs = /** @type {HTMLElement[]} */ ([...list.querySelectorAll("[role=tab]")]);
    const i = tabs.indexOf(/** @type {HTMLElement} */ (e.target));
    if (i < 0 || !tabs.length) return;
    const n = tabs.length;
    /** @type {Record<string, number>} */
    const moves = { ArrowRight: (i + 1) % n, ArrowDown: (i + 1) % n, ArrowLeft: (i - 1 + n) % n, ArrowUp: (i - 1 + n) % n,
      Home: 0, End: n - 1 };
    if (!(e.key in moves)) return;
    e.preventDefault();
    const tab = tabs[moves[e.key]];
    tab.focus();
    choose(tab);
  });
}
