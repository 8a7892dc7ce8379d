// Resigning a race: the button asks first, in place (no blocking dialog), and only a racer
// still playing sees it.

export class ResignControl {
  /** area: #resign-area; resign(): send the resignation. */
  constructor(area, resign) {
    this.area = area;
    this.confirm = area.querySelector("#resign-confirm");
    const yes = area.querySelector("#resign-yes");
    area.querySelector("#resign-button").addEventListener("click", () => {
      this.confirm.hidden = false;
      yes.focus();
    });
    area.querySelector("#resign-no").addEventListener("click", () => {
      this.confirm.hidden = true;
    });
    yes.addEventListener("click", () => {
      this.confirm.hidden = true;
      resign();
    });
  }

  render(canResign) {
    this.area.hidden = !canResign;
    if (!canResign) this.confirm.hidden = true;
  }
}
