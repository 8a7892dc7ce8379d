// @ts-check
// The settings dialog (#settings-dialog in game.html): a modal <dialog>, so the keyboard works
// as everywhere (Tab moves, Escape closes, the focus returns to the button that opened it).
// Every control changes its setting at once; settings.js stores it and sends it to an account.
import { DEFAULTS, settings } from "./settings.js";

/** Wire the dialog to the settings and to the button that opens it. */
export function attachSettingsDialog(dialog, opener) {
  const form = dialog.querySelector("form");
  const field = (name) => form.elements.namedItem(name);
  const cellSize = field("cell_size");
  const longPress = field("long_press_ms");
  const cellSizeText = dialog.querySelector("[data-show='cell_size']");
  const longPressText = dialog.querySelector("[data-show='long_press_ms']");
  const status = dialog.querySelector(".settings-status");

  function showCellSize(px) {
    cellSizeText.textContent = px === null ? "automatic" : `${px} px at most`;
  }

  function render(values) {
    cellSize.value = String(values.cell_size ?? 32);
    showCellSize(values.cell_size);
    longPress.value = String(values.long_press_ms);
    longPressText.textContent = `${values.long_press_ms} ms`;
    for (const name of ["chord_on_left", "flag_mode", "sound", "reactions"]) {
      const box = field(name);
      if (box) box.checked = values[name]; // the solo page has no reactions box
    }
    for (const radio of form.querySelectorAll("input[name='theme']")) {
      radio.checked = radio.value === values.theme;
    }
    if (!settings.synced) status.textContent = "Kept in this browser.";
    else if (settings.status === "unsaved") {
      status.textContent = `Kept in this browser; not yet saved to ${settings.account}'s account.`;
    } else if (settings.account) {
      status.textContent = `Kept in this browser and with your account, ${settings.account}.`;
    } else {
      status.textContent = "Kept in this browser. Log in to keep them on every device.";
    }
  }

  cellSize.addEventListener("input", () => showCellSize(Number(cellSize.value)));
  longPress.addEventListener("input", () => {
    longPressText.textContent = `${longPress.value} ms`;
  });
  form.addEventListener("change", (event) => {
    const { name } = event.target;
    if (!(name in DEFAULTS)) return;
    let value;
    if (event.target.type === "checkbox") value = event.target.checked;
    else if (event.target.type === "range") value = Number(event.target.value);
    else value = event.target.value;
    settings.set({ [name]: value });
  });
  dialog.querySelector(".settings-close").addEventListener("click", () => dialog.close());
  // A click on the backdrop (outside the dialog's box) closes it too.
  dialog.addEventListener("click", (event) => {
    if (event.target !== dialog) return;
    const box = dialog.getBoundingClientRect();
    const inside =
      event.clientX >= box.left && event.clientX <= box.right &&
      event.clientY >= box.top && event.clientY <= box.bottom;
    if (!inside) dialog.close();
  });
  opener.addEventListener("click", () => {
    render(settings.values);
    dialog.showModal();
  });
  settings.subscribe((values) => render(values));
  render(settings.values);
}
