// Online play through crown-server. Filled in once the server API (docs/api.md) is available.
export class Online {
  constructor(hooks) {
    this.hooks = hooks;
    this.gameId = null;
    this.seat = null;
  }
  openCreateDialog() {
    this.hooks.toast("Online play is not available in this build yet.");
  }
  join() {
    this.hooks.toast("Online play is not available in this build yet.");
  }
  canMove() {
    return false;
  }
  sendMove() {}
  nameOf(color) {
    return color.charAt(0).toUpperCase() + color.slice(1);
  }
  clock() {
    return null;
  }
  statusText(side) {
    return "Online play is not available yet";
  }
}
