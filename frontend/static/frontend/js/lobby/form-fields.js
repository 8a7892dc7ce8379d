// @ts-check
// What the lobby's sections share: a number field's value as the server wants it, and the
// error line under a form or a list that says what went wrong.

/** A number input's value as an integer; anything else goes to the server as typed. */
export function integerOrRaw(value) {
  const text = value.trim();
  if (text === "") return null;
  return /^-?\d+$/.test(text) ? Number(text) : text;
}

/** Show an error line with `message`, or hide it for "". */
export function showError(element, message) {
  element.textContent = message;
  element.hidden = !message;
}
