// The pages shown in place of the board (the rating pages, players/; the tournament pages,
// tournaments/): how one is opened in place by a link, followed by back and forward, and put away
// by a mode button or its "Back to the board" link.

/**
 * Wire `page` ({isOpen, open(route, {push}), close({push})}), whose addresses `routeOf(params)`
 * reads (null for another page's), to the document: links marked `data-route` to one of its
 * addresses open it in place (a modified click: a new tab, as the browser does it); back and
 * forward follow its addresses; a mode button or the link `back` brings the board back.
 */
export function wireRoutedPage(page, routeOf, back) {
  document.addEventListener("click", (e) => {
    const a = e.target instanceof Element ? e.target.closest("a[data-route]") : null;
    if (!a || e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    const route = routeOf(new URL(a.href).searchParams);
    if (!route) return;
    e.preventDefault();
    page.open(route);
  });
  window.addEventListener("popstate", () => {
    const route = routeOf(new URLSearchParams(location.search));
    if (route) page.open(route, { push: false });
    else if (page.isOpen) page.close({ push: false });
  });
  // a mode button brings the board back (capture: before the router switches the page)
  document.querySelector(".modes").addEventListener(
    "click",
    (e) => {
      if (page.isOpen && e.target instanceof Element && e.target.closest(".mode-btn")) page.close();
    },
    true,
  );
  back.addEventListener("click", (e) => {
    e.preventDefault();
    page.close();
  });
}

/**
 * The board's address to go back to, as a page opens: that of `other` (the other page shown in
 * place of the board, put away now) when it is open; the site's root when the address is one of
 * the opening page's own (`ownRoute(params)` not null: it was opened by its address); else the
 * address as it is.
 */
export function boardAddress(other, ownRoute) {
  if (other && other.isOpen) {
    const url = other.boardUrl;
    other.hide();
    return url;
  }
  return ownRoute(new URLSearchParams(location.search)) ? new URL("./", document.baseURI).href : location.href;
}

/**
 * Put `page` ({isOpen, hide(), boardUrl}) away and bring the board of router `app` back (`push`: a
 * history entry of the page's `boardUrl`); nothing when the page is not open.
 */
export function closePage(page, app, push) {
  if (!page.isOpen) return;
  page.hide();
  if (push) history.pushState(null, "", page.boardUrl || "./");
  app.syncUrl();
  if (app.table.game) app.refresh();
}
