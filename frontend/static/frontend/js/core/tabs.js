// @ts-check
// Tabs: a group of them (the daily leaderboards' boards), and a table chosen by groups of tabs
// (the leaderboards and the ratings pages), each group the links with a data-<key> attribute
// (data-preset, data-variant, ...). A table's choice lives in the query string, so a view can be
// shared or bookmarked and the back button walks the choices; classic boards, the default,
// leave `variant` out of the URL (older links).

/** Mark the tab of `value` selected; the others leave the tab order (the arrows reach them). */
export function selectTab(list, key, value) {
  for (const tab of list) {
    const selected = tab.dataset[key] === value;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
  }
}

/** A click on a tab, or the left and right arrows in its group, calls choose(its value). */
export function wireTabs(list, key, choose) {
  for (const tab of list) {
    tab.addEventListener("click", (event) => {
      // A link's click with a modifier opens it as a link: in a new tab, say.
      const modified = event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey;
      if (tab instanceof HTMLAnchorElement && modified) return;
      event.preventDefault();
      choose(tab.dataset[key]);
    });
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      event.preventDefault();
      const next = list[(list.indexOf(tab) + step + list.length) % list.length];
      next.focus();
      choose(next.dataset[key]);
    });
  }
}

/**
 * Wire the tabs of `defaults`' keys and load the URL's choice. `page`:
 *   describe(choice): caption and title for a choice (called before it loads),
 *   fetch(choice): a promise of the answer,
 *   show(choice, answer): draw it,
 *   fail(error): empty the table; returns the line that says why.
 * `table` is aria-busy while loading and `status` says so; an answer to an older choice is
 * dropped. body[data-ready] is set once the first answer is drawn.
 */
export function startTabChooser(defaults, { table, status, ...page }) {
  const tabs = Object.fromEntries(
    Object.keys(defaults).map((key) => [
      key,
      /** @type {HTMLAnchorElement[]} */ ([...document.querySelectorAll(`[data-${key}]`)]),
    ]),
  );
  let loading = 0; // the number of the latest request: older answers are dropped

  /** The choice the URL asks for; anything unknown falls back to the default. */
  function choiceFromUrl() {
    const query = new URLSearchParams(window.location.search);
    const choice = {};
    for (const [key, list] of Object.entries(tabs)) {
      const value = query.get(key);
      choice[key] = list.some((tab) => tab.dataset[key] === value) ? value : defaults[key];
    }
    return choice;
  }

  function urlOf(choice) {
    const query = new URLSearchParams(choice);
    // The defaults of what came later stay out of the URL, so older links read the same.
    for (const key of ["variant", "style"]) {
      if (choice[key] === defaults[key]) query.delete(key);
    }
    return `?${query}`;
  }

  function showTabs(choice) {
    for (const [key, list] of Object.entries(tabs)) {
      selectTab(list, key, choice[key]);
      // Each tab links to the full choice it leads to: shareable, opens in a new tab too.
      for (const tab of list) tab.href = urlOf({ ...choice, [key]: tab.dataset[key] });
    }
  }

  async function load(choice) {
    const request = ++loading;
    showTabs(choice);
    page.describe(choice);
    status.hidden = false;
    status.textContent = "Loading…";
    table.setAttribute("aria-busy", "true");
    try {
      const answer = await page.fetch(choice);
      if (request !== loading) return;
      page.show(choice, answer);
      status.textContent = "";
      status.hidden = true;
    } catch (error) {
      if (request !== loading) return;
      status.textContent = page.fail(error);
      status.hidden = false;
    } finally {
      if (request === loading) {
        table.removeAttribute("aria-busy");
        document.body.dataset.ready = "1";
      }
    }
  }

  function choose(key, value) {
    const choice = { ...choiceFromUrl(), [key]: value };
    const url = urlOf(choice);
    if (url !== window.location.search) window.history.pushState(choice, "", url);
    load(choice);
  }

  for (const [key, list] of Object.entries(tabs)) {
    wireTabs(list, key, (value) => choose(key, value));
  }

  window.addEventListener("popstate", () => load(choiceFromUrl()));
  load(choiceFromUrl());
}
