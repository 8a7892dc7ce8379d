// @ts-check
// What the settings change on a game page (solo or race): the board's cell size, the zoom
// buttons, the flag-mode toggle under the board, the settings dialog in the header; then the
// account's settings are asked for (they may change all of it once more).
import { attachSettingsDialog } from "./settings-dialog.js";
import { settings } from "./settings.js";
import { showTouchHint } from "./touch-hint.js";
import { attachZoomControls, BoardZoom } from "./zoom.js";

/** Wire the page's controls to `view` (the player's BoardView); returns its BoardZoom. */
export function attachGameSettings(view) {
  const zoom = new BoardZoom(view);
  attachZoomControls(zoom, document.getElementById("board-tools"));
  const flagMode = document.getElementById("flag-mode");

  function show(values) {
    flagMode.setAttribute("aria-pressed", String(values.flag_mode));
    if (values.flag_mode) view.element.dataset.flagMode = "1";
    else delete view.element.dataset.flagMode;
  }

  flagMode.addEventListener("click", () => settings.set({ flag_mode: !settings.get("flag_mode") }));
  view.preferredPx = settings.get("cell_size");
  settings.subscribe((values, keys) => {
    show(values);
    if (keys.includes("cell_size")) view.setPreferredSize(values.cell_size);
  });
  show(settings.values);
  attachSettingsDialog(
    document.getElementById("settings-dialog"),
    document.getElementById("settings-button"),
  );
  settings.load();
  showTouchHint(document.getElementById("touch-hint"), touchFirst(), () => view.fit());
  return zoom;
}

/** Whether this device is touch first (no keyboard focus mark to show until a key is used). */
export function touchFirst() {
  return window.matchMedia("(pointer: coarse)").matches;
}
