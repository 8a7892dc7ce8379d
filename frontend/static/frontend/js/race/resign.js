// @ts-check
// Resigning a race: the button asks first, in place (no blocking dialog), and only a racer
// still playing sees it. Once the race is decided (docs/protocol.md 2.2) its place is final, so
// the same button offers to leave, which changes nothing of the ranking.

const WORDS = {
  racing: {
    button: "Resign",
    question: "Give up this race? You will be ranked as not finished.",
    yes: "Resign",
    no: "Keep racing",
  },
  decided: {
    button: "Leave",
    question: "Stop here? Your place is final: leaving changes nothing of the ranking.",
    yes: "Leave",
    no: "Play on",
  },
};

export class ResignControl {
  /** area: #resign-area; resign(): send the resignation. */
  constructor(area, resign) {
    this.area = area;
    this.confirm = area.querySelector("#resign-confirm");
    this.button = area.querySelector("#resign-button");
    this.question = area.querySelector("#resign-question");
    this.yes = area.querySelector("#resign-yes");
    this.no = area.querySelector("#resign-no");
    this.button.addEventListener("click", () => {
      this.confirm.hidden = false;
      this.yes.focus();
    });
    this.no.addEventListener("click", () => {
      this.confirm.hidden = true;
    });
    this.yes.addEventListener("click", () => {
      this.confirm.hidden = true;
      resign();
    });
  }

  /** canResign: this page's racer still plays; decided: its place is already final. */
  render(canResign, decided = false) {
    this.area.hidden = !canResign;
    if (!canResign) this.confirm.hidden = true;
    const words = WORDS[decided ? "decided" : "racing"];
    this.area.dataset.decided = decided ? "1" : "";
    this.button.textContent = words.button;
    this.question.textContent = words.question;
    this.yes.textContent = words.yes;
    this.no.textContent = words.no;
  }
}
