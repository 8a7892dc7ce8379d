// @ts-check
// Another name, when the server refuses the one a game page said hello with (session.js):
// `bad_name` (not a name it accepts: blank, invisible or too long) or `name_taken` (another
// player of this game, or an account, has it or one that looks like it). The page says so in
// the server's own words and asks for another: the field holds the refused name, ready to
// edit; a race may be watched instead. The chosen name is remembered as the nickname.
import { setConnection } from "./page-status.js";
import { isValidName, NAME_MAX_LENGTH, setNickname } from "./storage.js";

const HEADINGS = {
  bad_name: "That name cannot be used",
  name_taken: "That name is taken",
};

/** The server's message as a sentence ("that name is taken in this game."), capitalised
 * when it begins one. */
function sentence(message, capital) {
  let text = (message ?? "").trim();
  if (!text) return "";
  if (capital) text = text[0].toUpperCase() + text.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function element(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  node.append(...children);
  return node;
}

/** The login page, coming back here once logged in. */
function loginLink() {
  const here = window.location.pathname + window.location.search;
  return element("a", {
    href: `/accounts/login/?next=${encodeURIComponent(here)}`,
    id: "name-prompt-login",
    textContent: "log in",
  });
}

/**
 * Ask for another name after `error` refused `name`. Resolves to { name } to say hello with,
 * or { watch: true } to watch the race instead.
 */
export function askForName(error, name) {
  const race = document.body.dataset.mode === "race";
  document.getElementById("name-prompt")?.remove();
  setConnection("connecting", "choose a name");

  const input = element("input", {
    id: "name-prompt-input",
    name: "name",
    type: "text",
    value: name,
    maxLength: NAME_MAX_LENGTH,
    autocomplete: "nickname",
    spellcheck: false,
    required: true,
  });
  input.setAttribute("aria-invalid", "true");
  input.setAttribute("aria-describedby", "name-prompt-reason");
  const problem = element("p", { className: "error", id: "name-prompt-error", hidden: true });
  problem.setAttribute("role", "alert");
  const submit = element("button", {
    type: "submit",
    className: "primary",
    id: "name-prompt-submit",
    textContent: race ? "Join the race" : "Play",
  });
  const form = element(
    "form",
    { className: "name-prompt-form", noValidate: true },
    element("label", { htmlFor: input.id, textContent: "Your name" }),
    element("div", { className: "name-prompt-row" }, input, submit),
    problem,
  );

  const reason = element("p", { className: "name-prompt-reason", id: "name-prompt-reason" });
  // "“ALICE” was refused: that name is taken in this game."
  if (name) {
    const refused = element("strong", { id: "name-prompt-refused", textContent: name });
    reason.append("“", refused, "” was refused: ");
  }
  reason.append(sentence(error.message, !name) || `${HEADINGS[error.code] ?? "Refused"}.`);

  const ways = element("p", { className: "name-prompt-ways" });
  const watch = element("button", {
    type: "button",
    className: "link-button",
    id: "name-prompt-watch",
    textContent: "watch it instead",
  });
  if (race) ways.append("Or ", watch, " without racing. ");
  if (error.code === "name_taken") ways.append("Is it your account's name? Then ", loginLink(), ".");
  else ways.append("Names are 1 to 24 visible characters.");
  ways.append(" ", element("a", { href: "/", textContent: "Back to the lobby" }));

  const title = element("h2", {
    id: "name-prompt-title",
    textContent: HEADINGS[error.code] ?? "Choose another name",
  });
  const prompt = element("section", { className: "name-prompt", id: "name-prompt" }, title);
  prompt.dataset.code = error.code;
  prompt.setAttribute("aria-labelledby", title.id);
  prompt.append(reason, form, ways);
  document.querySelector(".site-main").prepend(prompt);
  document.body.dataset.namePrompt = "1";
  input.focus();
  input.select();

  return new Promise((resolve) => {
    const done = (choice) => {
      prompt.remove();
      delete document.body.dataset.namePrompt;
      setConnection("connecting", "connecting…");
      resolve(choice);
    };
    input.addEventListener("input", () => {
      input.removeAttribute("aria-invalid");
      problem.hidden = true;
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const chosen = input.value.trim();
      if (!isValidName(chosen)) {
        problem.textContent = `A name is 1 to ${NAME_MAX_LENGTH} characters.`;
        problem.hidden = false;
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", problem.id);
        input.focus();
        return;
      }
      setNickname(chosen);
      done({ name: chosen });
    });
    watch.addEventListener("click", () => done({ watch: true }));
  });
}
