// "Notifications on this device": the switch for this device's pushes ("your turn", challenges,
// finished games, even with no page of the site open), on the account page and on the "your
// turn" page, and the offer to install the site as an app where the browser makes one. Every
// state says in words what the player gets, and what to do if the browser blocks it.
import { h } from "../dom.js";
import { errorLine, showNote } from "../api.js";
import { t } from "../text.js";
import { canNotify, pushStatus, turnOn, turnOff, installOffered, onInstallOffer, install, installed } from "../notify.js";

const WHY = { denied: "push.denied", no_worker: "push.noWorker", no_push_service: "push.noService" };

function installLine() {
  const line = h("p", { id: "install-line" });
  const draw = () => {
    if (installed()) line.replaceChildren(h("span", { class: "muted", id: "install-done" }, t("push.installed")));
    else if (installOffered()) {
      line.replaceChildren(h("button", { type: "button", id: "install-app", onclick: async () => { await install(); draw(); } }, t("push.install")),
        " ", h("span", { class: "muted" }, t("push.installWhy")));
    } else line.replaceChildren(h("span", { class: "muted", id: "install-hint" }, t("push.installHint")));
  };
  draw();
  onInstallOffer(draw);
  return line;
}

// The panel, drawn into `box` (redrawn after every change); `heading` false leaves out the title
// (the "your turn" page has its own).
export async function pushPanel(box, { heading = true } = {}) {
  const error = errorLine("push-error");
  const title = heading ? h("h3", { id: "push-title" }, t("push.title")) : "";
  const why = h("p", { class: "muted" }, t("push.why"));
  const draw = async () => {
    const status = await pushStatus();
    const state = h("p", { id: "push-state", "aria-live": "polite" });
    const buttons = h("p", {});
    const act = (id, label, work, primary = false) => h("button", {
      type: "button", id, class: primary ? "primary" : "",
      onclick: async (event) => {
        event.target.disabled = true;
        error.clear();
        try { await work(); } catch (e) {
          error.show(t(WHY[e.code] || "push.failed", { reason: e.message }));
          error.element.dataset.reason = e.message; // the browser's own words, for whoever debugs
        }
        draw();
      },
    }, label);
    if (!canNotify()) state.textContent = t("push.unsupported");
    else if (status.permission === "denied") state.textContent = t("push.blocked");
    else if (status.on) {
      state.textContent = t("push.on");
      buttons.append(act("push-off", t("push.turnOff"), async () => { await turnOff(); showNote(t("push.offNote")); }));
    } else if (status.server && !status.server.available) {
      state.textContent = status.permission === "granted" ? t("push.pageOnly") : t("push.serverOff");
      if (status.permission !== "granted") buttons.append(act("push-on", t("push.turnOnPage"), turnOn, true));
    } else {
      state.textContent = status.permission === "granted" ? t("push.offPageOnly") : t("push.offHere");
      buttons.append(act("push-on", t("push.turnOn"), async () => {
        const now = await turnOn();
        if (now.on) showNote(t("push.onNote"));
      }, true));
    }
    const devices = status.server?.devices ? h("p", { class: "muted", id: "push-devices" }, t("push.devices", { n: status.server.devices })) : "";
    box.replaceChildren(...[title, why, state, devices, buttons, error.element, installLine()].filter(Boolean));
    box.dataset.state = !canNotify() ? "unsupported" : status.permission === "denied" ? "blocked" : status.on ? "on" : "off";
  };
  await draw();
}
