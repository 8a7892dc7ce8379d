// @ts-check
// The player page's view in its URL, so a filtered history can be linked and survives a
// reload: ?kind=&preset=&variant=&mode=&result= filter the games (absent: any; kind absent:
// every game of an account, "ranked": the ranked ones), &chart= picks the
// charts' board when it is not the filtered preset. The allowed values are the options of the
// history form's selects (and the chart switch's radios), so the template is their one list.

const form = /** @type {import("../core/types.js").NamedForm} */ (
  document.getElementById("history-filters")
);
export const FILTERS = ["kind", "preset", "variant", "mode", "result"];

/** The values a key may take: its select's options (and radios), "" meaning any. */
function allowedValues(key) {
  if (key === "chart") {
    const radios = /** @type {HTMLInputElement[]} */ ([
      ...document.querySelectorAll("#chart-switch input[name=chart]"),
    ]);
    return radios.map((i) => i.value);
  }
  const select = /** @type {HTMLSelectElement} */ (form.elements.namedItem(key));
  return [...select.options].map((option) => option.value).filter(Boolean);
}

const ALLOWED = Object.fromEntries([...FILTERS, "chart"].map((key) => [key, allowedValues(key)]));

/** The view a query string (by default the page's) asks for: {preset, variant, mode, result,
 * chart}, null where absent or unknown. */
export function viewFromUrl(search = window.location.search) {
  const query = new URLSearchParams(search);
  return Object.fromEntries(
    Object.entries(ALLOWED).map(([key, allowed]) => {
      const value = query.get(key);
      return [key, allowed.includes(value) ? value : null];
    }),
  );
}

/** The query string of a view, its keys in a fixed order, the unset ones left out. */
export function urlOf(view) {
  const query = new URLSearchParams();
  for (const key of [...FILTERS, "chart"]) if (view[key]) query.set(key, view[key]);
  const text = query.toString();
  return text ? `?${text}` : window.location.pathname;
}

/**
 * The filters of a view, as the games endpoint takes them: for an account (`everyGame`) its
 * every game unless "ranked" is asked (`kind` absent: the ranked games, the endpoint's first
 * meaning); a guest name keeps only ranked games, so it never sends `kind`.
 */
export function filtersOf(view, everyGame = false) {
  const filters = Object.fromEntries(FILTERS.map((key) => [key, view[key]]));
  if (!everyGame || view.kind === "ranked") filters.kind = null;
  else filters.kind = view.kind ?? "all";
  return filters;
}

/** Show a view's filters in the form. */
export function showFilters(view) {
  for (const key of FILTERS) form.elements[key].value = view[key] ?? "";
}

/** The filters the form shows now. */
export function formFilters() {
  return Object.fromEntries(FILTERS.map((key) => [key, form.elements[key].value || null]));
}

/** Go to a view: a new history entry (Back returns to the previous one) unless it is the same. */
export function pushView(view) {
  const url = urlOf(view);
  const here = window.location.search || window.location.pathname;
  if (url !== here) window.history.pushState(null, "", url);
}
